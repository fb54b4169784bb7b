package dev.rmtemu.emulator.metrics;

import dev.rmtemu.model.arith.Divisor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The run's latency histograms, all in nanoseconds:
 * <ul>
 *   <li>emulated latency per packet, arrival → departure, recorded from target cycles;</li>
 *   <li>queueing delay per egress port and queue, recorded from target cycles;</li>
 *   <li>host processing time per packet ({@code host…}): how long the emulator itself took,
 *       measured by the caller on the host; it depends on the machine and is kept apart
 *       from everything deterministic.</li>
 * </ul>
 * Cycles become ns as {@code round(cycles × 10^9 / clockHz)} (half up), in exact integer
 * arithmetic. Recording allocates nothing, except that each port/queue histogram is created
 * on its first value (once per queue for the whole run), so idle queues cost no memory.
 * Values below {@link #LATENCY_PENDING_CYCLES} / {@link #QUEUEING_PENDING_CYCLES} cycles are
 * only counted per cycle value and converted when a histogram is read (see
 * {@link LatencyHistogram#recordCycles}); what is read is the same to the byte.
 */
public final class LatencyMetrics {
    /**
     * Range each emulated latency and queueing-delay histogram allocates up front: 10 s in
     * ns (a full 22 MB Tofino buffer drains through a 1 Gb/s port in 0.18 s). Larger values
     * widen the histogram; none is clamped.
     */
    public static final long DEFAULT_INITIAL_HIGHEST_NS = 10_000_000_000L;

    /** Range the host processing-time histogram allocates up front: 1 s in ns (a GC pause); larger values widen it. */
    public static final long DEFAULT_HOST_INITIAL_HIGHEST_NS = 1_000_000_000L;

    /**
     * Emulated latencies below this many cycles are counted exactly in cycles and converted
     * to ns when read. An idle Tofino 1 pipeline takes a few hundred to a few thousand cycles;
     * 16384 cycles (13.4 µs at 1.22 GHz) also covers light queueing, for at most 128 KiB per switch
     * (the pending array grows only as far as the largest count seen).
     */
    public static final int LATENCY_PENDING_CYCLES = 1 << 14;

    /**
     * Queueing delays below this many cycles are counted exactly in cycles and converted to
     * ns when read: they are mostly 0 or small. 4096 cycles (3.4 µs at 1.22 GHz) keep each
     * port/queue at most 32 KiB on top of its packed ns histogram (which grows with the distinct values).
     */
    public static final int QUEUEING_PENDING_CYCLES = 1 << 12;

    private static final long NS_PER_SECOND = 1_000_000_000L;

    /** Name of the emulated-latency .hgrm file. */
    public static final String LATENCY_FILE = "latency.hgrm";
    /** Name of the host processing .hgrm file. */
    public static final String HOST_PROCESSING_FILE = "host-processing.hgrm";

    private final long clockHz;
    /** ns per cycle as the reduced fraction nsPerCycleNum / nsPerCycleDen = 10^9 / clockHz. */
    private final long nsPerCycleNum;
    private final long nsPerCycleDen;
    private final Divisor nsPerCycleDivisor;
    /** Below this many cycles, cycles x num + den/2 cannot overflow a long. */
    private final long singleDivisionBound;
    private final int ports;
    private final int queuesPerPort;
    private final long initialHighestNs;
    private final LatencyHistogram latency;
    private final LatencyHistogram[] queueing;
    private final LatencyHistogram hostProcessing;

    /** With the default highest trackable values. */
    public LatencyMetrics(long clockHz, int ports, int queuesPerPort) {
        this(clockHz, ports, queuesPerPort, DEFAULT_INITIAL_HIGHEST_NS, DEFAULT_HOST_INITIAL_HIGHEST_NS);
    }

    public LatencyMetrics(long clockHz, int ports, int queuesPerPort, long initialHighestNs,
                          long hostInitialHighestNs) {
        if (clockHz <= 0) {
            throw new IllegalArgumentException("clock must be positive, got " + clockHz + " Hz");
        }
        if (ports < 1 || queuesPerPort < 1) {
            throw new IllegalArgumentException("need at least one port and queue, got " + ports + " × " + queuesPerPort);
        }
        this.clockHz = clockHz;
        long g = Divisor.gcd(NS_PER_SECOND, clockHz);
        this.nsPerCycleNum = NS_PER_SECOND / g;
        this.nsPerCycleDen = clockHz / g;
        this.nsPerCycleDivisor = new Divisor(nsPerCycleDen);
        if (Math.multiplyHigh(nsPerCycleDen, nsPerCycleNum) != 0 || nsPerCycleDen * nsPerCycleNum < 0) {
            throw new IllegalArgumentException("clock " + clockHz + " Hz: cycles-to-ns fraction does not fit a long");
        }
        this.singleDivisionBound = (Long.MAX_VALUE - nsPerCycleDen) / nsPerCycleNum;
        this.ports = ports;
        this.queuesPerPort = queuesPerPort;
        this.initialHighestNs = initialHighestNs;
        this.latency = new LatencyHistogram("latency", initialHighestNs, this::cyclesToNs, LATENCY_PENDING_CYCLES);
        this.queueing = new LatencyHistogram[ports * queuesPerPort];
        this.hostProcessing = new LatencyHistogram("host-processing", hostInitialHighestNs);
    }


    /**
     * Target cycles to ns, rounded half up: {@code round(cycles × 10^9 / clockHz)}, in
     * integer arithmetic on the reduced fraction (1.22 GHz: 50/61 ns per cycle), without
     * overflow for any cycle count.
     */
    public long cyclesToNs(long cycles) {
        if (cycles < 0) {
            throw new IllegalArgumentException("negative cycle count " + cycles);
        }
        if (cycles < singleDivisionBound) {
            // same value as below (groups * den * num is a multiple of den), one division instead of three
            return nsPerCycleDivisor.quotient(cycles * nsPerCycleNum + nsPerCycleDen / 2);
        }
        // Whole groups of den cycles are exactly num ns; only the rest needs rounding.
        long groups = cycles / nsPerCycleDen;
        long rest = cycles % nsPerCycleDen;
        return groups * nsPerCycleNum + (rest * nsPerCycleNum + nsPerCycleDen / 2) / nsPerCycleDen;
    }

    /** Records one packet's emulated latency from its arrival and departure cycles. */
    public void recordLatencyCycles(long arrivalCycle, long departureCycle) {
        if (departureCycle < arrivalCycle) {
            throw new IllegalArgumentException("departure cycle " + departureCycle + " before arrival cycle " + arrivalCycle);
        }
        latency.recordCycles(departureCycle - arrivalCycle);
    }

    /** Records one packet's queueing delay (e.g. deq_timedelta) at a port and queue. */
    public void recordQueueingDelayCycles(int port, int qid, long cycles) {
        queueHistogram(port, qid).recordCycles(cycles);
    }

    /** Records host processing time for one packet, in ns measured on the host. */
    public void recordHostProcessingNs(long ns) {
        hostProcessing.record(ns);
    }

    /** Creates the port/queue histogram now, so that its first record allocates nothing. */
    public void prepareQueue(int port, int qid) {
        queueHistogram(port, qid);
    }

    private LatencyHistogram queueHistogram(int port, int qid) {
        if (port < 0 || port >= ports || qid < 0 || qid >= queuesPerPort) {
            throw new IllegalArgumentException("port " + port + " queue " + qid + " outside " + ports + " ports × "
                    + queuesPerPort + " queues");
        }
        int i = port * queuesPerPort + qid;
        LatencyHistogram h = queueing[i];
        if (h == null) {
            h = new LatencyHistogram(queueFileStem(port, qid), initialHighestNs, this::cyclesToNs,
                    QUEUEING_PENDING_CYCLES);
            queueing[i] = h;
        }
        return h;
    }

    private static String queueFileStem(int port, int qid) {
        return "queueing-port" + port + "-q" + qid;
    }

    public long clockHz() {
        return clockHz;
    }

    /** Emulated latency histogram (ns). */
    public LatencyHistogram latency() {
        return latency;
    }

    /** Host processing time histogram (ns). */
    public LatencyHistogram hostProcessing() {
        return hostProcessing;
    }

    /** Queueing delay histogram of a port/queue (ns); empty if nothing was recorded there. */
    public PercentileSummary queueingDelaySummary(int port, int qid) {
        if (port < 0 || port >= ports || qid < 0 || qid >= queuesPerPort) {
            throw new IllegalArgumentException("port " + port + " queue " + qid + " outside " + ports + " ports × "
                    + queuesPerPort + " queues");
        }
        LatencyHistogram h = queueing[port * queuesPerPort + qid];
        return h == null ? PercentileSummary.EMPTY : h.summary();
    }

    /**
     * Summaries of every non-empty histogram, keyed by the .hgrm file stem, sorted:
     * {@code host-processing}, {@code latency}, {@code queueing-port<P>-q<Q>}.
     */
    public SortedMap<String, PercentileSummary> summaries() {
        TreeMap<String, PercentileSummary> m = new TreeMap<>();
        for (LatencyHistogram h : nonEmpty()) {
            m.put(h.name(), h.summary());
        }
        return Collections.unmodifiableSortedMap(m);
    }

    /** Summaries of the deterministic histograms only (without {@code host-processing}). */
    public SortedMap<String, PercentileSummary> emulatedSummaries() {
        TreeMap<String, PercentileSummary> m = new TreeMap<>(summaries());
        m.remove(hostProcessing.name());
        return Collections.unmodifiableSortedMap(m);
    }

    /** The histograms {@link #writeHgrmFiles} writes, in its order (each to {@code name() + ".hgrm"}). */
    public List<LatencyHistogram> nonEmpty() {
        List<LatencyHistogram> list = new ArrayList<>();
        if (latency.count() > 0) {
            list.add(latency);
        }
        for (LatencyHistogram h : queueing) {
            if (h != null && h.count() > 0) {
                list.add(h);
            }
        }
        if (hostProcessing.count() > 0) {
            list.add(hostProcessing);
        }
        return list;
    }

    /**
     * Writes one .hgrm file per non-empty histogram into {@code dir} (created if needed):
     * {@value #LATENCY_FILE}, {@code queueing-port<P>-q<Q>.hgrm} in port then queue order,
     * and {@value #HOST_PROCESSING_FILE}. Values are in ns. Same values give the same bytes.
     *
     * @return the files written, in that order
     */
    public List<Path> writeHgrmFiles(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (LatencyHistogram h : nonEmpty()) {
            Path file = dir.resolve(h.name() + ".hgrm");
            h.writeHgrm(file);
            written.add(file);
        }
        return Collections.unmodifiableList(written);
    }

    /** Summaries as nested sorted maps for a JSON report: stem → percentile map. */
    public SortedMap<String, SortedMap<String, Number>> toMap() {
        TreeMap<String, SortedMap<String, Number>> m = new TreeMap<>();
        for (Map.Entry<String, PercentileSummary> e : summaries().entrySet()) {
            m.put(e.getKey(), e.getValue().toMap());
        }
        return Collections.unmodifiableSortedMap(m);
    }
}

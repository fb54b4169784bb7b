package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.tm.TrafficManagerConfig;
import dev.rmtemu.model.arith.Divisor;
import dev.rmtemu.model.examples.CounterProgram;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.PositionalCrc;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Map;

/**
 * The plain-Java reference for a whole switch running {@code counter}: the same per-packet
 * model as {@link SwitchEngine} – record copied once, parser slot per pipe, ingress latency,
 * 5-tuple CRC and a per-pipe counter array, the traffic manager's tail drop in cells and
 * exact serialisation with carried remainders, egress latency, latency and queueing-delay
 * counts in cycles – written flat for the one case the replay benchmark runs: every packet
 * to one front-panel port, one queue, a program known in advance, no hardware checks, no
 * recirculation, multicast, control plane or metadata beyond what the model needs.
 *
 * <p>It answers "what does the engine's generality cost": the engine's packets per second
 * over this class's, in the same JMH run. {@code FlatCounterSwitchTest} checks that both give
 * the same departures (cycle by cycle, in order), drops and counter contents, so the
 * comparison is between two implementations of one model.
 */
final class FlatCounterSwitch {
    /** Latency and queueing delay counted per cycle below this bound (larger values in {@link #slowPath}). */
    private static final int COUNTED_CYCLES = 1 << 14;
    /** Fields the parser fills: the 5-tuple. */
    private static final int FIELDS = 5;

    private final int ingressToTm;
    private final int egressToWire;
    private final int portsPerPipe;
    private final int egressPort;
    private final PositionalCrc crc;
    private final long hashMask;
    private final Divisor fold;
    private final long cellMask;
    private final long[][] counters;

    private final int cellBytes;
    private final Divisor cellDivisor;
    private final int overheadBytes;
    private final int queueLimitCells;
    private final int portLimitCells;
    private final int bufferCells;
    private final long cyclesPerBitNum;
    private final Divisor cyclesPerBitDen;

    // packets: record copy, parsed fields, arrival cycle; a LIFO free list keeps slots hot
    /** Frame bytes a slot keeps, as the engine's pool with the default snap length. */
    private static final int FRAME = PacketRecord.DEFAULT_FRAME_CAPACITY;
    private static final int STRIDE = PacketRecord.stride(FRAME);
    private final UnsafeBuffer records;
    private final PacketRecord view = new PacketRecord();
    private final long[] fields;
    private final long[] arrival;
    private final long[] packetNumber;
    private final int[] free;
    private int freeCount;
    private final long[] parserFree;

    // packets between ingress and the traffic manager, sorted by (cycle, pipe)
    private final int laneMask;
    private final long[] laneCycle;
    private final int[] lanePipe;
    private final int[] laneSlot;
    private int laneHead;
    private int laneSize;

    // the egress port's one queue: (enq cycle, slot, bytes, cells)
    private final int queueMask;
    private final long[] queueEnq;
    private final int[] queueSlot;
    private final int[] queueBytes;
    private final int[] queueCells;
    private int queueHead;
    private int queueSize;
    private int cellsQueued;
    private long freeCycle;
    private long freeRemainder;
    private long dequeueAt = Long.MAX_VALUE;

    private long nextPacket;
    private long lastCycle;
    private long packetsOut;
    private long dropped;
    private final long[] latencyCounts = new long[COUNTED_CYCLES];
    private final long[] queueingCounts = new long[COUNTED_CYCLES];
    private long slowPath;
    private DepartureSink sink = (cycle, packet) -> { };

    /** Told of each departure, in departure order. */
    @FunctionalInterface
    interface DepartureSink {
        void departed(long cycle, long packetNumber);
    }

    /** A switch like {@code engine} (its config and latencies), running {@code counter} with the engine's program parameters. */
    FlatCounterSwitch(SwitchEngine engine) {
        SwitchConfig config = engine.config();
        StageProgram program = config.program();
        if (!program.name().equals(CounterProgram.NAME)) {
            throw new IllegalArgumentException("the flat reference models counter only, not " + program.name());
        }
        Map<String, String> p = program.params();
        this.ingressToTm = engine.ingressToTmCycles();
        this.egressToWire = engine.egressToWireCycles();
        this.portsPerPipe = config.profile().portsPerPipe();
        this.egressPort = Integer.parseInt(p.get("port"));
        int cells = Integer.parseInt(p.get("cells"));
        int width = Integer.parseInt(p.get("width"));
        this.crc = new PositionalCrc(Crc.named(p.get("hash")), 4, 4, 1, 2, 2);
        int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(cells - 1));
        this.hashMask = (1L << indexBits) - 1;
        this.fold = new Divisor(cells);
        this.cellMask = width == Long.SIZE ? -1L : (1L << width) - 1;
        this.counters = new long[config.pipes()][cells];
        this.parserFree = new long[config.pipes()];

        TrafficManagerConfig tm = config.trafficManager();
        PortConfig port = config.portConfig(egressPort);
        this.cellBytes = tm.cellBytes();
        this.cellDivisor = new Divisor(cellBytes);
        this.overheadBytes = tm.interPacketOverheadBytes();
        this.queueLimitCells = port.queueLimitCells();
        this.portLimitCells = port.portLimitCells();
        this.bufferCells = tm.sharedBufferCells();
        long g = Divisor.gcd(tm.clockHz(), port.rateBitsPerSecond());
        this.cyclesPerBitNum = tm.clockHz() / g;
        this.cyclesPerBitDen = new Divisor(port.rateBitsPerSecond() / g);
        // at most one packet per pipe per cycle is between parser and TM; every queued packet takes a cell
        int lanes = Integer.highestOneBit((ingressToTm + 1) * config.pipes()) * 2;
        int queue = Integer.highestOneBit(queueLimitCells) * 2;
        laneMask = lanes - 1;
        laneCycle = new long[lanes];
        lanePipe = new int[lanes];
        laneSlot = new int[lanes];
        queueMask = queue - 1;
        queueEnq = new long[queue];
        queueSlot = new int[queue];
        queueBytes = new int[queue];
        queueCells = new int[queue];
        int slots = lanes + queue;
        records = new UnsafeBuffer(new byte[slots * STRIDE]);
        fields = new long[slots * FIELDS];
        arrival = new long[slots];
        packetNumber = new long[slots];
        free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[freeCount++] = slots - 1 - i;
        }
    }

    void onDeparture(DepartureSink s) {
        this.sink = s;
    }

    /**
     * Replays {@code packets} records of {@code trace}, the first at cycle {@code base}, spaced by
     * {@code timing}, on ingress port {@code ingressPort % ports}; runs to the end, returns packets out.
     */
    long replay(PackedRecords trace, int packets, long base, ArrivalTiming timing, int ports, PacketRecord in) {
        for (int i = 0; i < packets; i++) {
            PacketRecord r = trace.get(i, in);
            arrive(base + timing.next(r.timestampNs(), r.wireLength()), r.ingressPort() % ports, r);
        }
        runBefore(Long.MAX_VALUE);
        return packetsOut;
    }

    private void arrive(long cycle, int port, PacketRecord r) {
        runBefore(cycle);
        int s = free[--freeCount];
        // the record is copied once, as the engine's pool does, and parsed from the copy
        int at = s * STRIDE;
        int n = Math.min(r.capturedLength(), FRAME);
        records.putBytes(at, r.buffer(), r.offset(), PacketRecord.FRAME_OFFSET + n);
        PacketRecord c = view.wrap(records, at, FRAME);
        long[] f = fields;
        int b = s * FIELDS;
        f[b] = c.srcIpv4() & 0xFFFFFFFFL;
        f[b + 1] = c.dstIpv4() & 0xFFFFFFFFL;
        f[b + 2] = c.protocol();
        f[b + 3] = c.srcPort();
        f[b + 4] = c.dstPort();
        arrival[s] = cycle;
        packetNumber[s] = nextPacket++;
        int pipe = port / portsPerPipe;
        long parserSlot = Math.max(cycle, parserFree[pipe]);
        parserFree[pipe] = parserSlot + 1;
        // ingress: hash the 5-tuple, increment the counter
        long hash = crc.finish(crc.field(0, f[b]) ^ crc.field(1, f[b + 1]) ^ crc.field(2, f[b + 2])
                ^ crc.field(3, f[b + 3]) ^ crc.field(4, f[b + 4])) & hashMask;
        long[] cs = counters[pipe];
        int index = (int) fold.remainder(hash);
        cs[index] = (cs[index] + 1) & cellMask;
        toTrafficManager(pipe, parserSlot + ingressToTm, s);
    }

    /** Inserts from the tail: almost always an append (see the engine's EnqueueLanes). */
    private void toTrafficManager(int pipe, long cycle, int s) {
        int i = laneSize;
        while (i > 0) {
            int prev = (laneHead + i - 1) & laneMask;
            if (laneCycle[prev] < cycle || (laneCycle[prev] == cycle && lanePipe[prev] <= pipe)) {
                break;
            }
            int to = (laneHead + i) & laneMask;
            laneCycle[to] = laneCycle[prev];
            lanePipe[to] = lanePipe[prev];
            laneSlot[to] = laneSlot[prev];
            i--;
        }
        int to = (laneHead + i) & laneMask;
        laneCycle[to] = cycle;
        lanePipe[to] = pipe;
        laneSlot[to] = s;
        laneSize++;
    }

    /** Runs every enqueue and dequeue before {@code cycle}; at equal cycles enqueues go first. */
    private void runBefore(long cycle) {
        while (true) {
            long lane = laneSize == 0 ? Long.MAX_VALUE : laneCycle[laneHead];
            if (lane <= dequeueAt) {
                if (lane >= cycle) {
                    return;
                }
                int s = laneSlot[laneHead];
                laneHead = (laneHead + 1) & laneMask;
                laneSize--;
                enqueue(lane, s);
            } else {
                if (dequeueAt >= cycle) {
                    return;
                }
                long at = dequeueAt;
                dequeueAt = Long.MAX_VALUE;
                dequeue(at);
            }
        }
    }

    private void enqueue(long cycle, int s) {
        int bytes = view.wrap(records, s * STRIDE, FRAME).wireLength();
        int cells = (int) cellDivisor.quotient(bytes + cellBytes - 1L);
        // one queue holds all of the port's and the buffer's cells, so the three limits see one count
        if (cellsQueued + cells > queueLimitCells || cellsQueued + cells > portLimitCells
                || cellsQueued + cells > bufferCells) {
            dropped++;
            free[freeCount++] = s;
            return;
        }
        int tail = (queueHead + queueSize) & queueMask;
        queueEnq[tail] = cycle;
        queueSlot[tail] = s;
        queueBytes[tail] = bytes;
        queueCells[tail] = cells;
        queueSize++;
        cellsQueued += cells;
        if (dequeueAt == Long.MAX_VALUE) {
            dequeueAt = Math.max(cycle, nextDequeueCycle());
        }
    }

    private long nextDequeueCycle() {
        long portFree = freeRemainder == 0 ? freeCycle : freeCycle + 1;
        return Math.max(portFree, queueEnq[queueHead]);
    }

    private void dequeue(long cycle) {
        int h = queueHead;
        long enq = queueEnq[h];
        int s = queueSlot[h];
        // the port serialises (bytes + overhead) * 8 bits; its free instant carries the fraction of a cycle
        long fc = freeCycle;
        long fr = freeRemainder;
        boolean busyIntoThisCycle = fc >= cycle || (fc == cycle - 1 && fr > 0);
        long startCycle = busyIntoThisCycle ? Math.max(fc, enq) : cycle;
        long startRemainder = busyIntoThisCycle && fc >= enq ? fr : 0;
        long numerator = startRemainder + (long) (queueBytes[h] + overheadBytes) * Byte.SIZE * cyclesPerBitNum;
        long whole = cyclesPerBitDen.quotient(numerator);
        freeCycle = startCycle + whole;
        freeRemainder = cyclesPerBitDen.remainder(numerator, whole);
        long start = startRemainder == 0 ? startCycle : startCycle + 1;
        long end = freeRemainder == 0 ? freeCycle : freeCycle + 1;
        queueSize--;
        queueHead = queueSize == 0 ? 0 : (h + 1) & queueMask; // an idle queue restarts at the front: its lines stay hot
        cellsQueued -= queueCells[h];
        count(queueingCounts, start - enq);
        long departure = end + egressToWire;
        count(latencyCounts, departure - arrival[s]);
        packetsOut++;
        sink.departed(departure, packetNumber[s]);
        lastCycle = Math.max(lastCycle, departure);
        free[freeCount++] = s;
        if (queueSize > 0) {
            dequeueAt = Math.max(cycle, nextDequeueCycle());
        }
    }

    private void count(long[] counts, long cycles) {
        if (cycles < counts.length) {
            counts[(int) cycles]++;
        } else {
            slowPath++;
        }
    }

    /** The latest departure cycle so far: a next replay starts after it. */
    long lastCycle() {
        return lastCycle;
    }

    long packetsOut() {
        return packetsOut;
    }

    long dropped() {
        return dropped;
    }

    /** Pipe {@code pipe}'s counter array. */
    long[] counters(int pipe) {
        return counters[pipe].clone();
    }
}

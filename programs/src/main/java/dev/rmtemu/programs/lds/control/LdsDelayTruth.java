package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsIntervals;

import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.emulator.engine.PacketPool;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.collections.Long2LongHashMap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The replay's ground truth for LDS on one switch: per (sender interval, flow), the
 * delivered packets and the sum of their true delays, egress global timestamp minus
 * ingress MAC timestamp (exactly what the two sketches subtract). Filled from the
 * engine's departures with primitive arrays; written as {@value #FILE} in the run's
 * ground-truth directory, one line per (interval, flow):
 * {@code interval src dst proto srcPort dstPort packets delaySumNs}.
 */
public final class LdsDelayTruth {
    public static final String FILE = "lds-delay.txt";
    private static final int INITIAL = 1024;

    private final Long2LongHashMap index = new Long2LongHashMap(-1);
    private long[] interval = new long[INITIAL];
    private long[] tuple = new long[INITIAL * 3];
    private long[] packets = new long[INITIAL];
    private long[] delaySum = new long[INITIAL];
    private int size;

    /** One departed packet stamped at the sender at {@code sentNs}, seen by the receiver at {@code receivedNs}. */
    public void add(PacketRecord r, long intervalIndex, long sentNs, long receivedNs) {
        long a = ((long) r.srcIpv4() << 32) | (r.dstIpv4() & 0xFFFFFFFFL);
        long b = ((long) r.protocol() << 32) | ((long) r.srcPort() << 16) | r.dstPort();
        long key = LdsPacketKeys.tupleKey(r) ^ SplitMix64.mix(intervalIndex + 1);
        int i = (int) index.get(key);
        if (i < 0) {
            i = size++;
            if (i == packets.length) {
                grow();
            }
            index.put(key, i);
            interval[i] = intervalIndex;
            tuple[3 * i] = a;
            tuple[3 * i + 1] = b;
        } else if (tuple[3 * i] != a || tuple[3 * i + 1] != b || interval[i] != intervalIndex) {
            throw new IllegalStateException("lds truth: 64-bit key collision between two (interval, flow) pairs");
        }
        packets[i]++;
        delaySum[i] += receivedNs - sentNs;
    }

    /** Records a departure from the engine: the sender stamp is the packet's arrival, the receiver's the egress stamp. */
    void departed(PacketPool pool, int slot, Field egressTstamp, LdsIntervals intervals, long arrivalNs) {
        add(pool.record(slot), intervals.index(arrivalNs), arrivalNs, pool.phv(slot).get(egressTstamp));
    }

    private void grow() {
        int cap = packets.length * 2;
        interval = Arrays.copyOf(interval, cap);
        tuple = Arrays.copyOf(tuple, cap * 3);
        packets = Arrays.copyOf(packets, cap);
        delaySum = Arrays.copyOf(delaySum, cap);
    }

    /** One (interval, flow) of the truth. */
    public record Flow(long interval, int src, int dst, int proto, int srcPort, int dstPort, long packets, long delaySumNs) {
        public double meanDelayNs() {
            return (double) delaySumNs / packets;
        }
    }

    /** Every (interval, flow), by interval, then most packets first, then 5-tuple. */
    public List<Flow> flows() {
        List<Flow> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            long a = tuple[3 * i];
            long b = tuple[3 * i + 1];
            out.add(new Flow(interval[i], (int) (a >>> 32), (int) a, (int) (b >>> 32), (int) ((b >>> 16) & 0xFFFF),
                    (int) (b & 0xFFFF), packets[i], delaySum[i]));
        }
        out.sort(LdsDelayTruth::compare);
        return out;
    }

    static int compare(Flow x, Flow y) {
        if (x.interval() != y.interval()) {
            return Long.compare(x.interval(), y.interval());
        }
        if (x.packets() != y.packets()) {
            return Long.compare(y.packets(), x.packets());
        }
        long[] u = {x.src() & 0xFFFFFFFFL, x.dst() & 0xFFFFFFFFL, x.proto(), x.srcPort(), x.dstPort()};
        long[] v = {y.src() & 0xFFFFFFFFL, y.dst() & 0xFFFFFFFFL, y.proto(), y.srcPort(), y.dstPort()};
        return Arrays.compare(u, v);
    }

    public void write(Path file) {
        StringBuilder b = new StringBuilder();
        for (Flow f : flows()) {
            b.append(f.interval()).append(' ').append(f.src()).append(' ').append(f.dst()).append(' ').append(f.proto())
                    .append(' ').append(f.srcPort()).append(' ').append(f.dstPort()).append(' ').append(f.packets())
                    .append(' ').append(f.delaySumNs()).append('\n');
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, b.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a file {@link #write} wrote (same order). */
    public static List<Flow> read(Path file) {
        List<Flow> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String[] w = line.split(" ");
                out.add(new Flow(Long.parseLong(w[0]), Integer.parseInt(w[1]), Integer.parseInt(w[2]), Integer.parseInt(w[3]),
                        Integer.parseInt(w[4]), Integer.parseInt(w[5]), Long.parseLong(w[6]), Long.parseLong(w[7])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}

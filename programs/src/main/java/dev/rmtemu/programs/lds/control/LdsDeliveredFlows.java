package dev.rmtemu.programs.lds.control;

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
 * A network replay's flows as the hosts received them (the network rewrites the trace's
 * addresses to its hosts', so the trace's 5-tuples are not the ones the sketches hashed):
 * delivered packets per 5-tuple, written as {@value #FILE} in the run's ground-truth
 * directory, one line per flow, most packets first: {@code src dst proto srcPort dstPort packets}.
 */
public final class LdsDeliveredFlows {
    public static final String FILE = "lds-delivered-flows.txt";
    private static final int INITIAL = 1024;

    private final Long2LongHashMap index = new Long2LongHashMap(-1);
    private long[] tuple = new long[INITIAL * 2];
    private long[] packets = new long[INITIAL];
    private int size;

    public void add(PacketRecord r) {
        long a = ((long) r.srcIpv4() << 32) | (r.dstIpv4() & 0xFFFFFFFFL);
        long b = ((long) r.protocol() << 32) | ((long) r.srcPort() << 16) | r.dstPort();
        long key = LdsPacketKeys.tupleKey(r);
        int i = (int) index.get(key);
        if (i < 0) {
            i = size++;
            if (i == packets.length) {
                tuple = Arrays.copyOf(tuple, 4 * i);
                packets = Arrays.copyOf(packets, 2 * i);
            }
            index.put(key, i);
            tuple[2 * i] = a;
            tuple[2 * i + 1] = b;
        } else if (tuple[2 * i] != a || tuple[2 * i + 1] != b) {
            throw new IllegalStateException("lds delivered flows: 64-bit key collision between two flows");
        }
        packets[i]++;
    }

    /** Flows as {packets, src, dst, proto, srcPort, dstPort}, most packets first, then by 5-tuple. */
    public List<long[]> flows() {
        List<long[]> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            long a = tuple[2 * i];
            long b = tuple[2 * i + 1];
            out.add(new long[] {packets[i], a >>> 32, a & 0xFFFFFFFFL, b >>> 32, (b >>> 16) & 0xFFFF, b & 0xFFFF});
        }
        out.sort((x, y) -> x[0] != y[0] ? Long.compare(y[0], x[0]) : Arrays.compare(x, y));
        return out;
    }

    public void write(Path file) {
        StringBuilder sb = new StringBuilder();
        for (long[] f : flows()) {
            sb.append(f[1]).append(' ').append(f[2]).append(' ').append(f[3]).append(' ').append(f[4]).append(' ').append(f[5])
                    .append(' ').append(f[0]).append('\n');
        }
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, sb.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code top} flows of a file {@link #write} wrote, as {@link #flows()} gives them. */
    public static List<long[]> read(Path file, int top) {
        List<long[]> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file)) {
                if (out.size() == top) {
                    break;
                }
                String[] w = line.split(" ");
                out.add(new long[] {Long.parseLong(w[5]), Long.parseLong(w[0]), Long.parseLong(w[1]), Long.parseLong(w[2]),
                        Long.parseLong(w[3]), Long.parseLong(w[4])});
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}

package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/** Packet records in memory with one long tag each (a cycle or a shim word), growing as needed. */
public final class RecordBuffer {
    private UnsafeBuffer records = new UnsafeBuffer(new byte[PacketRecord.LENGTH * 1024]);
    private long[] tagA = new long[1024];
    private long[] tagB = new long[1024];
    private int size;
    private final PacketRecord view = new PacketRecord();

    /** Reads up to {@code max} records of {@code source} (tags zero). */
    public static RecordBuffer load(PacketSource source, long max) {
        RecordBuffer b = new RecordBuffer();
        PacketRecord r = PacketRecord.allocate();
        while (b.size < max && source.next(r)) {
            b.add(r, 0, 0);
        }
        return b;
    }

    public void add(PacketRecord r, long a, long bTag) {
        if (size == tagA.length) {
            int n = size * 2;
            UnsafeBuffer bigger = new UnsafeBuffer(new byte[n * PacketRecord.LENGTH]);
            bigger.putBytes(0, records, 0, size * PacketRecord.LENGTH);
            records = bigger;
            tagA = Arrays.copyOf(tagA, n);
            tagB = Arrays.copyOf(tagB, n);
        }
        records.putBytes(size * PacketRecord.LENGTH, r.buffer(), r.offset(), PacketRecord.LENGTH);
        tagA[size] = a;
        tagB[size] = bTag;
        size++;
    }

    /** A flyweight over record {@code i} (valid until the next call). */
    public PacketRecord get(int i) {
        return view.wrap(records, i * PacketRecord.LENGTH);
    }

    public long tagA(int i) {
        return tagA[i];
    }

    public long tagB(int i) {
        return tagB[i];
    }

    public int size() {
        return size;
    }

    public void clear() {
        size = 0;
    }
}

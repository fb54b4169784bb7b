package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.traces.PackedRecords;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;

import java.util.Arrays;

/** Packet records (metadata and frame) in memory with two long tags each (e.g. a cycle), growing as needed. */
public final class RecordBuffer {
    private final PackedRecords records = new PackedRecords();
    private long[] tagA = new long[1024];
    private long[] tagB = new long[1024];
    private int size;

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
            tagA = Arrays.copyOf(tagA, n);
            tagB = Arrays.copyOf(tagB, n);
        }
        records.add(r);
        tagA[size] = a;
        tagB[size] = bTag;
        size++;
    }

    /** A flyweight over record {@code i} (valid until the next call). */
    public PacketRecord get(int i) {
        return records.get(i);
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
        records.clear();
    }
}

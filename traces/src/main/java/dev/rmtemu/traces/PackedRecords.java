package dev.rmtemu.traces;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Packet records held in memory back to back, each in its own {@link PacketRecord#recordBytes()}
 * (metadata and captured frame), for tools that keep a whole trace or a list of packets: a
 * metadata-only record costs 72 bytes, a record with a 54-byte header 126, not a whole snap
 * length each. Appending grows geometrically; reading is a flyweight, so a replay from memory
 * allocates nothing per packet.
 */
public final class PackedRecords {
    /** The largest heap array the JDK hands out, a little under {@link Integer#MAX_VALUE}. */
    private static final long MAX_BYTES = Integer.MAX_VALUE - 8;
    private static final int INITIAL_RECORDS = 1024;

    private UnsafeBuffer bytes;
    private int[] start;
    private int size;
    private int used;
    private final PacketRecord view = new PacketRecord();

    public PackedRecords() {
        this(INITIAL_RECORDS);
    }

    /** Room for {@code records} metadata-only records before the first growth. */
    public PackedRecords(int records) {
        int n = Math.max(1, records);
        bytes = new UnsafeBuffer(new byte[PacketRecord.stride(0) * n]);
        start = new int[n];
    }

    /** Appends a copy of {@code r} (its metadata and carried frame bytes); returns its index. */
    public int add(PacketRecord r) {
        int len = r.recordBytes();
        if (size == start.length) {
            start = Arrays.copyOf(start, (int) Math.min(MAX_BYTES, (long) start.length * 2));
        }
        if ((long) used + len > bytes.capacity()) {
            long need = (long) used + len;
            long want = Math.max(need, (long) bytes.capacity() * 2);
            if (need > MAX_BYTES) {
                throw new IllegalStateException("in-memory trace: " + size + " records and " + used
                        + " bytes fill one Java array; a shorter trace or snap length fits");
            }
            UnsafeBuffer bigger = new UnsafeBuffer(new byte[(int) Math.min(MAX_BYTES, want)]);
            bigger.putBytes(0, bytes, 0, used);
            bytes = bigger;
        }
        bytes.putBytes(used, r.buffer(), r.offset(), len);
        start[size] = used;
        used += len;
        return size++;
    }

    /**
     * A flyweight over record {@code i} (valid until the next call and until the next
     * {@link #add}); its frame capacity is its captured length, so writes cannot reach the next.
     */
    public PacketRecord get(int i) {
        int at = start[i];
        view.wrap(bytes, at, 0);
        return view.wrap(bytes, at, view.capturedLength());
    }

    /** As {@link #get(int)}, through the caller's own flyweight (so two records can be looked at together). */
    public PacketRecord get(int i, PacketRecord into) {
        int at = start[i];
        into.wrap(bytes, at, 0);
        return into.wrap(bytes, at, into.capturedLength());
    }

    public int size() {
        return size;
    }

    /** Bytes the records take, metadata and frames. */
    public long bytesUsed() {
        return used;
    }

    /** Forgets every record, keeping the memory for the next ones. */
    public void clear() {
        size = 0;
        used = 0;
    }
}

package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the impairments really did, in event order, as three primitive arrays (input
 * packet index, event kind, value): the ground truth that loss/reorder detectors are
 * scored against. 17 bytes per event; nothing is logged for untouched packets.
 */
public final class GroundTruthLog {
    /** Event kinds. */
    public static final byte DROP = 0;
    public static final byte DUPLICATE = 1;
    public static final byte REORDER = 2;
    public static final byte DELAY = 3;
    private static final String[] KIND_NAMES = {"drop", "duplicate", "reorder", "delay"};
    private static final int INITIAL_CAPACITY = 1024;

    private long[] index = new long[INITIAL_CAPACITY];
    private byte[] kind = new byte[INITIAL_CAPACITY];
    private long[] value = new long[INITIAL_CAPACITY];
    private int size;
    private final long[] counts = new long[KIND_NAMES.length];

    /**
     * Appends an event. Values: DROP — chain position of the impairment that dropped it;
     * DUPLICATE — extra copies sent; REORDER — later packets that overtook it;
     * DELAY — extra delay in ns.
     */
    public void add(long packetIndex, byte eventKind, long eventValue) {
        if (size == index.length) {
            int n = size * 2;
            index = Arrays.copyOf(index, n);
            kind = Arrays.copyOf(kind, n);
            value = Arrays.copyOf(value, n);
        }
        index[size] = packetIndex;
        kind[size] = eventKind;
        value[size] = eventValue;
        size++;
        counts[eventKind]++;
    }

    public int size() {
        return size;
    }

    public long packetIndex(int event) {
        return index[event];
    }

    public byte kind(int event) {
        return kind[event];
    }

    public long value(int event) {
        return value[event];
    }

    public long count(byte eventKind) {
        return counts[eventKind];
    }

    public static String kindName(byte eventKind) {
        return KIND_NAMES[eventKind];
    }

    /** Writes one "index kind value" line per event, preceded by a header line. */
    public void writeTo(Path file) {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("packet_index kind value\n");
            for (int i = 0; i < size; i++) {
                w.write(Long.toString(index[i]));
                w.write(' ');
                w.write(KIND_NAMES[kind[i]]);
                w.write(' ');
                w.write(Long.toString(value[i]));
                w.write('\n');
            }
        } catch (IOException e) {
            throw new UserError(file + ": cannot write ground-truth log: " + e.getMessage(), e);
        }
    }
}

package dev.rmtemu.model.p4.source;

import java.util.ArrayList;
import java.util.List;

/**
 * The files a program was read from, numbered, so that every character of the
 * preprocessed text can carry its origin as one packed {@code long}: file number, line,
 * column ({@link #pack}). A program is at most 65,535 files of 16 M lines of 16 M columns.
 */
public final class SourceFiles {
    private static final int FIELD_BITS = 24;
    private static final long FIELD_MASK = (1L << FIELD_BITS) - 1;

    private final List<String> names = new ArrayList<>();

    /** The number of a file name, adding it when new. */
    public int id(String displayName) {
        int i = names.indexOf(displayName);
        if (i >= 0) {
            return i;
        }
        names.add(displayName);
        return names.size() - 1;
    }

    public String name(int id) {
        return names.get(id);
    }

    public static long pack(int fileId, int line, int column) {
        return ((long) fileId << (2 * FIELD_BITS)) | ((Math.min(line, FIELD_MASK) & FIELD_MASK) << FIELD_BITS)
                | (Math.min(column, FIELD_MASK) & FIELD_MASK);
    }

    public static int fileOf(long origin) {
        return (int) (origin >>> (2 * FIELD_BITS));
    }

    public static int lineOf(long origin) {
        return (int) ((origin >>> FIELD_BITS) & FIELD_MASK);
    }

    public static int columnOf(long origin) {
        return (int) (origin & FIELD_MASK);
    }

    /** A packed origin shifted {@code columns} to the right on its line. */
    public static long plusColumns(long origin, int columns) {
        return pack(fileOf(origin), lineOf(origin), columnOf(origin) + columns);
    }

    public SourcePosition position(long origin) {
        return new SourcePosition(name(fileOf(origin)), lineOf(origin), columnOf(origin));
    }
}

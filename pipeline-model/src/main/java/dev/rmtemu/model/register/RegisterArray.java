package dev.rmtemu.model.register;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;

/**
 * A register array placed in one stage and gress: {@code size} cells, each one
 * stateful-ALU word of {@code wordBits} bits, or a lo/hi pair of words. It is
 * instantiated once per pipe; only its stage may touch it, once per packet pass.
 *
 * <p>A direct array (TNA's {@code DirectRegister}, a table's {@code registers = r}) belongs to
 * a match table: its cell is the entry that hit, as a direct counter's is, so it has the
 * table's entries plus the miss entry's cell ({@link #size()} = table size + 1, the miss cell
 * at index table size, where a default action that runs it reads and writes).
 *
 * <p>Its stateful ALU's register file holds the array's {@link #params()} (TNA's {@code
 * RegisterParam}), one row each: values its register actions read and the control plane sets.
 */
public final class RegisterArray {
    private final int id;
    private final String name;
    private final int wordBits;
    private final boolean pair;
    private final int size;
    private final Gress gress;
    private final int stage;
    private final long wordMask;
    private final long initialLo;
    private final long initialHi;
    private final MatchTable table;
    private final List<Param> params;

    /** One register-file row: a TNA RegisterParam of {@code bits} bits ({@code int<W>}: signed) starting at {@code initial}. */
    public record Param(String name, int bits, boolean signed, long initial) {
        /** {@code value} as the row holds it: cut to the param's width, an {@code int<W>} sign-extended to the ALU word. */
        public long row(long value) {
            long v = bits == 64 ? value : value & ((1L << bits) - 1);
            return signed && bits < 64 ? (v << (64 - bits)) >> (64 - bits) : v;
        }
    }

    public RegisterArray(int id, String name, int wordBits, boolean pair, int size, Gress gress, int stage) {
        this(id, name, wordBits, pair, size, gress, stage, 0, 0);
    }

    /** As above, every cell starting at {@code initialLo} (and {@code initialHi}): TNA's Register initial_value. */
    public RegisterArray(int id, String name, int wordBits, boolean pair, int size, Gress gress, int stage,
                         long initialLo, long initialHi) {
        this(id, name, wordBits, pair, size, gress, stage, initialLo, initialHi, null, List.of());
    }

    /** A direct array of {@code table} (null: indirect); its size is the table's entries + 1 (the miss cell). */
    public static RegisterArray direct(int id, String name, int wordBits, boolean pair, MatchTable table, Gress gress, int stage,
                                       long initialLo, long initialHi) {
        return new RegisterArray(id, name, wordBits, pair, table.size() + 1, gress, stage, initialLo, initialHi, table, List.of());
    }

    private RegisterArray(int id, String name, int wordBits, boolean pair, int size, Gress gress, int stage,
                          long initialLo, long initialHi, MatchTable table, List<Param> params) {
        if (wordBits < 1 || wordBits > 64) {
            throw new IllegalArgumentException("register " + name + ": word width " + wordBits + " outside 1..64");
        }
        if (size < 1) {
            throw new IllegalArgumentException("register " + name + ": size must be positive");
        }
        this.id = id;
        this.name = name;
        this.wordBits = wordBits;
        this.pair = pair;
        this.size = size;
        this.gress = gress;
        this.stage = stage;
        this.wordMask = wordBits == 64 ? -1L : (1L << wordBits) - 1;
        this.initialLo = initialLo & wordMask;
        this.initialHi = pair ? initialHi & wordMask : 0;
        this.table = table;
        this.params = List.copyOf(params);
    }

    /** This array placed in {@code stage}; a direct one bound to {@code placedTable}, its table's placed twin. */
    public RegisterArray placed(int placedStage, MatchTable placedTable) {
        return new RegisterArray(id, name, wordBits, pair, size, gress, placedStage, initialLo, initialHi,
                table == null ? null : placedTable, params);
    }

    /** This array with the register-file rows {@code rows} (row i is the i-th), bound before any action runs on it. */
    public RegisterArray withParams(List<Param> rows) {
        return new RegisterArray(id, name, wordBits, pair, size, gress, stage, initialLo, initialHi, table, rows);
    }

    /** The rows of the stateful ALU's register file, in row order. */
    public List<Param> params() {
        return params;
    }

    /** The table a direct array belongs to; null for an indirect array. */
    public MatchTable table() {
        return table;
    }

    public boolean direct() {
        return table != null;
    }

    /** The value every cell's lo word starts at, and returns to on a reset. */
    public long initialLo() {
        return initialLo;
    }

    /** The value every cell's hi word starts at (0 for a single-word array). */
    public long initialHi() {
        return initialHi;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public int wordBits() {
        return wordBits;
    }

    public boolean pair() {
        return pair;
    }

    /** Bits per cell: one word, or two for a lo/hi pair. */
    public int cellBits() {
        return pair ? 2 * wordBits : wordBits;
    }

    public int size() {
        return size;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    public long wordMask() {
        return wordMask;
    }

    @Override
    public String toString() {
        return name + "[" + size + " x " + cellBits() + " b @ " + gress.label() + " stage " + stage
                + (table == null ? "" : ", direct on " + table.name()) + "]";
    }
}

package dev.rmtemu.model.register;

import dev.rmtemu.model.phv.Gress;

/**
 * A register array placed in one stage and gress: {@code size} cells, each one
 * stateful-ALU word of {@code wordBits} bits, or a lo/hi pair of words. It is
 * instantiated once per pipe; only its stage may touch it, once per packet pass.
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

    public RegisterArray(int id, String name, int wordBits, boolean pair, int size, Gress gress, int stage) {
        this(id, name, wordBits, pair, size, gress, stage, 0, 0);
    }

    /** As above, every cell starting at {@code initialLo} (and {@code initialHi}): TNA's Register initial_value. */
    public RegisterArray(int id, String name, int wordBits, boolean pair, int size, Gress gress, int stage,
                         long initialLo, long initialHi) {
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
        return name + "[" + size + " x " + cellBits() + " b @ " + gress.label() + " stage " + stage + "]";
    }
}

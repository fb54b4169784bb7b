package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;

import java.util.Arrays;

/**
 * One end's lossy difference sketch: R rows × C cells of (s = Σ w·t, n = Σ w, d = XOR of
 * packet digests). s wraps at 64 bits and n and d are 32-bit words, as the stage program's
 * registers hold them; differences of s between the ends are exact modulo 2^64.
 */
public final class LdsSketch {
    /** n and d are 32-bit register words. */
    public static final long WORD_MASK = 0xFFFFFFFFL;

    private final LdsConfig cfg;
    private final long[][] s;
    private final long[][] n;
    private final long[][] d;

    public LdsSketch(LdsConfig cfg) {
        this.cfg = cfg;
        this.s = new long[cfg.rows()][cfg.cells()];
        this.n = new long[cfg.rows()][cfg.cells()];
        this.d = new long[cfg.rows()][cfg.cells()];
    }

    public LdsConfig config() {
        return cfg;
    }

    /** Records a packet seen at time {@code ts} (ns) in every row that samples it. */
    public void record(LdsPacketKeys k, long ts) {
        long w = k.weight;
        long add = w * ts;
        for (int r = 0; r < s.length; r++) {
            if (k.sampled[r]) {
                int c = k.cell[r];
                s[r][c] += add;
                n[r][c] = (n[r][c] + w) & WORD_MASK;
                d[r][c] ^= k.digest;
            }
        }
    }

    public long sum(int row, int cell) {
        return s[row][cell];
    }

    public long count(int row, int cell) {
        return n[row][cell];
    }

    public long digest(int row, int cell) {
        return d[row][cell];
    }

    /** Sets a cell (the collector rebuilds a sketch from exported or read-back registers). */
    public void set(int row, int cell, long sum, long count, long digest) {
        s[row][cell] = sum;
        n[row][cell] = count & WORD_MASK;
        d[row][cell] = digest & WORD_MASK;
    }

    /** A cell is usable when both ends saw the same packets there: equal counts and digests (and not empty). */
    public static boolean usable(LdsSketch sender, LdsSketch receiver, int row, int cell) {
        long ns = sender.n[row][cell];
        return ns != 0 && ns == receiver.n[row][cell] && sender.d[row][cell] == receiver.d[row][cell];
    }

    /**
     * Adds another sketch of the same shape cell by cell (s and n add, d XORs): the sketch of
     * the union of both packet streams, e.g. the ingress sketches of several pipes.
     */
    public void mergeFrom(LdsSketch o) {
        if (!o.cfg.equals(cfg)) {
            throw new IllegalArgumentException("cannot merge sketches of different shapes");
        }
        for (int r = 0; r < s.length; r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                s[r][c] += o.s[r][c];
                n[r][c] = (n[r][c] + o.n[r][c]) & WORD_MASK;
                d[r][c] ^= o.d[r][c];
            }
        }
    }

    /** Starts a new interval. */
    public void reset() {
        for (int r = 0; r < s.length; r++) {
            Arrays.fill(s[r], 0);
            Arrays.fill(n[r], 0);
            Arrays.fill(d[r], 0);
        }
    }

    public boolean sameContents(LdsSketch o) {
        return Arrays.deepEquals(s, o.s) && Arrays.deepEquals(n, o.n) && Arrays.deepEquals(d, o.d);
    }

    /** Cells where this sketch and {@code o} differ in (s, n, d), as row·C + cell, ascending. */
    public int[] differingCells(LdsSketch o) {
        int[] out = new int[0];
        for (int r = 0; r < s.length; r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                if (s[r][c] != o.s[r][c] || n[r][c] != o.n[r][c] || d[r][c] != o.d[r][c]) {
                    out = Arrays.copyOf(out, out.length + 1);
                    out[out.length - 1] = r * cfg.cells() + c;
                }
            }
        }
        return out;
    }
}

package dev.rmtemu.model.runtime;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterArray;

import java.util.Arrays;
import java.util.List;

/**
 * The register storage of one pipe and gress: per array a lo word array and, for pairs, a hi one.
 * The lo array carries the stateful ALU's register-file rows after the cells (index size + row),
 * so that a register action's code reads its RegisterParams from the storage it already gets.
 */
public final class RegisterFile {
    final long[][] lo;
    final long[][] hi;

    public RegisterFile(List<RegisterArray> all, Gress gress) {
        lo = new long[all.size()][];
        hi = new long[all.size()][];
        for (RegisterArray a : all) {
            if (a.gress() == gress) {
                lo[a.id()] = new long[a.size() + a.params().size()];
                hi[a.id()] = a.pair() ? new long[a.size()] : null;
                reset(a);
                for (int row = 0; row < a.params().size(); row++) {
                    setParam(a, row, a.params().get(row).initial());
                }
            }
        }
    }

    public long readLo(RegisterArray a, int index) {
        return lo[a.id()][index];
    }

    public long readHi(RegisterArray a, int index) {
        long[] h = hi[a.id()];
        return h == null ? 0 : h[index];
    }

    public void write(RegisterArray a, int index, long loValue, long hiValue) {
        lo[a.id()][index] = loValue & a.wordMask();
        long[] h = hi[a.id()];
        if (h != null) {
            h[index] = hiValue & a.wordMask();
        }
    }

    /** Sets register-file row {@code row} of the array's stateful ALU (see {@link RegisterArray.Param#row}). */
    public void setParam(RegisterArray a, int row, long value) {
        lo[a.id()][a.size() + row] = a.params().get(row).row(value);
    }

    /** The current value of register-file row {@code row}. */
    public long param(RegisterArray a, int row) {
        return lo[a.id()][a.size() + row];
    }

    /** Every cell back to the array's initial value (0 unless the program gave one). */
    public void reset(RegisterArray a) {
        Arrays.fill(lo[a.id()], 0, a.size(), a.initialLo());
        long[] h = hi[a.id()];
        if (h != null) {
            Arrays.fill(h, a.initialHi());
        }
    }

    /** A copy of the lo words (control-plane read of a whole array). */
    public long[] snapshotLo(RegisterArray a) {
        return Arrays.copyOf(lo[a.id()], a.size());
    }

    /** A copy of the hi words, or an empty array for single-word arrays. */
    public long[] snapshotHi(RegisterArray a) {
        long[] h = hi[a.id()];
        return h == null ? new long[0] : h.clone();
    }
}

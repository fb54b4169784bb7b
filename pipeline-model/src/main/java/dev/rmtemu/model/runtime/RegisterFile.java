package dev.rmtemu.model.runtime;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterArray;

import java.util.Arrays;
import java.util.List;

/** The register storage of one pipe and gress: per array a lo word array and, for pairs, a hi one. */
public final class RegisterFile {
    final long[][] lo;
    final long[][] hi;

    public RegisterFile(List<RegisterArray> all, Gress gress) {
        lo = new long[all.size()][];
        hi = new long[all.size()][];
        for (RegisterArray a : all) {
            if (a.gress() == gress) {
                lo[a.id()] = new long[a.size()];
                hi[a.id()] = a.pair() ? new long[a.size()] : null;
                reset(a);
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

    /** Every cell back to the array's initial value (0 unless the program gave one). */
    public void reset(RegisterArray a) {
        Arrays.fill(lo[a.id()], a.initialLo());
        long[] h = hi[a.id()];
        if (h != null) {
            Arrays.fill(h, a.initialHi());
        }
    }

    /** A copy of the lo words (control-plane read of a whole array). */
    public long[] snapshotLo(RegisterArray a) {
        return lo[a.id()].clone();
    }

    /** A copy of the hi words, or an empty array for single-word arrays. */
    public long[] snapshotHi(RegisterArray a) {
        long[] h = hi[a.id()];
        return h == null ? new long[0] : h.clone();
    }
}

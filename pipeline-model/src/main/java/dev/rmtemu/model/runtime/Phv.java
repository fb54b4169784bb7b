package dev.rmtemu.model.runtime;

import dev.rmtemu.model.phv.Field;

import java.util.Arrays;

/**
 * The runtime packet header vector of one packet: one 64-bit slot per declared
 * field. Writes go to a shadow copy and become visible only when the stage
 * ends ({@link #commitStage()}), giving the VLIW semantics of an RMT stage: all
 * actions of a stage read the PHV as it entered the stage. Reused across
 * packets; no allocation per packet.
 */
public final class Phv {
    private final long[] cur;
    private final long[] next;
    /**
     * Slots below 64 written in this stage, one bit each (nearly every program has fewer
     * slots): one register-held word instead of a list, so a write and the commit do not
     * chain through several loads and stores of bookkeeping.
     */
    private long dirtyLow;
    /** Slots from 64 on written in this stage, as a list. */
    private final int[] dirty;
    private final boolean[] isDirty;
    private int nDirty;
    /** Set when a stage writes a header field that reaches the frame: only then has the deparser anything to write back. */
    private boolean headerWritten;

    public Phv(int slots) {
        cur = new long[slots];
        next = new long[slots];
        dirty = new int[slots];
        isDirty = new boolean[slots];
    }

    /** The value as the current stage sees it (as it entered the stage). */
    public long get(Field f) {
        return cur[f.slot()];
    }

    /** A write visible from the next stage on (masked to the field's width). */
    public void set(Field f, long value) {
        int s = f.slot();
        next[s] = value & f.mask();
        if (f.reachesFrame()) {
            headerWritten = true;
        }
        if (s < Long.SIZE) {
            dirtyLow |= 1L << s;
        } else if (!isDirty[s]) {
            isDirty[s] = true;
            dirty[nDirty++] = s;
        }
    }

    /** Sets a field immediately (parser, engine, between stages; never from stage code). */
    public void load(Field f, long value) {
        cur[f.slot()] = value & f.mask();
    }

    /** Ends a stage: its writes become visible. */
    public void commitStage() {
        for (long m = dirtyLow; m != 0; m &= m - 1) {
            int s = Long.numberOfTrailingZeros(m);
            cur[s] = next[s];
        }
        dirtyLow = 0;
        if (nDirty != 0) {
            commitHigh();
        }
    }

    private void commitHigh() {
        for (int i = 0; i < nDirty; i++) {
            int s = dirty[i];
            cur[s] = next[s];
            isDirty[s] = false;
        }
        nDirty = 0;
    }

    /** Zeroes every field (a fresh packet). */
    public void clear() {
        Arrays.fill(cur, 0);
        headerWritten = false;
        dirtyLow = 0;
        for (int i = 0; i < nDirty; i++) {
            isDirty[dirty[i]] = false;
        }
        nDirty = 0;
    }

    /** Notes that a stage wrote a header field (generated stage code, which writes the slots itself). */
    void markHeaderWritten() {
        headerWritten = true;
    }

    /** True when a stage wrote a header field since the packet was parsed fresh. */
    public boolean headerWritten() {
        return headerWritten;
    }

    /** Forgets uncommitted writes (a pass that did not finish) and the header-written mark: a fresh packet. */
    public void discardPendingWrites() {
        headerWritten = false;
        dirtyLow = 0;
        if (nDirty != 0) {
            for (int i = 0; i < nDirty; i++) {
                isDirty[dirty[i]] = false;
            }
            nDirty = 0;
        }
    }

    /** Copies all committed values from another PHV of the same program. */
    public void copyFrom(Phv other) {
        System.arraycopy(other.cur, 0, cur, 0, cur.length);
        headerWritten = other.headerWritten;
    }

    /** The committed slot values (read-only use: hashing, key packing). */
    public long[] values() {
        return cur;
    }

    public int slots() {
        return cur.length;
    }
}

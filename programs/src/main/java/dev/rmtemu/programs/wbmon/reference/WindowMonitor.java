package dev.rmtemu.programs.wbmon.reference;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;

/**
 * The downstream m-switch's window algorithm in plain Java (the test oracle and
 * speed baseline of {@link WbmonPipeline}). Per vconn: N bitmaps of W bits,
 * the newest slot and the slot to clean. A packet with sequence number sn is in
 * slot sn / W, bit sn mod W, register slot mod N.
 *
 * <p>Per packet: (1) a packet in a slot newer than the newest advances the
 * window (an early packet is processed normally); (2) if a slot has left the
 * tolerance window (slot to clean ≤ newest − tws) it is cleaned: its zero bits
 * are counted as drops, its register zeroed and the slot to clean advanced —
 * at most one slot per packet; (3) the packet sets its bit unless it is late
 * (its slot was already cleaned: not registered, the drop count stays, it may
 * be a duplicate) or the slot just cleaned shares its register (clean instead
 * of register: at most one false positive instead of up to W false negatives).
 * Registering is safe inside the safety interval slot to clean < slot < slot to
 * clean + N; beyond it a jump of more than cws slots mixes two slots in one
 * register (false negatives), which is the burst tolerance limit.
 *
 * <p>The first packet of a vconn starts its window at its own slot, so a trace need
 * not start at sequence 0. Sequence numbers wrap at 2^32 like the header field: slots
 * are kept as their base sequence number (sn with the low log2 W bits cleared) and
 * compared serially, as the stage program does ({@link WbmonPipeline}), so detection
 * goes on across the wrap. No allocation per packet.
 */
public final class WindowMonitor {
    /** Told of every cleaned slot: which sequence numbers were counted as drops (zero bits of {@code word}). */
    @FunctionalInterface
    public interface CleanListener {
        void cleaned(int vconn, long slot, long word);
    }

    private static final long MASK = WbmonPipeline.SEQ_MASK;
    private final int n;
    private final int w;
    private final int slotShift;
    private final long slotMask;
    private final long twsSpan;
    private final long fullMask;
    private final long[] bitmaps;
    private final boolean[] started;
    private final long[] newestBase;
    /** Base of the slot to clean next, plus tws·W (the register's encoding). */
    private final long[] toCleanStored;
    private final long[] drops;
    private final long[] packets;
    private final long[] unregistered;
    private CleanListener listener;

    public WindowMonitor(WbmonConfig c) {
        this.n = c.registers();
        this.w = c.bitsPerRegister();
        this.slotShift = Integer.numberOfTrailingZeros(w);
        this.slotMask = MASK & ~(long) (w - 1);
        this.twsSpan = (long) c.tolerance() * w;
        this.fullMask = w == 64 ? -1L : (1L << w) - 1;
        this.bitmaps = new long[c.vconns() * n];
        this.started = new boolean[c.vconns()];
        this.newestBase = new long[c.vconns()];
        this.toCleanStored = new long[c.vconns()];
        this.drops = new long[c.vconns()];
        this.packets = new long[c.vconns()];
        this.unregistered = new long[c.vconns()];
    }

    public void onClean(CleanListener l) {
        this.listener = l;
    }

    /** A packet of vconn {@code v} with sequence number {@code sn} (taken modulo 2^32) arrives. */
    public void receive(int v, long sn) {
        packets[v]++;
        long seq = sn & MASK;
        long base = seq & slotMask;
        int bit = (int) (seq & (w - 1));
        int reg = (int) ((seq >>> slotShift) % n);
        boolean register = true;
        boolean late = false;
        if (!started[v]) {
            started[v] = true;
            newestBase[v] = base;
            toCleanStored[v] = (base + twsSpan) & MASK; // first packet: nothing below its slot is watched
        } else {
            if (WbmonPipeline.serialBefore(newestBase[v], base)) {
                newestBase[v] = base;
            }
            long clean = toCleanStored[v];
            late = WbmonPipeline.serialBefore((base + twsSpan) & MASK, clean);
            if (WbmonPipeline.serialNotAfter(clean, newestBase[v])) {
                long cleanBase = (clean - twsSpan) & MASK;
                int cr = (int) ((cleanBase >>> slotShift) % n);
                int cell = v * n + cr;
                long word = bitmaps[cell];
                drops[v] += w - Long.bitCount(word & fullMask);
                bitmaps[cell] = 0;
                toCleanStored[v] = (clean + w) & MASK;
                if (listener != null) {
                    listener.cleaned(v, cleanBase >>> slotShift, word);
                }
                register = cr != reg;
            }
        }
        if (register && !late) {
            bitmaps[v * n + reg] |= 1L << bit;
        } else {
            unregistered[v]++;
        }
    }

    /** Drops counted so far on vconn {@code v} (zero bits of cleaned slots). */
    public long drops(int v) {
        return drops[v];
    }

    /** Packets received on vconn {@code v}. */
    public long packets(int v) {
        return packets[v];
    }

    /** Packets not registered (late, or arriving while their register was cleaned). */
    public long unregistered(int v) {
        return unregistered[v];
    }

    /** The newest slot (base / W, modulo 2^32 / W), or −1 before the first packet. */
    public long newestSlot(int v) {
        return started[v] ? newestBase[v] >>> slotShift : -1;
    }

    /** The slot to clean next (modulo 2^32 / W), or −1 before the first packet. */
    public long slotToClean(int v) {
        return started[v] ? ((toCleanStored[v] - twsSpan) & MASK) >>> slotShift : -1;
    }

    /** What the stage program keeps in {@code wbmon_newest}: the newest slot's base sequence number. */
    public long newestRegister(int v) {
        return newestBase[v];
    }

    /** What the stage program keeps in {@code wbmon_to_clean}: the base of the slot to clean + tws·W. */
    public long toCleanRegister(int v) {
        return toCleanStored[v];
    }

    /** Every sequence number serially below this has been judged (its slot cleaned); 0 before any packet. */
    public long judgedBelow(int v) {
        return started[v] ? (toCleanStored[v] - twsSpan) & MASK : 0;
    }

    /** Bitmap register {@code r} of vconn {@code v}. */
    public long bitmap(int v, int r) {
        return bitmaps[v * n + r];
    }

    public int vconns() {
        return started.length;
    }
}

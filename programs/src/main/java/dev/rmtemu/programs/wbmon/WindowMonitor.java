package dev.rmtemu.programs.wbmon;

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
 * <p>The first packet of a vconn starts its window at its own slot (newest and
 * slot to clean are stored plus one; zero means "no packet yet"), so a trace
 * need not start at sequence 0. Sequence numbers do not wrap (2^32 per vconn
 * with the 32-bit header). No allocation per packet.
 */
public final class WindowMonitor {
    /** Told of every cleaned slot: which sequence numbers were counted as drops (zero bits of {@code word}). */
    @FunctionalInterface
    public interface CleanListener {
        void cleaned(int vconn, long slot, long word);
    }

    private final int n;
    private final int w;
    private final int tws;
    private final long fullMask;
    private final long[] bitmaps;
    private final long[] newestPlusOne;
    private final long[] toCleanPlusOne;
    private final long[] drops;
    private final long[] packets;
    private final long[] unregistered;
    private CleanListener listener;

    public WindowMonitor(WbmonConfig c) {
        this.n = c.registers();
        this.w = c.bitsPerRegister();
        this.tws = c.tolerance();
        this.fullMask = w == 64 ? -1L : (1L << w) - 1;
        this.bitmaps = new long[c.vconns() * n];
        this.newestPlusOne = new long[c.vconns()];
        this.toCleanPlusOne = new long[c.vconns()];
        this.drops = new long[c.vconns()];
        this.packets = new long[c.vconns()];
        this.unregistered = new long[c.vconns()];
    }

    public void onClean(CleanListener l) {
        this.listener = l;
    }

    /** A packet of vconn {@code v} with sequence number {@code sn} arrives. */
    public void receive(int v, long sn) {
        packets[v]++;
        long slot = sn / w;
        int bit = (int) (sn % w);
        long newest = newestPlusOne[v];
        if (newest == 0 || slot + 1 > newest) {
            newest = slot + 1;
            newestPlusOne[v] = newest;
        }
        long clean = toCleanPlusOne[v];
        boolean late = false;
        int reg = (int) (slot % n);
        boolean register = true;
        if (clean == 0) {
            toCleanPlusOne[v] = slot + 1; // first packet: nothing below its slot is watched
        } else {
            late = slot + 1 < clean;
            if (clean <= newest - tws) {
                long cleanSlot = clean - 1;
                int cr = (int) (cleanSlot % n);
                int cell = v * n + cr;
                long word = bitmaps[cell];
                drops[v] += w - Long.bitCount(word & fullMask);
                bitmaps[cell] = 0;
                toCleanPlusOne[v] = clean + 1;
                if (listener != null) {
                    listener.cleaned(v, cleanSlot, word);
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

    /** The newest slot, or −1 before the first packet. */
    public long newestSlot(int v) {
        return newestPlusOne[v] - 1;
    }

    /** The slot to clean next, or −1 before the first packet. */
    public long slotToClean(int v) {
        return toCleanPlusOne[v] - 1;
    }

    /** Every sequence number below this has been judged (its slot cleaned); 0 before any cleaning. */
    public long judgedBelow(int v) {
        return toCleanPlusOne[v] == 0 ? 0 : (toCleanPlusOne[v] - 1) * (long) w;
    }

    /** Bitmap register {@code r} of vconn {@code v}. */
    public long bitmap(int v, int r) {
        return bitmaps[v * n + r];
    }

    public int vconns() {
        return newestPlusOne.length;
    }
}

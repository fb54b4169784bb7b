package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.MatchTable;

/**
 * A counter placed in one stage: TNA's {@code Counter<W, I>(size, type)} (indirect: a
 * statement gives the cell) or {@code DirectCounter<W>(type)} bound to a table (the cell is
 * the entry that hit, so the counter has the table's size). Instantiated once per pipe and
 * gress, like a register array. {@code widthBits} is W; for PACKETS_AND_BYTES it is the byte
 * counter's width, as p4c's {@code min_width} is.
 *
 * <p>Cell formats follow bf-p4c {@code mau/resource_estimate.cpp} {@code CounterWidth} /
 * {@code CounterPerWord}: a packet or byte counter is 32 bits when W &lt;= 32, else 64; a
 * packets-and-bytes cell is a 28-bit packet and a 36-bit byte counter when W &lt;= 36, else
 * 64 and 64. A counter wraps at its cell's width, as the hardware's does.
 */
public final class Counter {
    /**
     * Bytes of the Ethernet frame check sequence a Tofino byte counter adds to the frame the
     * trace carries (captures hold the frame without its CRC).
     */
    public static final int CRC_BYTES = 4;
    /** The widest counter p4c accepts (CounterPerWord: "Maximum width ... is 64 bits"). */
    public static final int MAX_WIDTH = 64;
    private static final int NARROW = 32;
    private static final int PAIR_NARROW_BYTES = 36;
    private static final int PAIR_NARROW_PACKETS = 28;

    private final int id;
    private final String name;
    private final CounterType type;
    private final int widthBits;
    private final int size;
    private final Gress gress;
    private final int stage;
    private final MatchTable table;

    public Counter(int id, String name, CounterType type, int widthBits, int size, Gress gress, int stage, MatchTable table) {
        if (widthBits < 1 || widthBits > MAX_WIDTH) {
            throw new IllegalArgumentException("counter " + name + ": width " + widthBits + " outside 1.." + MAX_WIDTH);
        }
        if (size < 1) {
            throw new IllegalArgumentException("counter " + name + ": size must be positive");
        }
        this.id = id;
        this.name = name;
        this.type = type;
        this.widthBits = widthBits;
        this.size = size;
        this.gress = gress;
        this.stage = stage;
        this.table = table;
    }

    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    public CounterType type() {
        return type;
    }

    public int widthBits() {
        return widthBits;
    }

    /** The declared size, or the bound table's entries (what p4c sizes the stats RAMs by). */
    public int size() {
        return size;
    }

    /**
     * Cells the counter keeps: its size, and for a direct counter one more, the miss entry's
     * (cell {@link #size()}): a miss that runs the default action the control plane set counts
     * there, as Tofino's match merge supplies a logical table's stats address on a miss from
     * its miss-value register ({@code mau_stats_adr_miss_value}), which the driver points at
     * the default entry's own direct cell (P4Runtime reads it as the default entry's
     * DirectCounterEntry).
     */
    public int cells() {
        return table == null ? size : size + 1;
    }

    public Gress gress() {
        return gress;
    }

    public int stage() {
        return stage;
    }

    /** The table a direct counter belongs to; null for an indirect counter. */
    public MatchTable table() {
        return table;
    }

    public boolean direct() {
        return table != null;
    }

    /** Bits of the packet count in one cell (0: the counter counts no packets). */
    public int packetBits() {
        if (!type.packets()) {
            return 0;
        }
        if (type == CounterType.PACKETS_AND_BYTES) {
            return widthBits <= PAIR_NARROW_BYTES ? PAIR_NARROW_PACKETS : Long.SIZE;
        }
        return widthBits <= NARROW ? NARROW : Long.SIZE;
    }

    /** Bits of the byte count in one cell (0: the counter counts no bytes). */
    public int byteBits() {
        if (!type.bytes()) {
            return 0;
        }
        if (type == CounterType.PACKETS_AND_BYTES) {
            return widthBits <= PAIR_NARROW_BYTES ? PAIR_NARROW_BYTES : Long.SIZE;
        }
        return widthBits <= NARROW ? NARROW : Long.SIZE;
    }

    /** Bits one cell takes in a stats RAM word. */
    public int cellBits() {
        return packetBits() + byteBits();
    }

    @Override
    public String toString() {
        return name + "[" + size + " x " + type + "/" + widthBits + " b @ " + gress.label() + " stage " + stage
                + (table == null ? "" : ", direct on " + table.name()) + "]";
    }
}

package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.MatchTable;

/**
 * A meter placed in one stage: TNA's {@code Meter<I>(size, type)} (indirect) or
 * {@code DirectMeter(type)} bound to a table (the cell is the entry that hit). Each cell
 * marks packets GREEN, YELLOW or RED ({@link MeterColor}) by one of the two token-bucket
 * markers of the RFCs, computed in emulated time; the control plane sets each cell's rates
 * ({@code meter_set_rates}). A meter runs on a meter ALU, which Tofino shares with the
 * stateful ALUs of register arrays.
 */
public final class Meter {
    /** The marker a meter's cells run. */
    public enum Algorithm {
        /** RFC 2698, two-rate three-colour marker: CIR/CBS and PIR/PBS (Tofino's meters). */
        TRTCM,
        /** RFC 2697, single-rate three-colour marker: CIR, CBS and EBS. */
        SRTCM
    }

    private final int id;
    private final String name;
    private final MeterType type;
    private final Algorithm algorithm;
    private final int size;
    private final Gress gress;
    private final int stage;
    private final MatchTable table;

    public Meter(int id, String name, MeterType type, Algorithm algorithm, int size, Gress gress, int stage, MatchTable table) {
        if (size < 1) {
            throw new IllegalArgumentException("meter " + name + ": size must be positive");
        }
        this.id = id;
        this.name = name;
        this.type = type;
        this.algorithm = algorithm;
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

    public MeterType type() {
        return type;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    /** The declared size, or the bound table's entries (what p4c sizes the meter RAMs by). */
    public int size() {
        return size;
    }

    /**
     * Cells the meter keeps: its size, and for a direct meter one more, the miss entry's (cell
     * {@link #size()}), as for a direct counter ({@link Counter#cells()}): Tofino takes a miss's
     * meter address from the logical table's {@code mau_meter_adr_miss_value}.
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

    /** The table a direct meter belongs to; null for an indirect meter. */
    public MatchTable table() {
        return table;
    }

    public boolean direct() {
        return table != null;
    }

    @Override
    public String toString() {
        return name + "[" + size + " x " + type + " " + algorithm + " @ " + gress.label() + " stage " + stage
                + (table == null ? "" : ", direct on " + table.name()) + "]";
    }
}

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
        SRTCM,
        /**
         * TNA's {@code Lpf<T, I>} / {@code DirectLpf<T>}: a low-pass filter of the value it is
         * given ({@link LpfCells}); p4c makes it a meter ({@code IR::MAU::Meter} with
         * implementation "lpf", bf-p4c/mau/extract_maupipe.cpp {@code createAttached}).
         */
        LPF,
        /**
         * TNA's {@code Wred<T, I>} / {@code DirectWred<T>}: random early detection on the value it
         * is given ({@link WredCells}); a meter with implementation "wred" in p4c (same function).
         */
        WRED
    }

    private final int id;
    private final String name;
    private final MeterType type;
    private final Algorithm algorithm;
    private final int size;
    private final Gress gress;
    private final int stage;
    private final MatchTable table;
    /** The output's width: 8 for a colour or a WRED decision, T's for an LPF. */
    private final int outputBits;
    /** A WRED's two outputs (its constructor's drop_value and no_drop_value); 0 for the others. */
    private final int dropValue;
    private final int noDropValue;

    public Meter(int id, String name, MeterType type, Algorithm algorithm, int size, Gress gress, int stage, MatchTable table) {
        this(id, name, type, algorithm, size, gress, stage, table, 8, 0, 0);
    }

    /**
     * A meter-ALU extern of any kind: {@code outputBits} is an LPF's T, {@code dropValue} and
     * {@code noDropValue} a WRED's constructor arguments (bit&lt;8&gt; each).
     */
    public Meter(int id, String name, MeterType type, Algorithm algorithm, int size, Gress gress, int stage, MatchTable table,
                 int outputBits, int dropValue, int noDropValue) {
        if (outputBits < 1 || outputBits > MAX_OUTPUT_BITS) {
            throw new IllegalArgumentException("meter " + name + ": output of " + outputBits + " bits, not 1.." + MAX_OUTPUT_BITS);
        }
        if (dropValue < 0 || dropValue > 255 || noDropValue < 0 || noDropValue > 255) {
            throw new IllegalArgumentException("wred " + name + ": drop and no-drop values are bit<8>");
        }
        this.outputBits = outputBits;
        this.dropValue = dropValue;
        this.noDropValue = noDropValue;
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

    /** This extern placed in {@code stage} (a direct one with its placed table), every other property kept. */
    public Meter placed(int atStage, MatchTable placedTable) {
        return new Meter(id, name, type, algorithm, size, gress, atStage, placedTable, outputBits, dropValue, noDropValue);
    }

    /** The widest value an LPF passes through: the meter ALU's 32-bit data path. */
    public static final int MAX_OUTPUT_BITS = 32;

    /** True for an LPF or a WRED (they filter a value; meters mark colours). */
    public boolean filtersValue() {
        return algorithm == Algorithm.LPF || algorithm == Algorithm.WRED;
    }

    /** The output's width in bits. */
    public int outputBits() {
        return outputBits;
    }

    /** The largest value the extern outputs: RED for a meter, T's largest for an LPF, the larger WRED value. */
    public long maxOutput() {
        return switch (algorithm) {
            case LPF -> (1L << outputBits) - 1;
            case WRED -> Math.max(dropValue, noDropValue);
            default -> MeterColor.RED;
        };
    }

    public int dropValue() {
        return dropValue;
    }

    public int noDropValue() {
        return noDropValue;
    }

    /** What a P4 programmer calls it: meter, lpf or wred (messages). */
    public String kind() {
        return switch (algorithm) {
            case LPF -> "lpf";
            case WRED -> "wred";
            default -> "meter";
        };
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

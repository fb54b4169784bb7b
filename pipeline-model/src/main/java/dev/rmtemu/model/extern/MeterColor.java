package dev.rmtemu.model.extern;

/**
 * Meter colours with TNA's encoding ({@code enum bit<8> MeterColor_t { GREEN = 8w0, YELLOW = 8w1,
 * RED = 8w3 }}, p4c backends/tofino/bf-p4c/p4include/tofino1_base.p4): what a meter returns and
 * what a colour-aware meter reads as the packet's pre-colour.
 */
public final class MeterColor {
    public static final int GREEN = 0;
    public static final int YELLOW = 1;
    public static final int RED = 3;

    private MeterColor() {
    }

    /** The colour's name, for reports; null for a value that is no colour. */
    public static String name(long color) {
        if (color == GREEN) {
            return "GREEN";
        }
        if (color == YELLOW) {
            return "YELLOW";
        }
        return color == RED ? "RED" : null;
    }
}

package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.model.UserError;

/**
 * Sizing rules from the paper's analysis, for a target probability ε that a flow gets no
 * usable cell: R ≈ −ln ε rows, and a load of at most z = n·P / C ≤ −1 / (e · ln ε) per row
 * (n flows, P the share of them whose cells the analysis counts as loaded, C cells per row).
 * Stated here as the paper gives them; the experiment measures what they yield.
 */
public final class LdsDimensioning {
    private LdsDimensioning() {
    }

    /** R ≈ −ln ε, at least 1. */
    public static int rows(double epsilon) {
        check(epsilon);
        return Math.max(1, (int) Math.ceil(-Math.log(epsilon)));
    }

    /** Largest load per row z = −1 / (e · ln ε). */
    public static double maxLoad(double epsilon) {
        check(epsilon);
        return -1.0 / (Math.E * Math.log(epsilon));
    }

    /** Cells per row for n flows of which a share P spoils cells: C ≥ n·P / z_max. */
    public static int cellsPerRow(long flows, double spoilProbability, double epsilon) {
        if (flows < 1 || !(spoilProbability > 0 && spoilProbability <= 1)) {
            throw new UserError("lds dimensioning: need flows >= 1 and 0 < P <= 1");
        }
        return (int) Math.ceil(flows * spoilProbability / maxLoad(epsilon));
    }

    private static void check(double epsilon) {
        if (!(epsilon > 0 && epsilon < 1)) {
            throw new UserError("lds dimensioning: target failure probability must be in (0, 1), got " + epsilon);
        }
    }
}

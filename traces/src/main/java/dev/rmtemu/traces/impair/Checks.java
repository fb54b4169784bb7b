package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;

/** Parameter checks shared by the impairments (errors name the parameter). */
final class Checks {
    private Checks() {
    }

    static void probability(String what, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new UserError(what + " " + p + " is not in [0, 1]");
        }
    }

    static void nonNegative(String what, double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new UserError(what + " " + v + " must be a finite number >= 0");
        }
    }
}

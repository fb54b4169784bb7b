package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;

/**
 * How IR stage code runs. {@link #COMPILED}: one generated class per program and
 * gress, the fast path; the compiler's passes have proved the hardware rules, and
 * register indexes are still checked per packet. {@link #INTERPRETER}: the IR walked
 * through the checked {@link StageContext}, the reference semantics with every
 * run-time rule enforced.
 */
public enum Backend {
    COMPILED, INTERPRETER;

    public static Backend parse(String s) {
        for (Backend b : values()) {
            if (b.name().equalsIgnoreCase(s)) {
                return b;
            }
        }
        throw new UserError("unknown backend '" + s + "' (compiled or interpreter)");
    }
}

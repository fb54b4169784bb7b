package dev.rmtemu.programs.lds.program;

import dev.rmtemu.model.UserError;

import java.util.List;

/** Which measurement point(s) a switch hosts. */
public enum LdsRole {
    /** Sender sketch in ingress (the upstream point of a two-switch path). */
    SENDER("sender"),
    /** Receiver sketch in egress (the downstream point). */
    RECEIVER("receiver"),
    /** Both in one switch: ingress → egress across the traffic manager. */
    BOTH("both");

    public final String label;

    LdsRole(String label) {
        this.label = label;
    }

    public boolean sends() {
        return this != RECEIVER;
    }

    public boolean receives() {
        return this != SENDER;
    }

    public static List<String> labels() {
        return List.of(SENDER.label, RECEIVER.label, BOTH.label);
    }

    public static LdsRole byLabel(String s) {
        for (LdsRole r : values()) {
            if (r.label.equals(s)) {
                return r;
            }
        }
        throw new UserError("lds: unknown role '" + s + "' (known: " + labels() + ")");
    }
}

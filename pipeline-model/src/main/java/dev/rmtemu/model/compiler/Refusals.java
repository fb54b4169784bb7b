package dev.rmtemu.model.compiler;

import dev.rmtemu.model.phv.Gress;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the refusals of the running pass, and its warnings: what the target does
 * as written but the author probably did not mean (same line shape, not a refusal).
 */
public final class Refusals {
    private final String program;
    private final List<Refusal> all = new ArrayList<>();
    private final List<Refusal> warnings = new ArrayList<>();
    private String pass = "";

    Refusals(String program) {
        this.program = program;
    }

    void enter(String passName) {
        this.pass = passName;
    }

    public void add(Gress gress, int stage, String element, String rule) {
        Refusal r = new Refusal(program, gress, stage, element, rule, pass);
        if (!all.contains(r)) {
            all.add(r);
        }
    }

    /** A warning: the program is accepted, but does something the author probably did not mean. */
    public void warn(Gress gress, int stage, String element, String rule) {
        Refusal w = new Refusal(program, gress, stage, element, rule, pass);
        if (!warnings.contains(w)) {
            warnings.add(w);
        }
    }

    /** A refusal about the whole program, not one stage. */
    public void program(String rule) {
        add(null, -1, null, rule);
    }

    List<Refusal> list() {
        return List.copyOf(all);
    }

    List<Refusal> warnings() {
        return List.copyOf(warnings);
    }
}

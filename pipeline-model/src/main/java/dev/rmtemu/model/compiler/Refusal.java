package dev.rmtemu.model.compiler;

import dev.rmtemu.model.phv.Gress;

/**
 * One broken hardware rule: where (gress and stage, or the whole program when
 * {@code gress} is null), which element (table, array, field, action), and the
 * rule with its numbers. {@link #line} is what the user sees.
 */
public record Refusal(String program, Gress gress, int stage, String element, String rule, String pass) {
    public String line() {
        StringBuilder b = new StringBuilder(program).append(": ");
        if (gress != null) {
            b.append(gress.label()).append(" stage ").append(stage).append(": ");
        }
        if (element != null) {
            b.append(element).append(": ");
        }
        return b.append(rule).append(" [").append(pass).append(']').toString();
    }
}

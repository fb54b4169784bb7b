package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import java.util.ArrayList;
import java.util.List;

/** The initial_value argument of a Register or DirectRegister: one cell's words. */
final class InitialValues {
    private InitialValues() {
    }

    /**
     * Argument {@code argument} of {@code in} (a {@code kind}, "Register" or "DirectRegister") as
     * {lo, hi}: a constant, or for a pair cell {@code {lo, hi}} or a struct expression in the
     * pair struct's field order.
     */
    static long[] of(Types types, String kind, Declaration.Instantiation in, int argument, Declaration.StructLike pair) {
        Expression v = in.arguments().get(argument).value();
        if (pair == null) {
            return new long[] {types.constant(v), 0};
        }
        List<Expression> parts = v instanceof Expression.ListExpression l ? l.elements() : List.of();
        if (v instanceof Expression.StructExpression se) {
            parts = new ArrayList<>();
            for (Declaration.Field f : pair.fields()) {
                Expression found = null;
                for (Argument a : se.fields()) {
                    if (f.name().equals(a.name())) {
                        found = a.value();
                    }
                }
                if (found == null) {
                    throw new Refusal(v.position(), kind + " " + in.name() + ": initial_value names no " + f.name());
                }
                parts.add(found);
            }
        }
        if (parts.size() != 2) {
            throw new Refusal(v.position(), kind + " " + in.name() + " of " + pair.name() + ": initial_value is {lo, hi}");
        }
        return new long[] {types.constant(parts.get(0)), types.constant(parts.get(1))};
    }
}

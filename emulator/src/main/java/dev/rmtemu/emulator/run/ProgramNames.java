package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.text.ClosestName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The program's tables, actions and register arrays by the names a control script gives:
 * as the program spells them ({@code l2_fwd}), or qualified by their control
 * ({@code Ingress.l2_fwd}: the gress, as {@code show --p4} prints the controls), the
 * unqualified name only where it is unique. A name that matches nothing is answered with
 * the closest one; an ambiguous one with every candidate.
 */
final class ProgramNames {
    private ProgramNames() {
    }

    /** The control a table, action or register array of this gress belongs to. */
    static String control(Gress g) {
        String label = g.label();
        return label.substring(0, 1).toUpperCase(Locale.ROOT) + label.substring(1);
    }

    static MatchTable table(StageProgram p, String given) {
        return resolve("table", given, p.tables(), MatchTable::name, t -> control(t.gress()), p.name());
    }

    static RegisterArray register(StageProgram p, String given) {
        return resolve("register array", given, p.registers(), RegisterArray::name, r -> control(r.gress()), p.name());
    }

    /** A RegisterParam (a register-file row of the one register whose actions read it) and that register. */
    record BoundParam(RegisterArray array, RegisterArray.Param param) {
    }

    static BoundParam registerParam(StageProgram p, String given) {
        List<BoundParam> all = new ArrayList<>();
        for (RegisterArray r : p.registers()) {
            for (RegisterArray.Param q : r.params()) {
                all.add(new BoundParam(r, q));
            }
        }
        return resolve("register param", given, all, b -> b.param().name(), b -> control(b.array().gress()), p.name());
    }

    /** One of the table's declared actions (the default's name is not among them: see {@link #isDefault}). */
    static TableAction action(MatchTable t, String given) {
        requireActions(t);
        String name = unqualified(given, t);
        for (TableAction a : t.actions().actions()) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        List<String> names = new ArrayList<>();
        t.actions().actions().forEach(a -> names.add(a.name()));
        if (name.equals(t.actions().defaultAction())) {
            throw new UserError("action " + name + " is table " + t.name() + "'s default action only (entries take "
                    + String.join(", ", names) + ")");
        }
        throw new UserError("table " + t.name() + " has no action '" + given + "'" + closest(name, names));
    }

    /** Whether {@code given} names one of the actions entries can take. */
    static boolean hasAction(MatchTable t, String given) {
        String name = unqualified(given, t);
        return t.actions().actions().stream().anyMatch(a -> a.name().equals(name));
    }

    /** Whether {@code given} names the table's own default action (the program's miss block). */
    static boolean isDefault(MatchTable t, String given) {
        requireActions(t);
        return unqualified(given, t).equals(t.actions().defaultAction());
    }

    static void requireActions(MatchTable t) {
        if (!t.actions().declared()) {
            throw new UserError("table " + t.name() + " declares no actions a control script can name"
                    + (t.constEntries().isEmpty() ? "" : " (its entries are const)"));
        }
    }

    /** An action name without its control ({@code Ingress.forward} is {@code forward} for an ingress table). */
    private static String unqualified(String given, MatchTable t) {
        String prefix = control(t.gress()) + ".";
        return given.startsWith(prefix) ? given.substring(prefix.length()) : given;
    }

    static <T> T resolve(String kind, String given, List<T> items, Function<T, String> name,
                                 Function<T, String> control, String program) {
        boolean qualified = given.indexOf('.') > 0;
        List<T> found = new ArrayList<>();
        List<String> known = new ArrayList<>();
        for (T item : items) {
            String full = control.apply(item) + "." + name.apply(item);
            String candidate = qualified ? full : name.apply(item);
            known.add(candidate);
            if (candidate.equals(given)) {
                found.add(item);
            }
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        if (found.isEmpty() && qualified) {
            // a program's own names may hold dots (ipv4.dst_addr): the whole name, unqualified
            for (T item : items) {
                if (name.apply(item).equals(given)) {
                    found.add(item);
                }
            }
            if (found.size() == 1) {
                return found.get(0);
            }
        }
        if (found.size() > 1) {
            List<String> full = new ArrayList<>();
            for (T item : found) {
                full.add(control.apply(item) + "." + name.apply(item));
            }
            throw new UserError(kind + " '" + given + "' is ambiguous: " + String.join(", ", full));
        }
        throw new UserError("program " + program + " has no " + kind + " '" + given + "'" + closest(given, known));
    }

    static String closest(String given, List<String> known) {
        return ClosestName.of(given, known).map(c -> " (did you mean " + c + "?)").orElse("");
    }
}

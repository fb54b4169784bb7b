package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The table commands of bmv2's runtime_CLI: {@code table_add}, {@code table_set_default},
 * {@code table_modify}, {@code table_delete} and {@code table_clear}. A table with const
 * entries refuses every change, and a const default action refuses {@code table_set_default},
 * as P4_16 says.
 */
final class TableCommands {
    private static final String ARROW = "=>";

    private TableCommands() {
    }

    /** {@code table_add TABLE ACTION KEY... => PARAM... [PRIORITY]}: the priority only, and always, on a ternary or range table. */
    static ControlCommand.Effect add(SwitchControl sw, List<String> args) {
        need(args, 2, "table_add TABLE ACTION KEY... => PARAM... [PRIORITY]");
        MatchTable t = mutable(sw, args.get(0));
        IndirectCommands.refuseDirect(sw, t, "table_add");
        TableAction a = ProgramNames.action(t, args.get(1));
        int arrow = args.indexOf(ARROW);
        if (arrow < 0) {
            throw new UserError("table_add needs '=>' between the key and the action parameters");
        }
        List<String> params = new ArrayList<>(args.subList(arrow + 1, args.size()));
        int priority = 0;
        if (TableEntry.prioritised(t)) {
            String last = params.isEmpty() ? "" : params.remove(params.size() - 1);
            if (!last.matches("[0-9]{1,9}")) {
                throw new UserError("table " + t.name() + " matches " + t.kind().name().toLowerCase(Locale.ROOT)
                        + ": its entries end with a PRIORITY"
                        + " (a number; the lower value wins)");
            }
            priority = Integer.parseInt(last);
        }
        TableEntry e = TableEntry.parse(t, args.subList(2, arrow), priority);
        long data = ActionParams.data(a, params);
        sw.handles(t).add(e);
        return s -> e.add(s, a.id(), data);
    }

    /** {@code table_set_default TABLE ACTION [PARAM...]}: the program's own default action restores its miss block. */
    static ControlCommand.Effect setDefault(SwitchControl sw, List<String> args) {
        need(args, 2, "table_set_default TABLE ACTION [PARAM...]");
        MatchTable t = ProgramNames.table(sw.program(), args.get(0));
        IndirectCommands.refuseDirect(sw, t, "table_set_default");
        ProgramNames.requireActions(t);
        if (t.actions().defaultConst()) {
            throw new UserError("table " + t.name() + "'s default action " + t.actions().defaultAction()
                    + " is const: the control plane cannot change it");
        }
        List<String> params = args.subList(2, args.size());
        // the program's own default restores the miss block; with parameters, the entries' action of that name (P4's
        // default_action = set_port(0) is also set_port, which table_set_default may give new parameters)
        if (ProgramNames.isDefault(t, args.get(1)) && (params.isEmpty() || !ProgramNames.hasAction(t, args.get(1)))) {
            if (!params.isEmpty()) {
                throw new UserError("action " + t.actions().defaultAction() + " takes no parameters, got " + params.size());
            }
            return s -> s.table(t).resetDefault();
        }
        TableAction a = ProgramNames.action(t, args.get(1));
        long data = ActionParams.data(a, params);
        return s -> s.table(t).setDefault(a.id(), data);
    }

    /** {@code table_modify TABLE ACTION HANDLE [PARAM...]}: another action for an entry the script added. */
    static ControlCommand.Effect modify(SwitchControl sw, List<String> args) {
        need(args, 3, "table_modify TABLE ACTION HANDLE [PARAM...]");
        MatchTable t = mutable(sw, args.get(0));
        IndirectCommands.refuseDirect(sw, t, "table_modify");
        TableAction a = ProgramNames.action(t, args.get(1));
        TableEntry e = sw.handles(t).get(args.get(2));
        long data = ActionParams.data(a, args.subList(3, args.size()));
        return s -> e.modify(s, a.id(), data);
    }

    /** {@code table_delete TABLE HANDLE}. */
    static ControlCommand.Effect delete(SwitchControl sw, List<String> args) {
        exactly(args, 2, "table_delete TABLE HANDLE");
        MatchTable t = mutable(sw, args.get(0));
        SwitchControl.Handles h = sw.handles(t);
        TableEntry e = h.get(args.get(1));
        h.remove(args.get(1));
        return e::remove;
    }

    /** {@code table_clear TABLE}: every entry goes; the default action stays. */
    static ControlCommand.Effect clear(SwitchControl sw, List<String> args) {
        exactly(args, 1, "table_clear TABLE");
        MatchTable t = mutable(sw, args.get(0));
        sw.handles(t).clear();
        return s -> s.table(t).clear();
    }

    private static MatchTable mutable(SwitchControl sw, String name) {
        MatchTable t = ProgramNames.table(sw.program(), name);
        PipelineState.checkInstallable(t);
        return t;
    }

    static void need(List<String> args, int n, String usage) {
        if (args.size() < n) {
            throw new UserError("missing arguments: " + usage);
        }
    }

    static void exactly(List<String> args, int n, String usage) {
        if (args.size() != n) {
            throw new UserError((args.size() < n ? "missing arguments: " : "too many arguments: ") + usage);
        }
    }
}

package dev.rmtemu.model.table;

import java.util.ArrayList;
import java.util.List;

/**
 * The actions of a table as the control plane sees them: the actions an entry can select,
 * and the name of the table's default action (what the program runs on a miss, its
 * {@code miss} block), which may be {@code const} (P4's {@code const default_action}: the
 * control plane cannot change it). The default may also be one of the entries' actions, as P4
 * allows ({@code actions = { forward; drop; } default_action = drop();}). A table declared without actions ({@link #NONE}) can
 * only be filled through the Java control-plane API by action id.
 */
public record TableActions(List<TableAction> actions, String defaultAction, boolean defaultConst) {
    /** No declared actions. */
    public static final TableActions NONE = new TableActions(List.of(), "", true);

    public TableActions {
        actions = List.copyOf(actions);
        List<String> names = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (TableAction a : actions) {
            if (names.contains(a.name())) {
                throw new IllegalArgumentException("action " + a.name() + " declared twice");
            }
            if (ids.contains(a.id())) {
                throw new IllegalArgumentException("action id " + a.id() + " declared twice");
            }
            names.add(a.name());
            ids.add(a.id());
        }
    }

    /** Entries select among {@code actions}; a miss runs the program's miss block, named {@code defaultAction}, which the control plane may replace. */
    public static TableActions of(String defaultAction, TableAction... actions) {
        return new TableActions(List.of(actions), defaultAction, false);
    }

    /** As {@link #of}, with a default action the control plane cannot change. */
    public static TableActions constDefault(String defaultAction, TableAction... actions) {
        return new TableActions(List.of(actions), defaultAction, true);
    }

    public boolean declared() {
        return !actions.isEmpty();
    }

    /** The widest action's parameters, in bits: the action data an entry needs. */
    public int dataBits() {
        int bits = 0;
        for (TableAction a : actions) {
            bits = Math.max(bits, a.dataBits());
        }
        return bits;
    }

    /** The action of this id, or null. */
    public TableAction byId(int id) {
        for (TableAction a : actions) {
            if (a.id() == id) {
                return a;
            }
        }
        return null;
    }
}

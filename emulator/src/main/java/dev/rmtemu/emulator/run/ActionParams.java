package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.table.TableAction;

import java.util.ArrayList;
import java.util.List;

/**
 * An action's parameters as a script gives them: by position ({@code => 3 10.0.0.1}) or by
 * name ({@code => port=3 nhop=10.0.0.1}), positional ones first; each checked against its
 * width, then packed into the entry's action data.
 */
final class ActionParams {
    private ActionParams() {
    }

    static long data(TableAction a, List<String> given) {
        List<TableAction.Param> params = a.params();
        String[] byParam = new String[params.size()];
        int position = 0;
        boolean named = false;
        for (String w : given) {
            int eq = w.indexOf('=');
            if (eq > 0) {
                named = true;
                String name = w.substring(0, eq);
                int i = index(a, name);
                if (byParam[i] != null) {
                    throw new UserError("action " + a.name() + ": parameter " + name + " given twice");
                }
                byParam[i] = w.substring(eq + 1);
            } else {
                if (named) {
                    throw new UserError("action " + a.name() + ": positional parameter " + w + " after named ones");
                }
                if (position >= params.size()) {
                    throw new UserError("action " + a.name() + " takes " + params.size() + " parameter"
                            + (params.size() == 1 ? "" : "s") + names(a) + ", got " + given.size());
                }
                byParam[position++] = w;
            }
        }
        long[] values = new long[params.size()];
        for (int i = 0; i < values.length; i++) {
            TableAction.Param p = params.get(i);
            if (byParam[i] == null) {
                throw new UserError("action " + a.name() + " needs parameter " + p.name() + " (" + p.width() + " bits)");
            }
            values[i] = ControlValues.value(byParam[i], p.width(), p.name());
        }
        return a.pack(values);
    }

    private static int index(TableAction a, String name) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < a.params().size(); i++) {
            if (a.params().get(i).name().equals(name)) {
                return i;
            }
            names.add(a.params().get(i).name());
        }
        throw new UserError("action " + a.name() + " has no parameter '" + name + "'"
                + (names.isEmpty() ? " (it takes none)" : ProgramNames.closest(name, names)));
    }

    private static String names(TableAction a) {
        if (a.params().isEmpty()) {
            return "";
        }
        List<String> n = new ArrayList<>();
        a.params().forEach(p -> n.add(p.name()));
        return " (" + String.join(", ", n) + ")";
    }
}

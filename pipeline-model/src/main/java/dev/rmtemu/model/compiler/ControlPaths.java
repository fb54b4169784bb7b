package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Stmt;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each statement of a stage body sits among the stage's branches: the chain of
 * (gateway or table, branch taken) from the body down to it, and the block holding it.
 * Two statements can run on one packet pass unless they sit in different branches of
 * one gateway or table (p4c's mutually exclusive tables and actions).
 */
final class ControlPaths {
    private ControlPaths() {
    }

    /** One branch choice: the statement that branches and the index of the branch taken. */
    record Choice(Stmt at, int branch) {
    }

    /** A statement with its branch chain and the block (list) it is in. */
    record Placed(Stmt stmt, List<Choice> path, List<Stmt> block) {
        /** True when no packet pass runs both: they part at one gateway or table into different branches. */
        boolean exclusiveWith(Placed o) {
            int n = Math.min(path.size(), o.path.size());
            for (int i = 0; i < n; i++) {
                Choice a = path.get(i);
                Choice b = o.path.get(i);
                if (a.at() != b.at()) {
                    return false;
                }
                if (a.branch() != b.branch()) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Every statement of a body, nested ones included, each before its branches. */
    static List<Placed> of(List<Stmt> body) {
        List<Placed> out = new ArrayList<>();
        walk(body, List.of(), out);
        return out;
    }

    private static void walk(List<Stmt> block, List<Choice> path, List<Placed> out) {
        for (Stmt s : block) {
            out.add(new Placed(s, path, block));
            List<List<Stmt>> branches = s.branches();
            for (int i = 0; i < branches.size(); i++) {
                List<Choice> deeper = new ArrayList<>(path);
                deeper.add(new Choice(s, i));
                walk(branches.get(i), List.copyOf(deeper), out);
            }
        }
    }
}

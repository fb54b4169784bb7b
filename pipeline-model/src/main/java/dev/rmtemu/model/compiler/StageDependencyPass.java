package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterAction;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.ArrayList;

/**
 * Dependencies within a stage. A stateful ALU's or hash unit's output reaches the
 * PHV when the stage ends, so a gateway of the same stage cannot branch on it (a match
 * dependency: the gateway belongs in a later stage); another stateful ALU of the stage
 * cannot take a register action's output as its address or input either (its address
 * comes from hash or match overhead, its inputs from PHV words or hash bits over the
 * input crossbar: a read over the crossbar is a match dependency); and an instruction can
 * use a register action's output only on a control path where that action ran. A table
 * whose key another element of the stage writes sees the key as it entered the stage:
 * legal, and warned about, since the author probably meant the new value.
 */
final class StageDependencyPass implements CompilerPass {
    @Override
    public String name() {
        return "stage-dependencies";
    }

    @Override
    public String rule() {
        return "no gateway branches on a register action's or hash unit's output in its own stage, and no stateful ALU "
                + "takes another's output as index or input; an output is used only where its action ran";
    }

    /**
     * Walks a block with the register actions that run on every path to here;
     * returns those that run on every path through the block as well.
     */
    private static Set<RegisterAction> mustRun(StageDecl d, List<Stmt> block, Set<RegisterAction> before, Refusals out) {
        Set<RegisterAction> ran = Collections.newSetFromMap(new IdentityHashMap<>());
        ran.addAll(before);
        for (Stmt s : block) {
            for (Expr e : IrWalk.reads(s)) {
                IrWalk.forEachExpr(e, x -> {
                    RegisterAction used = IrWalk.registerOutput(x);
                    if (used != null && !ran.contains(used)) {
                        out.add(d.gress(), d.number(), "register action " + used.name(),
                                "its output is used on a control path where the action does not run before");
                    }
                });
            }
            Stmt.Execute e = IrWalk.execution(s);
            if (e != null) {
                ran.add(e.action());
            }
            Set<RegisterAction> common = null;
            for (List<Stmt> b : s.branches()) {
                Set<RegisterAction> after = mustRun(d, b, ran, out);
                if (common == null) {
                    common = after;
                } else {
                    common.retainAll(after);
                }
            }
            if (common != null) {
                ran.addAll(common);
            }
        }
        return ran;
    }

    @Override
    public void run(PassInput in, Refusals out) {
        for (StageDecl d : IrStages.of(in.program())) {
            IrWalk.forEachStmt(d.body(), s -> {
                Stmt.If i = IrWalk.gateway(s);
                if (i != null) {
                    for (Expr side : List.of(i.condition().left(), i.condition().right())) {
                        IrWalk.forEachExpr(side, x -> {
                            HashUnit h = IrWalk.hashOutput(x);
                            RegisterAction r = IrWalk.registerOutput(x);
                            Meter m = IrWalk.meterOutput(x);
                            if (m != null) {
                                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                                        "branches on the colour of meter " + m.name() + " run in the same stage; the colour "
                                                + "reaches the PHV at the end of the stage, so the branch can be taken from stage "
                                                + (d.number() + 1) + " on");
                            }
                            if (h != null) {
                                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                                        "branches on hash unit " + h.name() + " of the same stage; a hash output reaches "
                                                + "the PHV at the end of the stage, so the branch can be taken from stage "
                                                + (d.number() + 1) + " on");
                            }
                            if (r != null) {
                                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                                        "branches on the output of register action " + r.name() + " of array "
                                                + r.array().name() + " run in the same stage; the output reaches the PHV "
                                                + "at the end of the stage, so the branch can be taken from stage " + (d.number() + 1) + " on");
                            }
                        });
                    }
                }
            });
            mustRun(d, d.body(), Collections.newSetFromMap(new IdentityHashMap<>()), out);
            aluFedByAlu(d, out);
            keysWrittenInStage(d, out);
        }
    }

    /**
     * A register action whose index or stateful-ALU input is another register action's output
     * of the same stage. p4c: a stateful ALU's sources are PHV fields or hash bits gathered over
     * the input crossbar (mau/input_xbar.cpp, IXBar::FindSaluSources), and a field read over the
     * crossbar makes an IXBAR_READ (match) dependency on the table that writes it
     * (mau/table_dependency_graph.cpp, FindDataDependencyGraph::AddDependencies), which puts the
     * reader at least one stage after the writer.
     */
    private static void aluFedByAlu(StageDecl d, Refusals out) {
        IrWalk.forEachStmt(d.body(), s -> {
            Stmt.Execute e = IrWalk.execution(s);
            if (e == null) {
                return;
            }
            String[] roles = {"as its index", "as its stateful-ALU input", "as its stateful-ALU input"};
            List<Expr> operands = List.of(e.index(), e.inLo(), e.inHi());
            for (int i = 0; i < operands.size(); i++) {
                String role = roles[i];
                IrWalk.forEachExpr(operands.get(i), x -> {
                    RegisterAction r = IrWalk.registerOutput(x);
                    if (r != null) {
                        out.add(d.gress(), d.number(), "register action " + e.action().name() + " of array "
                                        + e.action().array().name(),
                                "reads the output of register action " + r.name() + " of array "
                                        + r.array().name() + " " + role + "; a stateful ALU is addressed by hash or "
                                        + "match overhead and fed PHV words or hash bits, and another stateful ALU's output "
                                        + "reaches the PHV at the end of the stage, so it can be used from stage "
                                        + (d.number() + 1) + " on");
                    }
                });
            }
        });
    }

    /**
     * A table that matches on a field another element of the same stage writes (on a path
     * that can also apply the table): the lookup sees the value the field had when the
     * packet entered the stage, as on Tofino. Writes in the table's own actions come after
     * its lookup and are not reported.
     */
    private static void keysWrittenInStage(StageDecl d, Refusals out) {
        List<ControlPaths.Placed> placed = ControlPaths.of(d.body());
        for (ControlPaths.Placed p : placed) {
            Stmt.Apply a = IrWalk.application(p.stmt());
            if (a == null) {
                continue;
            }
            for (ControlPaths.Placed w : placed) {
                Stmt.Assign write = IrWalk.assignment(w.stmt());
                if (write == null || !a.table().key().contains(write.dest())
                        || w.exclusiveWith(p) || inside(w, a)) {
                    continue;
                }
                out.warn(d.gress(), d.number(), "table " + a.table().name(), "key field " + write.dest().name()
                        + " is written in the same stage by " + writer(w) + "; the lookup sees the value it had when the "
                        + "packet entered the stage (a write is visible from the next stage)");
            }
        }
    }

    /** True when {@code w} sits in one of the branches of {@code a}. */
    private static boolean inside(ControlPaths.Placed w, Stmt.Apply a) {
        for (ControlPaths.Choice c : w.path()) {
            if (c.at() == a) {
                return true;
            }
        }
        return false;
    }

    /** The element a write belongs to: the innermost table action or gateway branch, or the stage's own code. */
    private static String writer(ControlPaths.Placed w) {
        Stmt.Assign a = IrWalk.assignment(w.stmt());
        String instruction = "'" + a.dest().name() + " = " + a.value() + "'";
        if (w.path().isEmpty()) {
            return "the stage's instruction " + instruction;
        }
        ControlPaths.Choice c = w.path().get(w.path().size() - 1);
        Stmt.If i = IrWalk.gateway(c.at());
        if (i != null) {
            return "gateway '" + i.condition() + "' (" + (c.branch() == 0 ? "then" : "else") + " branch) instruction " + instruction;
        }
        Stmt.Apply t = IrWalk.application(c.at());
        List<Integer> ids = new ArrayList<>(t.actions().keySet());
        String action = c.branch() < ids.size() ? "action " + ids.get(c.branch()) : "miss";
        return "table " + t.table().name() + " (" + action + ") instruction " + instruction;
    }
}

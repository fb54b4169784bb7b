package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterAction;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Dependencies within a stage. A stateful ALU's or hash unit's output reaches the
 * PHV when the stage ends, so a gateway of the same stage cannot branch on it (a match
 * dependency: the gateway belongs in a later stage); and an instruction can
 * use a register action's output only on a control path where that action ran.
 */
final class StageDependencyPass implements CompilerPass {
    @Override
    public String name() {
        return "stage-dependencies";
    }

    @Override
    public String rule() {
        return "no gateway branches on a register action's or hash unit's output in its own stage; "
                + "an output is used only where its action ran";
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
                    if (x instanceof Expr.RegOut r && !ran.contains(r.action())) {
                        out.add(d.gress(), d.number(), "register action " + r.action().name(),
                                "its output is used on a control path where the action does not run before");
                    }
                });
            }
            if (s instanceof Stmt.Execute e) {
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
                if (s instanceof Stmt.If i) {
                    for (Expr side : List.of(i.condition().left(), i.condition().right())) {
                        IrWalk.forEachExpr(side, x -> {
                            if (x instanceof Expr.HashOut h) {
                                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                                        "branches on hash unit " + h.unit().name() + " of the same stage; a hash output reaches "
                                                + "the PHV at the end of the stage, so the branch can be taken from stage "
                                                + (d.number() + 1) + " on");
                            }
                            if (x instanceof Expr.RegOut r) {
                                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                                        "branches on the output of register action " + r.action().name() + " of array "
                                                + r.action().array().name() + " run in the same stage; the output reaches the PHV "
                                                + "at the end of the stage, so the branch can be taken from stage " + (d.number() + 1) + " on");
                            }
                        });
                    }
                }
            });
            mustRun(d, d.body(), Collections.newSetFromMap(new IdentityHashMap<>()), out);
        }
    }
}

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.StageDecl;

import java.util.List;
import java.util.Map;

/**
 * VLIW instructions: a PHV container is written by one instruction per stage,
 * and an instruction is one operation of its container's ALU over two sources.
 * A stateful ALU's inputs come straight from the PHV, a hash or a constant; its
 * address from a hash or a field (a power-of-two mask or fold selects its bits);
 * a gateway compares fields, optionally masked by a constant. A profile with
 * {@code fullArithmetic} lifts the shape rules (any expression in one
 * instruction), not the one-write rule.
 */
final class VliwInstructionsPass implements CompilerPass {
    @Override
    public String name() {
        return "vliw-instructions";
    }

    @Override
    public String rule() {
        return "one instruction per PHV container per stage, one ALU operation per instruction; "
                + "stateful-ALU inputs and gateway operands without arithmetic";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        boolean anyShape = in.target().fullArithmetic();
        for (StageDecl d : IrStages.of(in.program())) {
            if (!anyShape) {
                IrWalk.forEachStmt(d.body(), s -> shape(d, s, out));
            }
            Map<Field, Integer> writes = PathCounts.max(d.body(), s -> {
                Stmt.Assign a = IrWalk.assignment(s);
                return a == null ? null : a.dest();
            });
            writes.forEach((f, n) -> {
                if (n > 1) {
                    out.add(d.gress(), d.number(), "field " + f.name(), "written " + n
                            + " times on one control path; its container takes one instruction per stage");
                }
            });
        }
    }

    private void shape(StageDecl d, Stmt s, Refusals out) {
        s.accept(new Stmt.Visitor<Void>() {
            @Override
            public Void count(Stmt.Count x) {
                return null;
            }

            @Override
            public Void meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Void assign(Stmt.Assign a) {
                int ops = operations(a.value());
                if (ops > 1) {
                    out.add(d.gress(), d.number(), "field " + a.dest().name(), "'" + a.dest().name() + " = " + a.value()
                            + "' needs " + ops + " ALU operations; a container's ALU does one per stage");
                }
                return null;
            }

            @Override
            public Void execute(Stmt.Execute e) {
                executeShape(d, e, out);
                return null;
            }

            @Override
            public Void gateway(Stmt.If i) {
                gatewayShape(d, i, out);
                return null;
            }

            @Override
            public Void apply(Stmt.Apply a) {
                return null;
            }
        });
    }

    private static void executeShape(StageDecl d, Stmt.Execute e, Refusals out) {
        String what = "register action " + e.action().name();
        if (operations(e.inLo()) > 0 || operations(e.inHi()) > 0) {
            out.add(d.gress(), d.number(), what, "a stateful ALU input is computed (" + e.inLo() + ", " + e.inHi()
                    + "); its inputs come straight from PHV fields, hash outputs or constants");
        }
        if (!selectsBits(e.index())) {
            out.add(d.gress(), d.number(), what, "index " + e.index() + " is computed; a stateful ALU is addressed by "
                    + "a hash output or a field, optionally masked to a power-of-two size");
        }
    }

    private static void gatewayShape(StageDecl d, Stmt.If i, Refusals out) {
        for (Expr side : List.of(i.condition().left(), i.condition().right())) {
            Expr.Binary b = IrWalk.binary(side);
            if (!(operations(side) == 0 || b != null && b.op() == VliwOp.AND
                    && b.right().constantValue() != null && operations(b.left()) == 0)) {
                out.add(d.gress(), d.number(), "gateway '" + i.condition() + "'",
                        "compares a computed value; a gateway compares fields, optionally masked by a constant");
            }
        }
    }

    /** The address is a hash or field, or one mask/power-of-two fold of it. */
    private static boolean selectsBits(Expr e) {
        if (operations(e) == 0) {
            return true;
        }
        Expr.Binary b = IrWalk.binary(e);
        return b != null && operations(b.left()) == 0 && b.right().constantValue() != null
                && (b.op() == VliwOp.AND || b.op() == VliwOp.MOD || b.op() == VliwOp.SHR);
    }

    static int operations(Expr e) {
        Expr.Binary b = IrWalk.binary(e);
        return b != null ? 1 + operations(b.left()) + operations(b.right()) : 0;
    }
}

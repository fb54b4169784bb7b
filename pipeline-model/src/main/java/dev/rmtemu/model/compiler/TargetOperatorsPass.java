package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.program.StageDecl;

/**
 * Operators the target's container ALUs have. On a Tofino-like profile
 * ({@code fullArithmetic: false}) there is no multiplier or divider: {@code *},
 * {@code /} and {@code %} are legal only by a power-of-two constant (a shift
 * or a mask; {@code *} is commutative, so the constant may stand on either side),
 * and a shift only by a constant amount.
 */
final class TargetOperatorsPass implements CompilerPass {
    @Override
    public String name() {
        return "target-operators";
    }

    @Override
    public String rule() {
        return "*, / and % only by a power-of-two constant and shifts only by a constant, unless the profile has fullArithmetic";
    }

    /**
     * The constant operand the container ALU would shift or mask by: the right one, or for
     * the commutative '*' either one ({@code 4 * x} is {@code x << 2} as much as {@code x * 4}).
     */
    private static Long constantOperand(Expr.Binary b) {
        Long right = b.right().constantValue();
        return right != null || b.op() != VliwOp.MUL ? right : b.left().constantValue();
    }

    @Override
    public void run(PassInput in, Refusals out) {
        if (in.target().fullArithmetic()) {
            return;
        }
        String target = in.target().name();
        for (StageDecl d : IrStages.of(in.program())) {
            IrWalk.forEachStmt(d.body(), s -> {
                for (Expr e : IrWalk.reads(s)) {
                    IrWalk.visitAll(e, new Expr.Visitor<Void>() {
                        @Override
                        public Void meterOut(Expr.MeterOut x) {
                            return null;
                        }

                        @Override
                        public Void read(Expr.Read x) {
                            return null;
                        }

                        @Override
                        public Void constant(Expr.Const x) {
                            return null;
                        }

                        @Override
                        public Void hashOut(Expr.HashOut x) {
                            return null;
                        }

                        @Override
                        public Void regOut(Expr.RegOut x) {
                            return null;
                        }

                        @Override
                        public Void actionData(Expr.ActionData x) {
                            return null;
                        }

                        @Override
                        public Void binary(Expr.Binary b) {
                            check(d, b, target, out);
                            return null;
                        }
                    });
                }
            });
        }
    }

    /** A multiply, divide, modulo or shift the container ALU cannot do. */
    private static void check(StageDecl d, Expr.Binary b, String target, Refusals out) {
        VliwOp op = b.op();
        Long c = constantOperand(b);
        if (op == VliwOp.MUL || op == VliwOp.DIV || op == VliwOp.MOD) {
            if (c == null) {
                out.add(d.gress(), d.number(), "expression " + b, "'" + op.symbol() + "' by a run-time value; "
                        + target + " has no multiplier or divider");
            } else if (c <= 0 || Long.bitCount(c) != 1) {
                out.add(d.gress(), d.number(), "expression " + b, "'" + op.symbol() + "' by "
                        + Long.toUnsignedString(c) + ", not a power of two; " + target
                        + " can only shift or mask (no multiplier or divider)");
            }
        } else if ((op == VliwOp.SHL || op == VliwOp.SHR) && c == null) {
            out.add(d.gress(), d.number(), "expression " + b, "shift by a run-time amount; "
                    + target + "'s container ALUs shift by a constant");
        }
    }
}

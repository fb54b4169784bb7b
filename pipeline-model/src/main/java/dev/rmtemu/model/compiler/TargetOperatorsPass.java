package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.target.PhvContainerGroup;
import dev.rmtemu.model.target.TargetProfile;

/**
 * Operators the target's container ALUs have. On a Tofino-like profile
 * ({@code fullArithmetic: false}) there is no multiplier or divider: {@code *},
 * {@code /} and {@code %} are legal only by a power-of-two constant (a shift
 * or a mask; {@code *} is commutative, so the constant may stand on either side),
 * and a shift only by a constant amount, and a saturating add or subtract is no
 * wider than the widest PHV container: the ALU saturates at its
 * container's width and the instruction cannot be split (bf-p4c
 * mau/instruction_selection.cpp, DoInstructionSelection::limitWidth).
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
        int widest = widestContainer(in.target());
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
                            saturating(d, b, widest, target, out);
                            return null;
                        }
                    });
                }
            });
        }
    }

    /** The widest ordinary PHV container of the target; 64 when it lists none. */
    private static int widestContainer(TargetProfile t) {
        int widest = 0;
        for (PhvContainerGroup g : t.phvContainers()) {
            if (!g.tagalong()) {
                widest = Math.max(widest, g.widthBits());
            }
        }
        return widest == 0 ? 64 : widest;
    }

    /** A saturating operation wider than any container the ALU could saturate in. */
    private static void saturating(StageDecl d, Expr.Binary b, int widest, String target, Refusals out) {
        if (b.op().saturating() && b.width() > widest) {
            out.add(d.gress(), d.number(), "expression " + b, "saturating '" + b.op().symbol() + "' at " + b.width()
                    + " bits; it may not exceed " + target + "'s widest PHV container (" + widest + " b)");
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
        } else if ((op == VliwOp.SHL || op == VliwOp.SHR || op == VliwOp.SHRS) && c == null) {
            out.add(d.gress(), d.number(), "expression " + b, "shift by a run-time amount; "
                    + target + "'s container ALUs shift by a constant");
        }
    }
}

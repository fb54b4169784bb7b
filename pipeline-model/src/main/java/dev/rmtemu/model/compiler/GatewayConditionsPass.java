package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What a Tofino gateway can compare ({@link GatewayLayout}, after bf-p4c mau/gateway.cpp),
 * and conditions inside a table's action. An {@code if} on the action data of the entry
 * that hit runs inside that action: p4c's front end predicates it into a conditional
 * assignment (midend Predication; anything but assignments is "Conditional execution in
 * actions unsupported on this target"), and the Tofino back end takes only a conditionally-set
 * whose condition is a one-bit action parameter itself (mau/instruction_selection.cpp
 * DoInstructionSelection, "Conditions in an action must be simple comparisons of an action
 * data parameter"). Conditions on a hash or register output of the same stage are the
 * stage-dependencies pass's refusal, and arithmetic in a condition vliw-instructions':
 * neither is repeated here.
 */
final class GatewayConditionsPass implements CompilerPass {
    @Override
    public String name() {
        return "gateway-conditions";
    }

    @Override
    public String rule() {
        return "a gateway compares PHV fields with constants (== and != also two fields) within 4 bytes + 12 range bits; "
                + "x > k and x >= k are range matches unless k's low bits slice off; no condition on action data inside an action "
                + "except a one-bit conditionally-set";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        if (in.target().mau().gatewayPhvBytes() == TargetProfile.UNLIMITED) {
            return; // a profile without a gateway's budget (unconstrained, rmt) compares anything
        }
        for (StageDecl d : IrStages.of(in.program())) {
            walk(d, d.body(), in.target(), out);
        }
    }

    private static void walk(StageDecl d, List<Stmt> block, TargetProfile target, Refusals out) {
        for (Stmt s : block) {
            Stmt.If i = IrWalk.gateway(s);
            if (i != null) {
                check(d, i, target, out);
            }
            for (List<Stmt> b : s.branches()) {
                walk(d, b, target, out);
            }
        }
    }

    private static void check(StageDecl d, Stmt.If i, TargetProfile target, Refusals out) {
        Condition c = i.condition();
        String element = "gateway '" + c + "'";
        if (reads(c, x -> IrWalk.hashOutput(x) != null) || reads(c, x -> IrWalk.registerOutput(x) != null)) {
            return; // refused by stage-dependencies
        }
        if (!fieldShaped(c.left()) || !fieldShaped(c.right())) {
            return; // arithmetic in a condition: refused by vliw-instructions
        }
        if (readsActionData(c)) {
            String why = actionCondition(i);
            if (why != null) {
                out.add(d.gress(), d.number(), element, why);
            }
            return;
        }
        try {
            GatewayLayout.of(c, target);
        } catch (GatewayLayout.TooComplex e) {
            out.add(d.gress(), d.number(), element, e.getMessage());
        }
    }

    /** Null when Tofino runs this condition on action data as a conditionally-set; else why not. */
    private static String actionCondition(Stmt.If i) {
        Condition c = i.condition();
        List<Stmt> body = new ArrayList<>();
        body.addAll(i.then());
        body.addAll(i.otherwise());
        for (Stmt s : body) {
            if (IrWalk.assignment(s) == null) {
                return "conditional execution in actions unsupported: an if on action data runs inside the table's action, "
                        + "where only assignments can be predicated; move the test into the control or make it part of the table key";
            }
        }
        Expr.ActionData flag = IrWalk.actionDataRead(c.left()) != null ? IrWalk.actionDataRead(c.left())
                : IrWalk.actionDataRead(c.right());
        Expr other = flag == c.left() ? c.right() : c.left();
        boolean oneBit = flag != null && flag.table().actionDataBits() == 1 && IrWalk.isConst(other)
                && (c.op() == CmpOp.EQ || c.op() == CmpOp.NE);
        boolean oneBranch = i.then().isEmpty() != i.otherwise().isEmpty();
        if (oneBit && oneBranch) {
            return null;
        }
        return "conditions in an action must be a one-bit action data parameter (a conditionally-set of one branch of "
                + "assignments), not a comparison of action data; move the test into the control or make it part of the table key";
    }

    /** A value, or a value masked by a constant: anything else is vliw-instructions' refusal. */
    private static boolean fieldShaped(Expr e) {
        Expr.Binary b = IrWalk.binary(e);
        if (b == null) {
            return true;
        }
        return b.op() == VliwOp.AND && IrWalk.isConst(b.right()) && IrWalk.binary(b.left()) == null;
    }

    private static boolean reads(Condition c, Predicate<Expr> kind) {
        return IrWalk.anyExpr(c.left(), kind) || IrWalk.anyExpr(c.right(), kind);
    }

    private static boolean readsActionData(Condition c) {
        return reads(c, x -> IrWalk.actionDataRead(x) != null);
    }

    /** The crossbar fields and hash bits of one stage's gateways that the target takes. */
    static GatewayInputs inputs(StageDecl d, TargetProfile target) {
        List<Field> fields = new ArrayList<>();
        if (target.mau().gatewayPhvBytes() == TargetProfile.UNLIMITED) {
            return new GatewayInputs(List.of(), 0);
        }
        int[] bits = {0};
        IrWalk.forEachStmt(d.body(), s -> {
            Stmt.If i = IrWalk.gateway(s);
            if (i != null && !readsActionData(i.condition())) {
                try {
                    GatewayLayout.Input g = GatewayLayout.of(i.condition(), target);
                    fields.addAll(g.xbarFields());
                    bits[0] += g.hashBits();
                } catch (GatewayLayout.TooComplex e) {
                    // refused by this pass; no resources to count
                }
            }
        });
        return new GatewayInputs(List.copyOf(fields), bits[0]);
    }

    record GatewayInputs(List<Field> fields, int hashBits) {
    }
}

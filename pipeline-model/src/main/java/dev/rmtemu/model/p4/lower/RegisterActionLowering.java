package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.List;
import java.util.function.Function;

/**
 * A RegisterAction's {@code apply(inout value, out rv)} body compiled to the stateful ALU
 * of a single-word register (model/register): at most one {@code if (value CMP x)} with an
 * {@code else} (the ALU's condition c0), in each branch at most one update
 * {@code value = a OP b} (OP + - & | ^, or a plain copy) and {@code rv = value} before or
 * after it (the old or the new word). An operand is {@code value}, a constant, or one PHV
 * field (the ALU's input, given to {@code execute}). Anything else is refused naming the rule.
 */
final class RegisterActionLowering {
    /** The PHV field the body reads, as the ALU's input (null: none). */
    private Expression input;
    private final Types types;
    private final String valueName;
    private final String rvName;
    private final RegisterAction.Builder b;
    private final Function<Expression, Boolean> isPhvField;

    private RegisterActionLowering(Types types, RegisterArray array, String name, Declaration.Function apply,
                                   Function<Expression, Boolean> isPhvField) {
        this.types = types;
        List<Parameter> ps = apply.parameters();
        this.valueName = ps.get(0).name();
        this.rvName = ps.size() > 1 ? ps.get(1).name() : null;
        this.b = RegisterAction.on(array, name);
        this.isPhvField = isPhvField;
    }

    /** The register action, and the PHV field it reads as its input (or null). */
    record Lowered(RegisterAction action, Expression input) {
    }

    static Lowered lower(Types types, RegisterArray array, Declaration.Instantiation decl, Function<Expression, Boolean> isPhvField) {
        Declaration.Function apply = null;
        for (Declaration d : decl.initializer()) {
            if (d instanceof Declaration.Function f && f.name().equals("apply")) {
                apply = f;
            } else {
                throw new Refusal(d.position(), "RegisterAction " + decl.name() + ": only an apply method is supported by the lowering");
            }
        }
        if (apply == null || apply.parameters().isEmpty() || apply.parameters().size() > 2) {
            throw new Refusal(decl.position(), "RegisterAction " + decl.name() + " needs apply(inout value[, out rv])");
        }
        RegisterActionLowering l = new RegisterActionLowering(types, array, decl.name(), apply, isPhvField);
        List<Statement> body = apply.body().statements();
        if (body.size() == 1 && body.get(0) instanceof Statement.If i && i.otherwise() != null) {
            l.condition(i.condition());
            l.branch(i.then(), Predicate.C0);
            l.branch(i.otherwise(), Predicate.NOT_C0);
        } else {
            for (Statement s : body) {
                if (s instanceof Statement.If) {
                    throw new Refusal(s.position(), "RegisterAction " + decl.name()
                            + ": the lowering supports one if/else making up the whole apply body");
                }
            }
            l.branch(apply.body(), Predicate.ALWAYS);
        }
        return new Lowered(l.b.build(), l.input);
    }

    private void condition(Expression c) {
        if (c instanceof Expression.Binary bin) {
            CmpOp op = switch (bin.operator()) {
                case "==" -> CmpOp.EQ;
                case "!=" -> CmpOp.NE;
                case "<" -> CmpOp.LT;
                case "<=" -> CmpOp.LE;
                case ">" -> CmpOp.GT;
                case ">=" -> CmpOp.GE;
                default -> null;
            };
            if (op != null) {
                b.condition(operand(bin.left()), op, operand(bin.right()));
                return;
            }
        }
        throw new Refusal(c.position(), "a stateful ALU condition is one comparison of the register value, a constant or a PHV field");
    }

    private void branch(Statement s, Predicate when) {
        List<Statement> stmts = s instanceof Statement.Block blk ? blk.statements() : List.of(s);
        boolean updated = false;
        boolean output = false;
        for (Statement st : stmts) {
            if (!(st instanceof Statement.Assignment a) || !(a.target() instanceof Expression.Name t)) {
                throw new Refusal(st.position(), "a stateful ALU branch is assignments to the register value and the return value");
            }
            if (t.name().equals(valueName)) {
                if (updated) {
                    throw new Refusal(st.position(), "the register value is updated once per branch by a stateful ALU");
                }
                update(a.value(), when);
                updated = true;
            } else if (t.name().equals(rvName)) {
                if (output || !(a.value() instanceof Expression.Name v) || !v.name().equals(valueName)) {
                    throw new Refusal(st.position(), "the lowering supports rv = " + valueName + " (the old or the new value), once per branch");
                }
                b.output(when, updated ? RegisterAction.OutputSource.NEW_LO : RegisterAction.OutputSource.OLD_LO);
                output = true;
            } else {
                throw new Refusal(st.position(), "a stateful ALU writes only the register value and the return value");
            }
        }
    }

    private void update(Expression v, Predicate when) {
        if (v instanceof Expression.Binary bin) {
            AluOp op = switch (bin.operator()) {
                case "+" -> AluOp.ADD;
                case "-" -> AluOp.SUB;
                case "&" -> AluOp.AND;
                case "|" -> AluOp.OR;
                case "^" -> AluOp.XOR;
                default -> null;
            };
            if (op != null) {
                b.updateLo(when, op, operand(bin.left()), operand(bin.right()));
                return;
            }
            throw new Refusal(bin.position(), "operator " + bin.operator() + " is not an operation of the stateful ALU the lowering supports");
        }
        b.updateLo(when, AluOp.SET, operand(v), Operand.constant(0));
    }

    /** A field reference as written ({@code ig_md.x}), to compare two references to it. */
    static String path(Expression e) {
        if (e instanceof Expression.Name n) {
            return n.name();
        }
        if (e instanceof Expression.Member m) {
            return path(m.target()) + "." + m.member();
        }
        return "?";
    }

    private Operand operand(Expression e) {
        if (e instanceof Expression.Name n && n.name().equals(valueName)) {
            return Operand.REG_LO;
        }
        if (types.isConstant(e)) {
            return Operand.constant(types.constant(e));
        }
        if (isPhvField.apply(e)) {
            if (input != null && !path(input).equals(path(e))) {
                throw new Refusal(e.position(), "a stateful ALU reads one PHV field here (the lowering's limit); another is read already");
            }
            input = e;
            return Operand.IN_LO;
        }
        throw new Refusal(e.position(), "a stateful ALU operand is the register value, a constant or a PHV field");
    }
}

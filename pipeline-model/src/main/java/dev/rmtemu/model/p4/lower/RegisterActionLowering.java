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

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A RegisterAction's {@code apply(inout value, out rv)} body compiled to the stateful ALU
 * (model/register): at most one {@code if (x CMP y)} with an {@code else} (the ALU's condition
 * c0), in each branch at most one update per word ({@code value = a OP b}, OP + - & | ^, or a
 * plain copy) and one {@code rv = word} before or after its update (the old or the new word).
 * A register of a struct of two fields is a lo/hi pair: its first field is the lo word
 * ({@code value.first}), its second the hi word. An operand is a word, a constant, or a PHV
 * field (the ALU's inputs, at most two: lo and hi, given to {@code execute}). Anything else is
 * refused naming the rule.
 */
final class RegisterActionLowering {
    /** The PHV fields the body reads, as the ALU's lo and hi inputs (null: none). */
    private Expression input;
    private Expression inputHi;
    /** A pair register's field names: lo, hi (null for a single word). */
    private final String loField;
    private final String hiField;
    /** What each branch returns (C0 / NOT_C0 / ALWAYS): the ALU has one output word. */
    private final Map<Predicate, RegisterAction.OutputSource> outputs = new LinkedHashMap<>();
    private final Types types;
    private final String valueName;
    private final String rvName;
    private final RegisterAction.Builder b;
    private final Function<Expression, Boolean> isPhvField;

    private RegisterActionLowering(Types types, RegisterArray array, String name, Declaration.Function apply,
                                   Function<Expression, Boolean> isPhvField, Declaration.StructLike pair) {
        this.types = types;
        this.loField = pair == null ? null : pair.fields().get(0).name();
        this.hiField = pair == null ? null : pair.fields().get(1).name();
        List<Parameter> ps = apply.parameters();
        this.valueName = ps.get(0).name();
        this.rvName = ps.size() > 1 ? ps.get(1).name() : null;
        this.b = RegisterAction.on(array, name);
        this.isPhvField = isPhvField;
    }

    /** The register action, and the PHV fields it reads as its lo and hi inputs (or null). */
    record Lowered(RegisterAction action, Expression input, Expression inputHi) {
    }

    /** {@code pair}: the register's struct of two words, or null for a single word. */
    static Lowered lower(Types types, RegisterArray array, Declaration.Instantiation decl, Function<Expression, Boolean> isPhvField,
                         Declaration.StructLike pair) {
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
        RegisterActionLowering l = new RegisterActionLowering(types, array, decl.name(), apply, isPhvField, pair);
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
        l.output(decl);
        return new Lowered(l.b.build(), l.input, l.inputHi);
    }

    /** The ALU's one output: the same word from every branch that returns one (else refused). */
    private void output(Declaration.Instantiation decl) {
        Set<RegisterAction.OutputSource> sources = new HashSet<>(outputs.values());
        if (sources.size() > 1) {
            throw new Refusal(decl.position(), "RegisterAction " + decl.name() + ": its branches return different words, and a"
                    + " stateful ALU has one output (return the same word, old or new, from each branch)");
        }
        if (outputs.size() == 1) {
            Map.Entry<Predicate, RegisterAction.OutputSource> only = outputs.entrySet().iterator().next();
            b.output(only.getKey(), only.getValue());
        } else if (outputs.size() == 2) {
            b.output(Predicate.ALWAYS, outputs.values().iterator().next());
        }
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
        boolean updatedLo = false;
        boolean updatedHi = false;
        boolean output = false;
        for (Statement st : stmts) {
            if (!(st instanceof Statement.Assignment a)) {
                throw new Refusal(st.position(), "a stateful ALU branch is assignments to the register value and the return value");
            }
            Boolean hi = word(a.target());
            if (hi != null) {
                if (hi ? updatedHi : updatedLo) {
                    throw new Refusal(st.position(), "the register value is updated once per branch by a stateful ALU");
                }
                update(a.value(), when, hi);
                updatedHi |= hi;
                updatedLo |= !hi;
            } else if (a.target() instanceof Expression.Name t && t.name().equals(rvName)) {
                Boolean from = word(a.value());
                if (output || from == null) {
                    throw new Refusal(st.position(), "the lowering supports rv = " + (loField == null ? valueName
                            : valueName + "." + loField + " or " + valueName + "." + hiField) + " (the old or the new value), once per branch");
                }
                outputs.put(when, from ? (updatedHi ? RegisterAction.OutputSource.NEW_HI : RegisterAction.OutputSource.OLD_HI)
                        : (updatedLo ? RegisterAction.OutputSource.NEW_LO : RegisterAction.OutputSource.OLD_LO));
                output = true;
            } else {
                throw new Refusal(st.position(), "a stateful ALU writes only the register value and the return value");
            }
        }
    }

    /** Which word an expression names: false the lo word ({@code value}, {@code value.first}), true the hi word, null neither. */
    private Boolean word(Expression e) {
        if (loField == null) {
            return e instanceof Expression.Name n && n.name().equals(valueName) ? Boolean.FALSE : null;
        }
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && n.name().equals(valueName)) {
            return m.member().equals(loField) ? Boolean.FALSE : m.member().equals(hiField) ? Boolean.TRUE : null;
        }
        return null;
    }

    private void update(Expression v, Predicate when, boolean hi) {
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
                if (hi) {
                    b.updateHi(when, op, operand(bin.left()), operand(bin.right()));
                } else {
                    b.updateLo(when, op, operand(bin.left()), operand(bin.right()));
                }
                return;
            }
            throw new Refusal(bin.position(), "operator " + bin.operator() + " is not an operation of the stateful ALU the lowering supports");
        }
        if (hi) {
            b.updateHi(when, AluOp.SET, operand(v), Operand.constant(0));
        } else {
            b.updateLo(when, AluOp.SET, operand(v), Operand.constant(0));
        }
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
        Boolean w = word(e);
        if (w != null) {
            return w ? Operand.REG_HI : Operand.REG_LO;
        }
        if (types.isConstant(e)) {
            return Operand.constant(types.constant(e));
        }
        if (isPhvField.apply(e)) {
            if (input == null || path(input).equals(path(e))) {
                input = e;
                return Operand.IN_LO;
            }
            if (loField == null) {
                throw new Refusal(e.position(), "a stateful ALU of a single-word register reads one PHV field; another is read already");
            }
            if (inputHi != null && !path(inputHi).equals(path(e))) {
                throw new Refusal(e.position(), "a stateful ALU reads two PHV fields (its lo and hi inputs); two others are read already");
            }
            inputHi = e;
            return Operand.IN_HI;
        }
        throw new Refusal(e.position(), "a stateful ALU operand is a register word, a constant or a PHV field");
    }
}

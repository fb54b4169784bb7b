package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * A RegisterAction's {@code apply(inout value, out rv)} body compiled to the stateful ALU
 * (model/register), as Tofino's does: the body's if/else tree may test at most two
 * comparisons (the ALU's conditions c0 and c1; each path through the tree is a predicate of
 * them), and on each path updates each word of the cell at most once ({@code value}, or
 * {@code value.lo}/{@code value.hi} of a pair cell: the register's struct of two equal
 * fields, first lo then hi) with {@code a OP b} (OP + - & | ^, or a plain copy), and sets
 * {@code rv} to one word of the cell, the old one before that word's update on the path or
 * the new one after it; every path that sets {@code rv} sets it from the same word (the
 * ALU has one output). An operand is a word of the cell, a constant, or a PHV field: the
 * first field read is the ALU's lo input, a second its hi input (given to {@code execute}).
 * Anything else is refused naming the rule.
 */
final class RegisterActionLowering {
    /** The truth tables of c0 and c1 (see {@link Predicate}). */
    private static final int[] CONDITION_TABLES = {Predicate.C0.truthTable(), Predicate.C1.truthTable()};
    private static final int ALL = Predicate.ALWAYS.truthTable();

    /** The PHV fields the body reads, as the ALU's lo and hi inputs. */
    private final List<Expression> inputs = new ArrayList<>();
    /** The conditions c0, c1 as written, to find a repeated one. */
    private final List<String> conditions = new ArrayList<>();
    private final Types types;
    private final String actionName;
    /** RegisterAction or DirectRegisterAction, as the program declares it (named in refusals). */
    private final String kind;
    private final String valueName;
    private final String rvName;
    /** The pair cell's field names (null for a single word). */
    private final String loName;
    private final String hiName;
    private final RegisterAction.Builder b;
    /** The bits of the PHV field an expression names; 0 when it names none. */
    private final ToIntFunction<Expression> phvWidth;
    private final int wordBits;
    private RegisterAction.OutputSource output;
    private ParamRows params;
    private int outputWhen;

    private RegisterActionLowering(Types types, RegisterArray array, String name, String kind, Declaration.Function apply,
                                   Declaration.StructLike pair, ToIntFunction<Expression> phvWidth) {
        this.types = types;
        this.actionName = name;
        this.kind = kind;
        List<Parameter> ps = apply.parameters();
        this.valueName = ps.get(0).name();
        this.rvName = ps.size() > 1 ? ps.get(1).name() : null;
        this.loName = pair == null ? null : pair.fields().get(0).name();
        this.hiName = pair == null ? null : pair.fields().get(1).name();
        this.b = RegisterAction.on(array, name);
        this.phvWidth = phvWidth;
        this.wordBits = array.wordBits();
    }

    /** The register action, and the PHV fields it reads as its lo and hi inputs (none, one or two). */
    record Lowered(RegisterAction action, List<Expression> inputs) {
    }

    /** {@code pair} is the register's cell struct when it holds a pair of words, else null. */
    /** The register-file row of a RegisterParam the action reads ({@code param.read()}), or -1 when the name is no param. */
    @FunctionalInterface
    interface ParamRows {
        int row(String param, SourcePosition at);
    }

    static Lowered lower(Types types, RegisterArray array, Declaration.StructLike pair, Declaration.Instantiation decl, String name,
                         ToIntFunction<Expression> phvWidth, ParamRows params) {
        Declaration.Function apply = null;
        for (Declaration d : decl.initializer()) {
            if (d instanceof Declaration.Function f && f.name().equals("apply")) {
                apply = f;
            } else {
                throw new Refusal(d.position(), Types.named(decl.type()) + " " + decl.name() + ": only an apply method is supported by the lowering");
            }
        }
        if (apply == null || apply.parameters().isEmpty() || apply.parameters().size() > 2) {
            throw new Refusal(decl.position(), Types.named(decl.type()) + " " + decl.name() + " needs apply(inout value[, out rv])");
        }
        RegisterActionLowering l = new RegisterActionLowering(types, array, name, Types.named(decl.type()), apply, pair, phvWidth);
        l.params = params;
        l.block(apply.body().statements(), ALL, new HashSet<>());
        if (l.output != null) {
            l.b.output(new Predicate(l.outputWhen), l.output);
        }
        return new Lowered(l.b.build(), List.copyOf(l.inputs));
    }

    /**
     * The statements of one block on the paths {@code when} (a truth table over c0, c1);
     * {@code updated} holds the words already updated on these paths.
     */
    private void block(List<Statement> statements, int when, Set<String> updated) {
        for (Statement st : statements) {
            if (st instanceof Statement.Block blk) {
                block(blk.statements(), when, updated);
            } else if (st instanceof Statement.If i) {
                int c = condition(i.condition());
                Set<String> thenUpdated = new HashSet<>(updated);
                block(List.of(i.then()), when & c, thenUpdated);
                Set<String> elseUpdated = new HashSet<>(updated);
                if (i.otherwise() != null) {
                    block(List.of(i.otherwise()), when & ~c & ALL, elseUpdated);
                }
                // a word updated on some of the paths: a later update on the rest would be a second one on those
                updated.addAll(thenUpdated);
                updated.addAll(elseUpdated);
            } else if (st instanceof Statement.Assignment a) {
                assignment(a, when, updated);
            } else {
                throw new Refusal(st.position(), "a stateful ALU body is if/else and assignments to the register value and the return value");
            }
        }
    }

    private void assignment(Statement.Assignment a, int when, Set<String> updated) {
        String word = word(a.target());
        if (word != null) {
            if (!updated.add(word)) {
                throw new Refusal(a.position(), kind + " " + actionName + ": " + path(a.target())
                        + " is updated twice on one path; a stateful ALU updates each word once");
            }
            if (when != 0) {
                update(word, a.value(), new Predicate(when));
            }
            return;
        }
        if (a.target() instanceof Expression.Name n && n.name().equals(rvName) && isPredicateCall(a.value())) {
            predicateOutput((Expression.Call) a.value(), a, when);
            return;
        }
        if (a.target() instanceof Expression.Name n && n.name().equals(rvName)) {
            String from = word(a.value());
            if (from == null) {
                throw new Refusal(a.position(), kind + " " + actionName + ": rv is one word of the register cell"
                        + " (the old or the new value)");
            }
            boolean lo = from.equals("lo");
            // after the word's update on this path: the new word (equal to the old one on paths that do not update it)
            RegisterAction.OutputSource source = updated.contains(from)
                    ? (lo ? RegisterAction.OutputSource.NEW_LO : RegisterAction.OutputSource.NEW_HI)
                    : (lo ? RegisterAction.OutputSource.OLD_LO : RegisterAction.OutputSource.OLD_HI);
            if (output != null && output != source) {
                throw new Refusal(a.position(), kind + " " + actionName + ": rv is set from "
                        + output + " and " + source + "; a stateful ALU has one output word");
            }
            output = source;
            outputWhen |= when;
            return;
        }
        throw new Refusal(a.position(), "a stateful ALU writes only the register value and the return value");
    }

    /** {@code this.predicate(...)}: TNA's RegisterAction method that returns the ALU's predicate. */
    private static boolean isPredicateCall(Expression e) {
        return e instanceof Expression.Call c && c.callee() instanceof Expression.Member m && m.target() instanceof Expression.This
                && m.member().equals("predicate");
    }

    /**
     * {@code rv = this.predicate([cmplo[, cmphi]])}: the output is the predicate of the ALU's two
     * comparisons, c0 and c1 here (TNA's RegisterAction.predicate, "the 4-bit predicate value",
     * compiled by bf-p4c mau/stateful_alu.cpp, CreateSaluInstruction). rmtemu's stateful ALU gives
     * it as the index c0 + 2·c1 of the true combination (model/register/RegisterAction), Tofino as
     * a one-hot vector; a program that sets rv only on the paths it tests and compares rv with 0
     * reads the same on both.
     */
    private void predicateOutput(Expression.Call call, Statement.Assignment a, int when) {
        List<Argument> args = call.arguments();
        if (args.size() > Predicate.CONDITIONS) {
            throw new Refusal(call.position(), "RegisterAction " + actionName + ": predicate takes at most "
                    + Predicate.CONDITIONS + " comparisons (cmplo, cmphi)");
        }
        for (int k = 0; k < args.size(); k++) {
            if (condition(args.get(k).value()) != CONDITION_TABLES[k]) {
                throw new Refusal(args.get(k).position(), "RegisterAction " + actionName + ": predicate's "
                        + (k == 0 ? "cmplo" : "cmphi") + " must be the ALU's condition c" + k + ", the " + (k == 0 ? "first" : "second")
                        + " comparison the body tests");
            }
        }
        if (output != null && output != RegisterAction.OutputSource.PREDICATE) {
            throw new Refusal(a.position(), "RegisterAction " + actionName + ": rv is set from " + output
                    + " and the predicate; a stateful ALU has one output word");
        }
        output = RegisterAction.OutputSource.PREDICATE;
        outputWhen |= when;
    }

    /** "lo" or "hi" when {@code e} names a word of the cell ({@code value}, {@code value.lo}, {@code value.hi}), else null. */
    private String word(Expression e) {
        if (loName == null && e instanceof Expression.Name n && n.name().equals(valueName)) {
            return "lo";
        }
        if (loName != null && e instanceof Expression.Member m && m.target() instanceof Expression.Name n
                && n.name().equals(valueName)) {
            if (m.member().equals(loName)) {
                return "lo";
            }
            if (m.member().equals(hiName)) {
                return "hi";
            }
        }
        return null;
    }

    /** The truth table of a condition: c0 for the first comparison the body tests, c1 for the second. */
    private int condition(Expression c) {
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
                String text = path(bin.left()) + " " + bin.operator() + " " + path(bin.right());
                int k = conditions.indexOf(text);
                if (k < 0) {
                    if (conditions.size() == Predicate.CONDITIONS) {
                        throw new Refusal(c.position(), kind + " " + actionName + ": a stateful ALU evaluates at most "
                                + Predicate.CONDITIONS + " conditions");
                    }
                    b.condition(operand(bin.left()), op, operand(bin.right()));
                    conditions.add(text);
                    k = conditions.size() - 1;
                }
                return CONDITION_TABLES[k];
            }
        }
        throw new Refusal(c.position(), "a stateful ALU condition is one comparison of the register value, a constant or a PHV field");
    }

    private void update(String word, Expression v, Predicate when) {
        AluOp op = AluOp.SET;
        Operand a;
        Operand c = Operand.constant(0);
        if (v instanceof Expression.Binary bin && !types.isConstant(v)) {
            op = switch (bin.operator()) {
                case "+" -> AluOp.ADD;
                case "-" -> AluOp.SUB;
                case "&" -> AluOp.AND;
                case "|" -> AluOp.OR;
                case "^" -> AluOp.XOR;
                default -> throw new Refusal(bin.position(), "operator " + bin.operator()
                        + " is not an operation of the stateful ALU the lowering supports");
            };
            a = operand(bin.left());
            c = operand(bin.right());
        } else {
            a = operand(v);
        }
        if (word.equals("lo")) {
            b.updateLo(when, op, a, c);
        } else {
            b.updateHi(when, op, a, c);
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
        if (e instanceof Expression.IntegerLiteral l) {
            return l.value().toString();
        }
        return "?";
    }

    private Operand operand(Expression e) {
        String word = word(e);
        if (word != null) {
            return word.equals("lo") ? Operand.REG_LO : Operand.REG_HI;
        }
        if (types.isConstant(e)) {
            return Operand.constant(types.constant(e));
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("read")
                && m.target() instanceof Expression.Name n && call.arguments().isEmpty()) {
            int row = params.row(n.name(), call.position());
            if (row >= 0) {
                return Operand.param(row);
            }
        }
        // a PHV field cast to the cell's word width, no narrower than the field: the ALU's input as it is
        if (e instanceof Expression.Cast c && types.width(c.type()) == wordBits && phvWidth.applyAsInt(c.operand()) > 0
                && phvWidth.applyAsInt(c.operand()) <= wordBits) {
            return operand(c.operand());
        }
        if (phvWidth.applyAsInt(e) > 0) {
            for (int k = 0; k < inputs.size(); k++) {
                if (path(inputs.get(k)).equals(path(e))) {
                    return k == 0 ? Operand.IN_LO : Operand.IN_HI;
                }
            }
            if (inputs.size() == 2) {
                throw new Refusal(e.position(), "a stateful ALU reads at most two PHV fields (its lo and hi inputs); "
                        + path(inputs.get(0)) + " and " + path(inputs.get(1)) + " are read already");
            }
            inputs.add(e);
            return inputs.size() == 1 ? Operand.IN_LO : Operand.IN_HI;
        }
        throw new Refusal(e.position(), "a stateful ALU operand is the register value, a constant, a RegisterParam or a PHV field");
    }
}

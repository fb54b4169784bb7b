package dev.rmtemu.model.p4.names;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Identifier;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.ParserState;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.names.Scope.Kind;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.text.ClosestName;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Name resolution over the AST, as the P4 specification scopes names: each name is declared
 * before it is used (parser states excepted), once per scope, and used as what it is (a type
 * where a type is written, an action in a table's actions, a match kind after a key, a state
 * after transition). Each error names the closest declared name when one is near.
 * Members ({@code a.b}) are not resolved here: that needs the types of expressions.
 */
public final class NameResolver {
    private final Diagnostics diagnostics;
    private final Map<String, SourcePosition> errorMembers = new LinkedHashMap<>();

    private NameResolver(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    public static void check(Program program, Diagnostics diagnostics) {
        new NameResolver(diagnostics).program(program);
    }

    private void program(Program program) {
        for (Declaration d : program.declarations()) {
            if (d instanceof Declaration.ErrorMembers e) {
                for (Identifier i : e.members()) {
                    SourcePosition first = errorMembers.putIfAbsent(i.name(), i.position());
                    if (first != null) {
                        duplicate(i.name(), i.position(), first);
                    }
                }
            }
        }
        Scope global = new Scope(null);
        for (Declaration d : program.declarations()) {
            declaration(d, global, true);
        }
    }

    // ------------------------------------------------------------------ declarations

    private void declaration(Declaration d, Scope scope, boolean topLevel) {
        if (d instanceof Declaration.Constant c) {
            type(c.type(), scope);
            expression(c.value(), scope);
            declare(scope, c.name(), Kind.VALUE, c.position());
        } else if (d instanceof Declaration.Variable v) {
            type(v.type(), scope);
            expression(v.initializer(), scope);
            declare(scope, v.name(), Kind.VALUE, v.position());
        } else if (d instanceof Declaration.Instantiation i) {
            type(i.type(), scope);
            arguments(i.arguments(), scope);
            Scope inner = new Scope(scope);
            for (Declaration member : i.initializer()) {
                declaration(member, inner, false);
            }
            declare(scope, i.name(), Kind.VALUE, i.position());
        } else if (d instanceof Declaration.Action a) {
            Scope inner = new Scope(scope);
            parameters(a.parameters(), inner);
            block(a.body(), inner);
            declare(scope, a.name(), Kind.ACTION, a.position());
        } else if (d instanceof Declaration.Function f) {
            Scope inner = new Scope(scope);
            typeParameters(f.typeParameters(), inner);
            type(f.returnType(), inner);
            parameters(f.parameters(), inner);
            block(f.body(), inner);
            declareOverload(scope, f.name(), Kind.FUNCTION, f.position());
        } else if (d instanceof Declaration.ExternFunction f) {
            method(f.prototype(), scope);
            declareOverload(scope, f.name(), Kind.FUNCTION, f.position());
        } else if (d instanceof Declaration.Extern e) {
            declare(scope, e.name(), Kind.TYPE, e.position());
            Scope inner = new Scope(scope);
            typeParameters(e.typeParameters(), inner);
            for (Declaration.Method m : e.methods()) {
                method(m, inner);
            }
        } else if (d instanceof Declaration.StructLike s) {
            Scope inner = new Scope(scope);
            typeParameters(s.typeParameters(), inner);
            Map<String, SourcePosition> seen = new LinkedHashMap<>();
            for (Declaration.Field f : s.fields()) {
                type(f.type(), inner);
                once(seen, f.name(), f.position(), "field");
            }
            declare(scope, s.name(), Kind.TYPE, s.position());
        } else if (d instanceof Declaration.Enum e) {
            if (e.underlying() != null) {
                type(e.underlying(), scope);
            }
            Map<String, SourcePosition> seen = new LinkedHashMap<>();
            for (Declaration.EnumMember m : e.members()) {
                expression(m.value(), scope);
                once(seen, m.name(), m.position(), "enum member");
            }
            declare(scope, e.name(), Kind.TYPE, e.position());
        } else if (d instanceof Declaration.MatchKinds m) {
            for (Identifier i : m.members()) {
                declare(scope, i.name(), Kind.MATCH_KIND, i.position());
            }
        } else if (d instanceof Declaration.Typedef t) {
            if (t.type() != null) {
                type(t.type(), scope);
            } else if (t.declared() != null) {
                declaration(t.declared(), new Scope(scope), false);
            }
            declare(scope, t.name(), Kind.TYPE, t.position());
        } else if (d instanceof Declaration.BlockType b) {
            declare(scope, b.name(), Kind.TYPE, b.position());
            Scope inner = new Scope(scope);
            typeParameters(b.typeParameters(), inner);
            parameters(b.parameters(), inner);
        } else if (d instanceof Declaration.Parser p) {
            parser(p, scope);
        } else if (d instanceof Declaration.Control c) {
            control(c, scope);
        } else if (d instanceof Declaration.ValueSet v) {
            type(v.type(), scope);
            expression(v.size(), scope);
            declare(scope, v.name(), Kind.VALUE, v.position());
        } else if (d instanceof Declaration.Table t) {
            table(t, scope);
            declare(scope, t.name(), Kind.TABLE, t.position());
        }
    }

    private void method(Declaration.Method m, Scope scope) {
        Scope inner = new Scope(scope);
        typeParameters(m.typeParameters(), inner);
        type(m.returnType(), inner);
        parameters(m.parameters(), inner);
    }

    private void parser(Declaration.Parser p, Scope scope) {
        declare(scope, p.name(), Kind.TYPE, p.position());
        Scope inner = new Scope(scope);
        typeParameters(p.type().typeParameters(), inner);
        parameters(p.constructorParameters(), inner);
        parameters(p.type().parameters(), inner);
        for (Declaration local : p.locals()) {
            declaration(local, inner, false);
        }
        Map<String, SourcePosition> states = new LinkedHashMap<>();
        for (ParserState s : p.states()) {
            once(states, s.name(), s.position(), "state");
        }
        List<String> targets = new ArrayList<>(states.keySet());
        targets.add("accept");
        targets.add("reject");
        for (ParserState s : p.states()) {
            Scope body = new Scope(inner);
            for (Statement st : s.statements()) {
                statement(st, body);
            }
            ParserState.Transition t = s.transition();
            if (t == null) {
                continue;
            }
            if (t.target() != null) {
                state(t.target(), t.position(), targets, p.name());
            } else if (t.select() != null) {
                for (Expression k : t.select().keys()) {
                    expression(k, body);
                }
                for (ParserState.SelectCase c : t.select().cases()) {
                    expression(c.keyset(), body);
                    state(c.state(), c.position(), targets, p.name());
                }
            }
        }
    }

    private void state(String name, SourcePosition at, List<String> states, String parser) {
        if (!states.contains(name)) {
            diagnostics.error(at, "no state '" + name + "' in parser " + parser + suggestion(name, states));
        }
    }

    private void control(Declaration.Control c, Scope scope) {
        declare(scope, c.name(), Kind.TYPE, c.position());
        Scope inner = new Scope(scope);
        typeParameters(c.type().typeParameters(), inner);
        parameters(c.constructorParameters(), inner);
        parameters(c.type().parameters(), inner);
        for (Declaration local : c.locals()) {
            declaration(local, inner, false);
        }
        block(c.apply(), inner);
    }

    private void table(Declaration.Table t, Scope scope) {
        Map<String, SourcePosition> seen = new LinkedHashMap<>();
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Key k) {
                once(seen, "key", p.position(), "table property");
                for (TableProperty.KeyElement e : k.elements()) {
                    expression(e.expression(), scope);
                    use(e.matchKind(), e.position(), scope, Kind.MATCH_KIND, "match kind");
                }
            } else if (p instanceof TableProperty.Actions a) {
                once(seen, "actions", p.position(), "table property");
                for (TableProperty.ActionRef r : a.actions()) {
                    actionRef(r, scope);
                }
            } else if (p instanceof TableProperty.Entries e) {
                once(seen, "entries", p.position(), "table property");
                for (TableProperty.Entry entry : e.entries()) {
                    expression(entry.priority(), scope);
                    expression(entry.keyset(), scope);
                    actionRef(entry.action(), scope);
                }
            } else if (p instanceof TableProperty.Property q) {
                once(seen, q.name(), p.position(), "table property");
                expression(q.value(), scope);
            }
        }
    }

    private void actionRef(TableProperty.ActionRef r, Scope scope) {
        String name = r.name().startsWith(".") ? r.name().substring(1) : r.name();
        use(name, r.position(), scope, Kind.ACTION, "action");
        if (r.arguments() != null) {
            arguments(r.arguments(), scope);
        }
    }

    // ------------------------------------------------------------------ parameters and types

    private void parameters(List<Parameter> ps, Scope scope) {
        for (Parameter p : ps) {
            type(p.type(), scope);
            expression(p.defaultValue(), scope);
            declare(scope, p.name(), Kind.VALUE, p.position());
        }
    }

    private void typeParameters(List<Identifier> ids, Scope scope) {
        for (Identifier i : ids) {
            declare(scope, i.name(), Kind.TYPE, i.position());
        }
    }

    private void type(TypeRef t, Scope scope) {
        if (t instanceof TypeRef.Named n) {
            use(n.name(), n.position(), scope, Kind.TYPE, "type");
            for (TypeRef a : n.arguments()) {
                type(a, scope);
            }
        } else if (t instanceof TypeRef.Stack s) {
            type(s.element(), scope);
            expression(s.size(), scope);
        } else if (t instanceof TypeRef.Tuple tu) {
            for (TypeRef e : tu.elements()) {
                type(e, scope);
            }
        } else if (t instanceof TypeRef.Base b) {
            expression(b.width(), scope);
        }
    }

    // ------------------------------------------------------------------ statements and expressions

    private void block(Statement.Block b, Scope scope) {
        if (b == null) {
            return;
        }
        Scope inner = new Scope(scope);
        for (Statement s : b.statements()) {
            statement(s, inner);
        }
    }

    private void statement(Statement s, Scope scope) {
        if (s instanceof Statement.Assignment a) {
            expression(a.target(), scope);
            expression(a.value(), scope);
        } else if (s instanceof Statement.CallStatement c) {
            expression(c.call(), scope);
        } else if (s instanceof Statement.If i) {
            expression(i.condition(), scope);
            branch(i.then(), scope);
            branch(i.otherwise(), scope);
        } else if (s instanceof Statement.Block b) {
            block(b, scope);
        } else if (s instanceof Statement.Return r) {
            expression(r.value(), scope);
        } else if (s instanceof Statement.Switch sw) {
            expression(sw.selector(), scope);
            for (Statement.SwitchCase c : sw.cases()) {
                expression(c.label(), scope);
                block(c.body(), scope);
            }
        } else if (s instanceof Statement.Local l) {
            declaration(l.declaration(), scope, false);
        }
    }

    /** An if's branch is its own scope even when it is not a block. */
    private void branch(Statement s, Scope scope) {
        if (s != null) {
            statement(s, new Scope(scope));
        }
    }

    private void arguments(List<Argument> args, Scope scope) {
        for (Argument a : args) {
            expression(a.value(), scope);
        }
    }

    private void expression(Expression e, Scope scope) {
        if (e == null) {
            return;
        }
        if (e instanceof Expression.Name n) {
            if (!n.name().isEmpty()) {
                use(n.name(), n.position(), scope, null, "name");
            }
        } else if (e instanceof Expression.ErrorMember m) {
            if (!errorMembers.containsKey(m.member())) {
                diagnostics.error(m.position(), "no error 'error." + m.member() + "' is declared"
                        + suggestion(m.member(), new ArrayList<>(errorMembers.keySet())));
            }
        } else if (e instanceof Expression.Member m) {
            expression(m.target(), scope);
        } else if (e instanceof Expression.Index i) {
            expression(i.target(), scope);
            expression(i.index(), scope);
        } else if (e instanceof Expression.Slice s) {
            expression(s.target(), scope);
            expression(s.high(), scope);
            expression(s.low(), scope);
        } else if (e instanceof Expression.Call c) {
            expression(c.callee(), scope);
            for (TypeRef t : c.typeArguments()) {
                type(t, scope);
            }
            arguments(c.arguments(), scope);
        } else if (e instanceof Expression.Unary u) {
            expression(u.operand(), scope);
        } else if (e instanceof Expression.Binary b) {
            expression(b.left(), scope);
            expression(b.right(), scope);
        } else if (e instanceof Expression.Cast c) {
            type(c.type(), scope);
            expression(c.operand(), scope);
        } else if (e instanceof Expression.Conditional c) {
            expression(c.condition(), scope);
            expression(c.ifTrue(), scope);
            expression(c.ifFalse(), scope);
        } else if (e instanceof Expression.ListExpression l) {
            l.elements().forEach(x -> expression(x, scope));
        } else if (e instanceof Expression.Tuple t) {
            t.elements().forEach(x -> expression(x, scope));
        } else if (e instanceof Expression.StructExpression s) {
            arguments(s.fields(), scope);
        } else if (e instanceof Expression.Mask m) {
            expression(m.value(), scope);
            expression(m.mask(), scope);
        } else if (e instanceof Expression.Range r) {
            expression(r.low(), scope);
            expression(r.high(), scope);
        }
    }

    // ------------------------------------------------------------------ declare, use, report

    private void declare(Scope scope, String name, Kind kind, SourcePosition at) {
        if (name.isEmpty()) {
            return;
        }
        Scope.Entry old = scope.declare(name, kind, at);
        if (old != null) {
            duplicate(name, at, old.position());
        }
    }

    /** Functions and extern functions may be overloaded (by their parameters). */
    private void declareOverload(Scope scope, String name, Kind kind, SourcePosition at) {
        Scope.Entry old = scope.declare(name, kind, at);
        if (old != null && old.kind() != Kind.FUNCTION) {
            duplicate(name, at, old.position());
        }
    }

    private void once(Map<String, SourcePosition> seen, String name, SourcePosition at, String what) {
        SourcePosition first = seen.putIfAbsent(name, at);
        if (first != null) {
            diagnostics.error(at, "duplicate " + what + " '" + name + "' (first at " + first + ")");
        }
    }

    private void duplicate(String name, SourcePosition at, SourcePosition first) {
        diagnostics.error(at, "duplicate declaration of '" + name + "' (first declared at " + first + ")");
    }

    /** Checks that {@code name} is declared, and is a {@code kind} when kind is not null. */
    private void use(String name, SourcePosition at, Scope scope, Kind kind, String what) {
        String bare = name.startsWith(".") ? name.substring(1) : name;
        Scope.Entry e = scope.lookup(bare);
        if (e == null) {
            List<String> candidates = kind == null ? scope.visible() : scope.visible(kind);
            diagnostics.error(at, "undeclared " + what + " '" + bare + "'" + suggestion(bare, candidates));
        } else if (kind != null && e.kind() != kind) {
            diagnostics.error(at, "'" + bare + "' is not " + article(what) + " (it is declared at " + e.position() + ")"
                    + suggestion(bare, scope.visible(kind)));
        }
    }

    private static String article(String what) {
        return ("aeiou".indexOf(what.charAt(0)) >= 0 ? "an " : "a ") + what;
    }

    /** Names this short are suggested only when they differ in case alone. */
    static final int SHORT_NAME = 2;

    /**
     * " (did you mean 'x'?)" when a known name is near: within two edits, or a third of the
     * given name's length for long names, ignoring case (a short name only when case is all
     * that differs).
     */
    static String suggestion(String given, List<String> known) {
        int limit = given.length() <= SHORT_NAME ? 0 : Math.max(2, given.length() / 3);
        return ClosestName.of(given, known)
                .filter(k -> ClosestName.distance(k.toLowerCase(Locale.ROOT), given.toLowerCase(Locale.ROOT)) <= limit)
                .map(k -> " (did you mean '" + k + "'?)")
                .orElse("");
    }
}

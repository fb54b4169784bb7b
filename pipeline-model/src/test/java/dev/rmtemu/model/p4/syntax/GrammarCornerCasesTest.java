package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.preprocess.Preprocessor;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostics;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The grammar's hard places, checked on the AST they give. */
class GrammarCornerCasesTest {
    /** Syntax only: these programs use names they do not declare. */
    private static Program parse(String text) {
        PreprocessedSource source = Preprocessor.text("t.p4", text, null, PreprocessorOptions.defaults());
        Diagnostics d = source.diagnostics();
        Program p = P4Syntax.ast(source, d);
        assertEquals(List.of(), d.list());
        return p;
    }

    private static Expression constant(String type, String expression) {
        Program p = parse("const " + type + " c = " + expression + ";");
        return ((Declaration.Constant) p.declarations().get(0)).value();
    }

    /** A compact rendering of an expression: every binary operation parenthesised. */
    private static String show(Expression e) {
        if (e instanceof Expression.Binary b) {
            return "(" + show(b.left()) + " " + b.operator() + " " + show(b.right()) + ")";
        } else if (e instanceof Expression.Unary u) {
            return u.operator() + show(u.operand());
        } else if (e instanceof Expression.Name n) {
            return n.name();
        } else if (e instanceof Expression.IntegerLiteral i) {
            return i.text();
        } else if (e instanceof Expression.Cast c) {
            return "cast(" + show(c.operand()) + ")";
        } else if (e instanceof Expression.Conditional c) {
            return "(" + show(c.condition()) + " ? " + show(c.ifTrue()) + " : " + show(c.ifFalse()) + ")";
        } else if (e instanceof Expression.Member m) {
            return show(m.target()) + "." + m.member();
        }
        return e.getClass().getSimpleName();
    }

    @Test
    void danglingElseBelongsToTheNearestIf() {
        Program p = parse("control C() { apply { if (a) if (b) x = 1; else x = 2; } }");
        Statement.If outer = (Statement.If) ((Declaration.Control) p.declarations().get(0)).apply().statements().get(0);
        assertNull(outer.otherwise());
        Statement.If inner = (Statement.If) outer.then();
        assertInstanceOf(Statement.Assignment.class, inner.otherwise());
    }

    @Test
    void precedenceFollowsTheSpecification() {
        assertEquals("(a + (b * c))", show(constant("int", "a + b * c")));
        // P4 binds & ^ | tighter than comparisons, unlike C
        assertEquals("((a & b) == c)", show(constant("bool", "a & b == c")));
        assertEquals("((a | (b ^ (c & d))) < e)", show(constant("bool", "a | b ^ c & d < e")));
        assertEquals("(a << (2 + 1))", show(constant("int", "a << 2 + 1")));
        assertEquals("((a || (b && c)) ? d : (e ? f : g))", show(constant("int", "a || b && c ? d : e ? f : g")));
        assertEquals("((a ++ b) |+| c)", show(constant("bit<8>", "a ++ b |+| c")));
        assertEquals("(-a - ~b)", show(constant("int", "-a - ~b")));
    }

    @Test
    void lessThanAgainstTypeArguments() {
        Program p = parse("extern E<T> { E(); T get<D>(in D d); }\n"
                + "control C() { E<bit<8>>() e; apply { x = e.get<bit<16>>(3); y = a < b; z = a < b && c > (d); } }");
        List<Statement> body = ((Declaration.Control) p.declarations().get(1)).apply().statements();
        Expression.Call call = (Expression.Call) ((Statement.Assignment) body.get(0)).value();
        assertEquals(List.of(new TypeRef.Base(call.typeArguments().get(0).position(), "bit",
                ((TypeRef.Base) call.typeArguments().get(0)).width())), call.typeArguments());
        assertEquals("(a < b)", show(((Statement.Assignment) body.get(1)).value()));
        assertEquals("((a < b) && (c > d))", show(((Statement.Assignment) body.get(2)).value()));
    }

    @Test
    void nestedGenericsCloseWithTwoAngleBracketsAndShiftStillWorks() {
        Program p = parse("extern R<T, I> { R(bit<32> n); }\ncontrol C() { R<bit<32>, bit<16>>(8) r; apply { x = y >> 2; } }");
        Declaration.Instantiation r = (Declaration.Instantiation) ((Declaration.Control) p.declarations().get(1)).locals().get(0);
        TypeRef.Named type = (TypeRef.Named) r.type();
        assertEquals("R", type.name());
        assertEquals(2, type.arguments().size());
        Statement.Assignment shift = (Statement.Assignment) ((Declaration.Control) p.declarations().get(1)).apply().statements().get(0);
        assertEquals("(y >> 2)", show(shift.value()));
    }

    /** f<T>(x) with a declared type T is a call, though (f < T) > (x) would parse too (TNA's port_metadata_unpack<T>(pkt)). */
    @Test
    void aFunctionCallWithANamedTypeArgumentIsACall() {
        Program p = parse("struct T { bit<8> a; }\nextern U f<U>(in bit<8> x);\ncontrol C() { apply { y = f<T>(x); z = a < b; } }");
        List<Statement> body = ((Declaration.Control) p.declarations().get(2)).apply().statements();
        Expression.Call call = (Expression.Call) ((Statement.Assignment) body.get(0)).value();
        assertEquals("f", ((Expression.Name) call.callee()).name());
        assertEquals("T", ((TypeRef.Named) call.typeArguments().get(0)).name());
        assertEquals("(a < b)", show(((Statement.Assignment) body.get(1)).value()));
    }

    /** A cast binds below member access: (T) a.b casts a.b. */
    @Test
    void aCastAppliesToTheWholeMemberAccess() {
        Program p = parse("typedef bit<8> T;\ncontrol C() { apply { y = (T) a.b; } }");
        Expression cast = ((Statement.Assignment) ((Declaration.Control) p.declarations().get(1)).apply().statements().get(0)).value();
        assertEquals(Expression.Member.class, ((Expression.Cast) cast).operand().getClass());
    }

    @Test
    void castAgainstParenthesisedExpressionByDeclaredTypes() {
        Program p = parse("typedef bit<8> T;\nconst T a = (T) -1;\nconst bit<8> b = (a) - 1;\nconst bit<8> c = (bit<8>) a;");
        assertEquals("cast(-1)", show(((Declaration.Constant) p.declarations().get(1)).value()));
        assertEquals("(a - 1)", show(((Declaration.Constant) p.declarations().get(2)).value()));
        assertEquals("cast(a)", show(((Declaration.Constant) p.declarations().get(3)).value()));
    }

    @Test
    void annotationBodiesAreAnyBalancedTokens() {
        Program p = parse("@my_anno(1 + [x] \"s\" {} (nested (deep)) ;) @pa_container_size(\"ingress\", \"m.x\", 8)\n"
                + "@pragma stage 3 a b\n@structured[k = 1, j = \"v\"] @flag\nheader h_t { bit<8> a; }");
        List<Annotation> as = ((Declaration.StructLike) p.declarations().get(0)).annotations();
        assertEquals(List.of("my_anno", "pa_container_size", "stage", "structured", "flag"), as.stream().map(Annotation::name).toList());
        assertEquals(List.of("1", "+", "[", "x", "]", "\"s\"", "{", "}", "(", "nested", "(", "deep", ")", ")", ";"), as.get(0).body());
        assertEquals(List.of("3", "a", "b"), as.get(2).body());
        assertEquals(List.of(), as.get(4).body());
    }

    @Test
    void integerLiteralsAtAnyPrecisionWithWidthsAndBases() {
        record Lit(String text, String value, Integer width, boolean signed) {
        }
        for (Lit l : List.of(new Lit("8w5", "5", 8, false), new Lit("4s3", "3", 4, true), new Lit("0x_FF", "255", null, false),
                new Lit("1_000", "1000", null, false), new Lit("0b1010", "10", null, false), new Lit("0o17", "15", null, false),
                new Lit("0d99", "99", null, false), new Lit("32w0xFFFF_FFFF", "4294967295", 32, false),
                new Lit("128w0xffffffffffffffffffffffffffffffff", "340282366920938463463374607431768211455", 128, false))) {
            Expression.IntegerLiteral i = (Expression.IntegerLiteral) constant("int", l.text());
            assertEquals(new BigInteger(l.value()), i.value(), l.text());
            assertEquals(l.width(), i.width(), l.text());
            assertEquals(l.signed(), i.signed(), l.text());
        }
    }

    @Test
    void everyNodeCarriesItsPosition() {
        Program p = parse("\n\n  header h_t {\n      bit<8> a;\n  }");
        Declaration.StructLike h = (Declaration.StructLike) p.declarations().get(0);
        assertEquals("t.p4:3:3", h.position().toString());
        assertEquals("t.p4:4:7", h.fields().get(0).position().toString());
        assertEquals("t.p4:4:7", h.fields().get(0).type().position().toString());
    }

    @Test
    void theRestOfTheLanguage() {
        // header unions, stacks, serializable enums, generic structs, value sets, tuples, struct
        // expressions, default arguments, abstract methods, directApplication, switch fall-through
        Program p = parse("header_union u_t { h1_t a; h2_t b; }\n"
                + "struct g_t<T> { T f; }\n"
                + "enum bit<2> E { A = 0, B = 1, }\n"
                + "type bit<9> Port_t;\n"
                + "typedef tuple<bit<8>, bool> pair_t;\n"
                + "extern X { X(); abstract void cb(inout bit<8> v); void m(in bit<8> a = 3); }\n"
                + "parser P(packet_in pk)(bit<8> size) { value_set<bit<8>>(4) vs; state start { transition accept; } }\n"
                + "control C()(bool flag) {\n"
                + "  apply {\n"
                + "    s_t s = { a = 1, b = {2, 3} };\n"
                + "    h_t[2] stack;\n"
                + "    stack[0].setValid();\n"
                + "    x = s.a[7:4];\n"
                + "    P.apply(pk);\n"
                + "    switch (t.apply().action_run) { a: b: { exit; } default: {} }\n"
                + "    return;\n"
                + "  }\n"
                + "}\n"
                + "action a(in bit<8> x, bit<8> y) { }\n"
                + "bit<8> f<T>(in T v) { return 1; }\n");
        assertEquals(List.of("u_t", "g_t", "E", "Port_t", "pair_t", "X", "P", "C", "a", "f"),
                p.declarations().stream().map(Declaration::name).toList());
    }
}

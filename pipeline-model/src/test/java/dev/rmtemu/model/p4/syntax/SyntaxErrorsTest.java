package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One test per class of syntax error, each with its exact FILE:LINE:COL message. */
class SyntaxErrorsTest {
    private static List<String> errors(String text) {
        return P4Front.text("bad.p4", text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
    }

    @Test
    void missingToken() {
        assertEquals(List.of("bad.p4:2:12: missing ';' before '}'"), errors("header h_t {\n  bit<8> a }\n"));
    }

    @Test
    void expectedAnExpression() {
        assertEquals(List.of("bad.p4:1:31: expected an expression, found ';'"), errors("control C() { apply { x = 1 + ; } }"));
    }

    @Test
    void unexpectedTokenNamesWhatWasExpected() {
        assertEquals(List.of("bad.p4:1:29: unexpected '2': expected ';'"), errors("control C() { apply { x = y 2; } }"));
    }

    @Test
    void noDeclarationStartsHere() {
        assertEquals(List.of("bad.p4:2:1: unexpected 'transition': expected a declaration or the end of the program"),
                errors("const bit<8> a = 1;\ntransition accept;"));
    }

    @Test
    void statementExpected() {
        assertEquals(List.of("bad.p4:1:23: unexpected 'else': expected a statement or '}'"),
                errors("control C() { apply { else; } }"));
    }

    @Test
    void unexpectedCharacter() {
        assertEquals(List.of("bad.p4:1:29: unexpected character '$'", "bad.p4:1:31: unexpected '2': expected ';'"),
                errors("control C() { apply { x = y $ 2; } }"));
    }

    @Test
    void unterminatedString() {
        assertEquals(List.of("bad.p4:1:18: unterminated string", "bad.p4:2:1: expected an expression, found 'const'"),
                errors("const string s = \"open;\nconst bit<8> y = 1;"));
    }

    @Test
    void malformedIntegerLiteral() {
        assertEquals(List.of("bad.p4:1:18: malformed integer literal '8w0b102': '2' is not a base-2 digit",
                        "bad.p4:2:18: a signed integer of width 1 is not allowed in '1s0'"),
                errors("const bit<8> x = 8w0b102;\nconst int<1> y = 1s0;"));
    }

    @Test
    void shiftWithASpaceIsNotAShift() {
        assertEquals(List.of("bad.p4:1:20: '> >' is not a shift: write '>>' without a space"), errors("const bit<8> x = 4 > > 1;"));
    }

    @Test
    void everyErrorIsReportedNotOnlyTheFirst() {
        assertEquals(List.of(
                        "bad.p4:1:23: missing ';' before '}'",
                        "bad.p4:3:31: expected an expression, found ')'",
                        "bad.p4:5:40: missing ';' before '}'"),
                errors("struct s_t { bit<8> a }\n"
                        + "control C(inout s_t s) {\n"
                        + "    action a() { s.a = (s.a + ); }\n"
                        + "    table t { key = { s.a : exact; } actions = { a; } }\n"
                        + "    apply { t.apply(); s.a = s.a |+| 1 }\n"
                        + "}\n"));
    }

    @Test
    void errorsThroughAMacroPointAtTheMacrosUse() {
        // the ')' the parser trips on is the macro's own, so the error is where BROKEN is used
        assertEquals(List.of("bad.p4:2:27: expected an expression, found ')'"),
                errors("#define BROKEN(x) (x + )\ncontrol C() { apply { y = BROKEN(1); } }"));
    }

    @Test
    void aBrokenStatementInsideAFunctionIsReportedAndTheProgramHasNoAst() {
        // the parser's recovery leaves holes in the tree (a fuzz-found crash built an AST from them)
        P4Front.Result r = P4Front.text("bad.p4", "const bit<8> ok = 1;\nvoid f() { = 1; x = 2 }\n", PreprocessorOptions.defaults());
        assertEquals(List.of("bad.p4:2:12: expected a statement or '}', found '='", "bad.p4:2:19: syntax error at '=': expected a declaration"),
                r.errors().stream().map(Diagnostic::line).toList());
        assertEquals(List.of(), r.program().declarations());
    }

    @Test
    void tooDeepNestingIsOneErrorNotACrash() {
        String deep = "const bit<8> x = " + "(".repeat(300) + "1" + ")".repeat(300) + ";";
        assertEquals(List.of("bad.p4:1:274: nested deeper than 256 parentheses, brackets and braces"), errors(deep));
    }
}

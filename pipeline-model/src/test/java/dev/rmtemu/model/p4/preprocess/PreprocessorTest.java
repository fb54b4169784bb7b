package dev.rmtemu.model.p4.preprocess;

import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The C preprocessor as P4 uses it: each directive, macro expansion, and the line mapping behind every message. */
class PreprocessorTest {
    @TempDir
    Path dir;

    private static PreprocessedSource run(String text) {
        return Preprocessor.text("t.p4", text, null, PreprocessorOptions.defaults());
    }

    /** The output's non-blank lines, runs of blanks as one space. */
    private static List<String> lines(PreprocessedSource s) {
        return s.text().lines().map(l -> l.strip().replaceAll("\\s+", " ")).filter(l -> !l.isEmpty()).toList();
    }

    private static List<String> errors(PreprocessedSource s) {
        return s.diagnostics().list().stream().map(Diagnostic::line).toList();
    }

    @Test
    void objectLikeAndFunctionLikeMacros() {
        PreprocessedSource s = run("#define W 16\n#define ADD(a, b) ((a) + (b))\nbit<W> x = ADD(W, 2);\n");
        assertEquals(List.of("bit<16> x = ((16) + (2));"), lines(s));
        assertEquals(List.of(), errors(s));
    }

    @Test
    void stringizeAndPasteAsCppDoes() {
        PreprocessedSource s = run("#define str(x) #x\n#define xstr(x) str(x)\n#define FOO 4\n#define CAT(a, b) a ## b\n"
                + "str(FOO) xstr(FOO) CAT(hdr_, FOO) CAT(8w, 5)\n");
        // # and ## take the argument as written; elsewhere it is expanded first
        assertEquals(List.of("\"FOO\" \"4\" hdr_FOO 8w5"), lines(s));
    }

    @Test
    void aMacroDoesNotExpandInsideItsOwnExpansion() {
        PreprocessedSource s = run("#define foo foo + 1\n#define a b\n#define b a\nfoo a\n");
        assertEquals(List.of("foo + 1 a"), lines(s));
    }

    @Test
    void argumentsMaySpanLinesAndVariadicMacrosTakeTheRest() {
        PreprocessedSource s = run("#define F(a, b) a - b\n#define V(x, ...) x(__VA_ARGS__)\nF(1,\n  2) V(f, 1, 2, 3) V(g)\n");
        assertEquals(List.of("1 - 2 f(1, 2, 3) g()"), lines(s));
    }

    @Test
    void undefForgetsAMacro() {
        PreprocessedSource s = run("#define X 1\n#undef X\nX\n");
        assertEquals(List.of("X"), lines(s));
    }

    @Test
    void conditionalsWithDefinedAndIntegerExpressions() {
        PreprocessedSource s = run("#define A 3\n"
                + "#if defined(A) && A * 2 == 6 && !defined B\nyes1\n#else\nno1\n#endif\n"
                + "#ifdef B\nno2\n#elif A > 2 && (0x10 >> 4) == 1\nyes2\n#else\nno3\n#endif\n"
                + "#ifndef B\n#if 0\nno4\n#if garbage here (\n#endif\n#else\nyes3\n#endif\n#endif\n"
                + "#if UNDEFINED_NAME\nno5\n#endif\n");
        assertEquals(List.of("yes1", "yes2", "yes3"), lines(s));
        assertEquals(List.of(), errors(s));
    }

    @Test
    void targetTofinoIsOneOnTofino1AndTwoOnATofino2Profile() {
        String text = "#if __TARGET_TOFINO__ == 2\nt2\n#else\nt1\n#endif\n";
        assertEquals(List.of("t1"), lines(run(text)));
        PreprocessedSource two = Preprocessor.text("t.p4", text, null,
                new PreprocessorOptions(List.of(), List.of(), PreprocessorOptions.tofinoGeneration("tofino2")));
        assertEquals(List.of("t2"), lines(two));
        assertEquals(PreprocessorOptions.TOFINO1, PreprocessorOptions.tofinoGeneration("tofino1"));
    }

    @Test
    void commandLineDefinitions() {
        PreprocessedSource s = Preprocessor.text("t.p4", "#ifdef USE_VLAN\nSIZE\n#endif\n", null,
                new PreprocessorOptions(List.of(), List.of("USE_VLAN", "SIZE=4096"), 1));
        assertEquals(List.of("4096"), lines(s));
    }

    @Test
    void errorDirectiveIsReportedAtItsLineAndTheFileGoesOn() {
        PreprocessedSource s = run("a\n  #error  table too big\nb\n");
        assertEquals(List.of("t.p4:2:3: #error table too big"), errors(s));
        assertEquals(List.of("a", "b"), lines(s));
    }

    @Test
    void pragmasPassThroughAsData() {
        PreprocessedSource s = run("#pragma pa_solitary ingress hdr.x\nx\n");
        assertEquals(1, s.pragmas().size());
        assertEquals("pa_solitary ingress hdr.x", s.pragmas().get(0).text());
        assertEquals("t.p4:1:1", s.pragmas().get(0).position().toString());
    }

    @Test
    void lineDirectiveRenumbersTheLinesAfterIt() {
        PreprocessedSource s = run("#line 100 \"orig.p4\"\nfoo bar\n");
        int at = s.text().indexOf("bar");
        assertEquals("orig.p4:100:5", s.positionAt(at).toString());
    }

    @Test
    void lineDirectiveWithoutAProperFileNameIsRefused() {
        PreprocessedSource s = run("#line 10 \";\n#line 20 \"\"\nx\n");
        assertEquals(List.of("t.p4:1:10: #line expects a line number and optionally a non-empty \"FILE\"",
                "t.p4:2:10: #line expects a line number and optionally a non-empty \"FILE\""), errors(s));
        assertEquals("t.p4:3:1", s.positionAt(s.text().indexOf('x')).toString());
    }

    @Test
    void positionsMapThroughIncludesToTheIncludedFile() throws IOException {
        Files.writeString(dir.resolve("inc.p4"), "// comment\n  included_token\n");
        Path main = dir.resolve("main.p4");
        Files.writeString(main, "first\n#include \"inc.p4\"\n   after\n");
        PreprocessedSource s = Preprocessor.file(main, PreprocessorOptions.defaults());
        assertEquals(dir.resolve("inc.p4") + ":2:3", s.positionAt(s.text().indexOf("included_token")).toString());
        assertEquals(main + ":3:4", s.positionAt(s.text().indexOf("after")).toString());
    }

    @Test
    void includeSearchesTheIncludersDirectoryThenMinusIThenTheLibrary() throws IOException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("mine.p4"), "from_lib\n");
        Path main = dir.resolve("main.p4");
        Files.writeString(main, "#include <mine.p4>\n#include <core.p4>\n");
        PreprocessedSource s = Preprocessor.file(main, new PreprocessorOptions(List.of(lib), List.of(), 1));
        assertEquals(List.of(), errors(s));
        assertTrue(s.text().contains("from_lib"));
        assertTrue(s.text().contains("extern packet_in"), "core.p4 is rmtemu's own library");
        PreprocessedSource missing = Preprocessor.file(main, PreprocessorOptions.defaults());
        assertEquals(List.of(main + ":1:1: cannot find include file <mine.p4> (searched: rmtemu's built-in library)"), errors(missing));
    }

    @Test
    void anIncludeNameThatIsNoPathIsNotFoundNotACrash() {
        PreprocessedSource s = Preprocessor.text("t.p4", "#include \"a\u0000b.p4\"\n", dir, PreprocessorOptions.defaults());
        assertEquals(List.of("t.p4:1:1: cannot find include file \"a\u0000b.p4\" (searched: " + dir + ", rmtemu's built-in library)"),
                errors(s));
    }

    @Test
    void aMacroUseMapsToWhereItIsUsedAndItsArgumentsToWhereTheyAreWritten() {
        PreprocessedSource s = run("#define WRAP(x) ( body x )\n  WRAP(arg)\n");
        assertEquals("t.p4:2:3", s.positionAt(s.text().indexOf("body")).toString());
        assertEquals("t.p4:2:8", s.positionAt(s.text().indexOf("arg")).toString());
    }

    @Test
    void includeCyclesWithoutGuardsAreRefusedAndGuardedOnesAreNot() throws IOException {
        Files.writeString(dir.resolve("a.p4"), "#include \"b.p4\"\n");
        Files.writeString(dir.resolve("b.p4"), "#include \"a.p4\"\n");
        PreprocessedSource s = Preprocessor.file(dir.resolve("a.p4"), PreprocessorOptions.defaults());
        assertEquals(List.of(dir.resolve("b.p4") + ":1:1: #include cycle: " + dir.resolve("a.p4") + " includes " + dir.resolve("b.p4")
                + " includes " + dir.resolve("a.p4") + " (no include guard stops it)"), errors(s));

        Files.writeString(dir.resolve("g1.p4"), "#ifndef G1\n#define G1\n#include \"g2.p4\"\none\n#endif\n");
        Files.writeString(dir.resolve("g2.p4"), "#ifndef G2\n#define G2\n#include \"g1.p4\"\ntwo\n#endif\n");
        PreprocessedSource guarded = Preprocessor.file(dir.resolve("g1.p4"), PreprocessorOptions.defaults());
        assertEquals(List.of(), errors(guarded));
        assertEquals(List.of("two", "one"), lines(guarded));
    }

    @Test
    void malformedDirectivesEachGiveTheirLine() {
        PreprocessedSource s = run("#if 1 +\n#endif\n#else\n#ifdef\n#endif\n#define F(a, a) a\n#define 3x\n#foo\n"
                + "#define G(a) a\nG(1, 2)\n#if 1 / 0\n#endif\n#if 1\n");
        assertEquals(List.of(
                "t.p4:1:1: #if expression ends early",
                "t.p4:3:1: #else without #if",
                "t.p4:4:1: #ifdef needs a macro name",
                "t.p4:6:14: duplicate macro parameter 'a'",
                "t.p4:7:9: macro name must be an identifier, not '3x'",
                "t.p4:8:2: unknown preprocessor directive '#foo'",
                "t.p4:10:1: macro 'G' takes 1 argument, given 2",
                "t.p4:11:1: division by zero in #if expression",
                "t.p4:13:1: unterminated #if (no #endif before the end of the file)"), errors(s));
    }

    @Test
    void commentsAndSplicedLinesKeepTheirPlaces() {
        PreprocessedSource s = run("/* two\n line comment */ x \\\n  y // tail\n#define LONG 1 + \\\n 2\nLONG\n");
        assertEquals(List.of("x y", "1 + 2"), lines(s));
        assertEquals("t.p4:2:18", s.positionAt(s.text().indexOf('x')).toString());
        assertEquals("t.p4:3:3", s.positionAt(s.text().indexOf('y')).toString());
    }

    @Test
    void runawayExpansionIsRefusedNotHung() {
        StringBuilder sb = new StringBuilder("#define A0 x x\n");
        for (int i = 1; i < 40; i++) {
            sb.append("#define A").append(i).append(" A").append(i - 1).append(" A").append(i - 1).append('\n');
        }
        sb.append("A39\n");
        PreprocessedSource s = run(sb.toString());
        assertEquals(List.of("t.p4:41:1: macro expansion exceeds 100000 tokens (a macro that grows without end?)"), errors(s));
    }
}

package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code rmtemu check FILE.p4}: every error of a malformed program and exit 2; a well-formed one goes on to the lowering. */
class CheckCommandTest {
    @TempDir
    Path dir;

    private static final String GOOD = "#include <core.p4>\n#include <tna.p4>\n"
            + "#include \"headers.p4\"\n"
            + "control C(inout h_t h, inout ingress_intrinsic_metadata_for_tm_t tm) {\n"
            + "    action fwd(PortId_t port) { tm.ucast_egress_port = port; }\n"
            + "    table t { key = { h.a : exact; } actions = { fwd; NoAction; } size = SIZE; }\n"
            + "    apply { t.apply(); }\n"
            + "}\n";

    private Path program(String text) throws IOException {
        Path inc = Files.createDirectories(dir.resolve("inc"));
        Files.writeString(inc.resolve("headers.p4"), "header h_t { bit<8> a; }\n");
        Path p = dir.resolve("prog.p4");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void aWellFormedProgramWithoutMainIsRefusedByTheLoweringWithExitTwo() throws IOException {
        Path p = program(GOOD);
        CliRunner r = CliRunner.run("check", "-I", dir.resolve("inc").toString(), "-D", "SIZE=1024", p.toString());
        assertEquals(p + ":1:1: the program declares no main (a TNA program ends with Switch(pipe) main;)\n"
                + "rmtemu: " + p + ": 1 error\n", r.err());
        assertEquals("", r.out());
        assertEquals(2, r.exit());
    }

    @Test
    void everyErrorIsPrintedAndTheExitIsTwo() throws IOException {
        // without -I the include is missing; without -D SIZE is undeclared; and a typo
        Path p = program(GOOD.replace("t.apply();", "forwrd.apply();").replace("table t {", "table forward {"));
        CliRunner r = CliRunner.run("check", p.toString());
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertEquals(p + ":3:1: cannot find include file \"headers.p4\" (searched: " + dir + ", rmtemu's built-in library)\n"
                + "rmtemu: " + p + ": 1 error\n", r.err());

        CliRunner r2 = CliRunner.run("check", "-I", dir.resolve("inc").toString(), p.toString());
        assertEquals(2, r2.exit());
        assertEquals(p + ":6:80: undeclared name 'SIZE'\n"
                + p + ":7:13: undeclared name 'forwrd' (did you mean 'forward'?)\n"
                + "rmtemu: " + p + ": 2 errors\n", r2.err());
    }

    @Test
    void syntaxErrorsAreAllReported() throws IOException {
        Path p = program("header h_t { bit<8> a }\ncontrol C() { apply { x = ; } }\n");
        CliRunner r = CliRunner.run("check", p.toString());
        assertEquals(2, r.exit());
        assertEquals(p + ":1:23: missing ';' before '}'\n"
                + p + ":2:27: expected an expression, found ';'\n"
                + "rmtemu: " + p + ": 2 errors\n", r.err());
    }

    @Test
    void aMissingFileIsOneLine() {
        CliRunner r = CliRunner.run("check", dir.resolve("none.p4").toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: P4 program not found: " + dir.resolve("none.p4") + "\n", r.err());
    }

    @Test
    void aBadDefineIsOneLine() throws IOException {
        Path p = program(GOOD);
        CliRunner r = CliRunner.run("check", "-D", "3X=1", p.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: -D 3X=1: '3X' is not a macro name (want NAME or NAME=VALUE)\n", r.err());
    }
}

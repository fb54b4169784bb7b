package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourcesCommandTest {
    @Test
    void fittingProgramPrintsTheTableAndExitsZero() {
        CliRunner r = CliRunner.run("resources", "--program", "counter", "--target", "tofino1");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Program counter on tofino1: fits"));
        assertTrue(r.out().contains("16/80 (20.0%)"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void programThatDoesNotFitExitsThreeNamingTheStage() {
        CliRunner r = CliRunner.run("resources", "--program", "counter", "--target", "tofino1", "--param", "cells=4194304");
        assertEquals(3, r.exit());
        assertTrue(r.out().contains("DOES NOT FIT"));
        assertEquals("rmtemu: counter: stage 0 ingress: SRAM blocks 1024 > 80 [stage-resources]\n", r.err());
    }

    @Test
    void jsonGoesToStdout() {
        CliRunner r = CliRunner.run("resources", "--program", "l2fwd", "--target", "rmt", "--json");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("{"));
        assertTrue(r.out().contains("\"mau_stages\""));
    }

    @Test
    void unknownNamesAreOneLineAndExitTwo() {
        CliRunner p = CliRunner.run("resources", "--program", "nosuch");
        assertEquals(2, p.exit());
        assertEquals("rmtemu: unknown program 'nosuch' (available: counter, l2fwd)\n", p.err());
        CliRunner t = CliRunner.run("resources", "--program", "counter", "--target", "tofino7");
        assertEquals(2, t.exit());
        assertTrue(t.err().startsWith("rmtemu: unknown target 'tofino7'"), t.err());
        CliRunner k = CliRunner.run("resources", "--program", "counter", "--param", "colors=3");
        assertEquals(2, k.exit());
        assertEquals("rmtemu: program counter has no parameter 'colors' (parameters: cells, hash, port, stage, width)\n", k.err());
        CliRunner v = CliRunner.run("resources", "--program", "counter", "--param", "cells=lots");
        assertEquals(2, v.exit());
        assertEquals("rmtemu: program counter: parameter cells=lots is not an integer\n", v.err());
        CliRunner o = CliRunner.run("resources", "--bogus");
        assertEquals(2, o.exit());
    }

    @Test
    void everyCommandHasHelp() {
        for (String cmd : new String[] {"resources", "programs"}) {
            CliRunner r = CliRunner.run(cmd, "--help");
            assertEquals(0, r.exit());
            assertTrue(r.out().startsWith("Usage: rmtemu " + cmd), r.out());
        }
    }
}

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
        // 65,536 cells: 16 data RAMs + 1 spare, each also a map RAM
        assertTrue(r.out().contains("17/80 (21.3%) | 17/48 (35.4%)"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void programThatDoesNotFitExitsThreeNamingTheStage() {
        // 200,000 cells: ceil(200000 / 4096) = 49 data RAMs + 1 spare = 50
        CliRunner r = CliRunner.run("resources", "--program", "counter", "--target", "tofino1", "--param", "cells=262144");
        assertEquals(3, r.exit());
        assertTrue(r.out().contains("DOES NOT FIT"));
        assertEquals("rmtemu: counter: stage 0 ingress: register flow_count needs 65 RAMs, more than the 36 one stateful ALU reaches"
                + " (6 rows x 6 right-side RAMs), and tofino1 cannot split a register across stages [stage-resources]\n"
                + "rmtemu: counter: stage 0 ingress: register flow_count needs 65 map RAMs, 48 left of 48 [stage-resources]\n"
                + "rmtemu: counter: stage 0 ingress: register flow_count needs 65 right-side RAMs, 48 left of 48 (6 columns x 8 rows) [stage-resources]\n", r.err());
        // what was asked for is shown, the register that does not fit marked
        assertTrue(r.out().contains("| !! |     0 | ingress | flow_count | register |            64+1 |"), r.out());
        CliRunner fits = CliRunner.run("resources", "--program", "counter", "--target", "tofino1", "--param", "cells=65536");
        assertTrue(fits.out().contains("|  |     0 | ingress | flow_count | register |"), fits.out());
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
        assertEquals("rmtemu: unknown program 'nosuch' (available: counter, l2fwd; or a FILE.java or JAR!CLASS of your own)\n", p.err());
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
    void programsSaysCountersCellsAreAPowerOfTwoWhereTheTargetHasNoDivider() {
        CliRunner list = CliRunner.run("programs");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains("cells=65536 [1..1073741824]  register cells (counters); a power of two on targets"
                + " without a divider (tofino1: the index is the hash masked)"), list.out());
        // what the listing says, the target enforces: 65537 is refused on tofino1 (exit 3), its power-of-two twin fits
        CliRunner odd = CliRunner.run("resources", "--program", "counter", "--target", "tofino1", "--param", "cells=65537");
        assertEquals(3, odd.exit());
        assertTrue(odd.err().contains("'%' by 65537, not a power of two; tofino1 can only shift or mask"), odd.err());
        assertEquals(0, CliRunner.run("resources", "--program", "counter", "--target", "tofino1", "--param", "cells=65536").exit());
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

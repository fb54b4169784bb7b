package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HashPipe on the target profiles: which keys and depths fit tofino1. */
class HashPipeResourcesTest {
    private static ResourceReport check(String target, Map<String, String> params) {
        return ResourceChecker.check(ProgramPlugins.registry().build("hashpipe", params), TargetProfiles.builtIn(target));
    }

    @Test
    void fingerprintDefaultFitsTofino1WithPairAtoms() {
        ResourceReport r = check("tofino1", Map.of());
        assertTrue(r.fits(), () -> String.join("\n", r.failures()));
        assertTrue(r.templates().contains(AtomTemplate.PAIR));
        assertFalse(r.templates().contains(AtomTemplate.FREEFORM));
    }

    @Test
    void everyDepthUpToSixCompilesForTofino1ForNarrowKeysAndSevenIsRefused() {
        for (int d = 1; d <= 6; d++) {
            for (String key : new String[] {"fingerprint", "srcip"}) {
                // 8,192 slots per stage: 8,192 pairs / 2,048 per RAM = 4 + 1 spare, twice per stage = 10 of 48 map RAMs
                Compilation c = compile(Map.of("stages", Integer.toString(d), "key", key, "counters", Integer.toString(8192 * d)));
                assertTrue(c.accepted(), () -> String.join("\n", c.lines()));
            }
        }
        // a key stage, then a select stage and a stateful-ALU stage per HashPipe stage: d = 7 needs 14 > 12
        Compilation seven = compile(Map.of("stages", "7", "counters", Integer.toString(8192 * 7)));
        assertEquals(java.util.List.of("hashpipe: ingress: program uses 14 stages > 12 [stage-resources]"), seven.lines());
        // the largest single-stage table: 45,056 pairs / 2,048 per RAM = 22 + 1 spare, twice in stage 1 = 46 of 48 map RAMs
        ResourceReport r = check("tofino1", Map.of("stages", "1", "counters", "45056"));
        assertTrue(r.fits(), () -> String.join("\n", r.failures()));
    }

    private static Compilation compile(Map<String, String> params) {
        return ProgramCompiler.compile(ProgramPlugins.registry().build("hashpipe", params), TargetProfiles.builtIn("tofino1"));
    }

    @Test
    void fiveTupleDoesNotFitTofino1ButFitsUnconstrained() {
        ResourceReport r = check("tofino1", Map.of("key", "5tuple"));
        assertFalse(r.fits());
        assertTrue(r.failures().stream().anyMatch(f -> f.contains("register 'hashpipe_s0' words of 64 b > 32 b")),
                () -> String.join("\n", r.failures()));
        assertTrue(r.failures().stream().anyMatch(f -> f.contains("needs the FREEFORM template")));
        assertTrue(check("unconstrained", Map.of("key", "5tuple")).fits());
    }

    @Test
    void cliResourcesExitsThreeForFiveTuple() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"resources", "--program", "hashpipe", "--param", "key=5tuple"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(3, code);
        assertTrue(err.toString().contains("words of 64 b > 32 b stateful-ALU word on tofino1"), err::toString);
        StringWriter out2 = new StringWriter();
        assertEquals(0, Main.run(new String[] {"resources", "--program", "hashpipe"},
                new PrintWriter(out2, true), new PrintWriter(new StringWriter(), true)));
        // register arrays exist in every pipe: the report says what that costs on a 4-pipe target
        assertTrue(out2.toString().contains("Per pipe: 24 RAMs and 0 TCAMs; tofino1 has 4 pipes, each with its own copy of every "
                + "table and register array, so the switch holds 96 RAMs and 0 TCAMs in total (4x)."), out2::toString);
        StringWriter json = new StringWriter();
        assertEquals(0, Main.run(new String[] {"resources", "--program", "hashpipe", "--json"},
                new PrintWriter(json, true), new PrintWriter(new StringWriter(), true)));
        assertTrue(json.toString().contains("\"pipes\" : 4,"), json::toString);
    }

    @Test
    void fiveTupleByteCountsWouldSaturateSoTheyAreRefused() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"resources", "--program", "hashpipe", "--target", "unconstrained", "--param",
            "key=5tuple", "--param", "count=bytes"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(2, code);
        assertEquals("rmtemu: hashpipe: key=5tuple with count=bytes: the 128-bit slot keeps 24 count bits beside the 104-bit "
                + "key, which saturate at 16777215 bytes (one elephant of a 20-s backbone chunk sends more); count packets, "
                + "or key by fingerprint", err.toString().strip());
        assertEquals("", out.toString());
    }

    @Test
    void badParametersAreUserErrors() {
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"resources", "--program", "hashpipe", "--param", "stages=12"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertEquals(2, code);
        assertTrue(err.toString().contains("stages=12 outside 1..11"), err::toString);
    }
}

package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LossRadarResourcesTest {
    private static ResourceReport check(StageProgram p) {
        return ResourceChecker.check(p, TargetProfiles.builtIn("tofino1"));
    }

    private static Map<String, String> params(String list) {
        Map<String, String> p = new LinkedHashMap<>();
        if (list != null) {
            for (String kv : list.split(",")) {
                p.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        return p;
    }

    /** Every meter variant is IR the tofino1 compiler accepts: masks, shifts and ORs, one operation per instruction. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = ';', value = {
        "lossradar;", "lossradar-um;", "lossradar-dm;",
        "lossradar;ttl_bit=1,syn_bit=1,timestamp=1,ttl_norm=1",
        "lossradar;ttl_bit=1", "lossradar;syn_bit=1,ports=1,port=0",
        "lossradar-um;route=1,ports=16,ttl_bit=1,syn_bit=1,timestamp=1",
        "lossradar-dm;meters=3,ports=3",
        "lossradar-um;hashes=4,cells=256",
    })
    void tofinoOneAcceptsEveryVariant(String program, String list) {
        StageProgram p = ProgramPlugins.registry().build(program, params(list));
        Compilation c = ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino1"));
        assertEquals(List.of(), c.lines(), program + " " + list);
    }

    /** A sub-table of m cells that is not a power of two needs a modulo: tofino1 refuses it, unconstrained runs it. */
    @Test
    void aNonPowerOfTwoSubTableTakesADivider() {
        StageProgram p = ProgramPlugins.registry().build("lossradar-um", Map.of("cells", "30"));
        List<String> lines = ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino1")).lines();
        assertEquals(3, lines.stream().filter(l -> l.contains("'%' by 10, not a power of two")).count(), String.join("\n", lines));
        assertTrue(ProgramCompiler.compile(p, TargetProfiles.builtIn("unconstrained")).accepted());
    }

    /** Both meters with k = 4 need 41 stateful ALUs from stage 3: more than tofino1's 12 stages hold. */
    @Test
    void fourHashesForBothMetersDoNotFitTofinoOne() {
        StageProgram p = ProgramPlugins.registry().build("lossradar", Map.of("hashes", "4", "cells", "256"));
        assertEquals(List.of("lossradar: ingress: program uses 13 stages > 12 [stage-resources]"),
                ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino1")).lines());
    }

    @Test
    void wideCellsAreSplitOverThirtyTwoBitArraysFourPerStage() {
        LossRadarConfig c = LossRadarConfig.defaults();
        StageProgram um = new LossRadarProgram.Upstream().build(c, 1, null);
        int arrays = 0;
        for (RegisterArray a : um.registers()) {
            assertEquals(32, a.wordBits(), a.name());
            assertEquals(2 * c.ports() * c.cellsPerHash(), a.size(), a.name());
            arrays++;
        }
        assertEquals(c.hashes() * (c.words() + 1), arrays, "k x (4 xorSum words + count)");
        ResourceReport r = check(um);
        assertTrue(r.fits(), r.failures().toString());
        int stagesWithAlus = 0;
        for (StageUsage s : r.stages()) {
            if (s.gress() == Gress.INGRESS && s.statefulAlus() > 0) {
                assertTrue(s.statefulAlus() <= LossRadarProgram.ALUS_PER_STAGE);
                stagesWithAlus++;
            }
        }
        assertEquals(4, stagesWithAlus, "15 arrays over 4 stages");
    }

    @Test
    void bothMetersWithTimestampsFillTofinoOneExactly() {
        LossRadarConfig c = LossRadarConfig.defaults().withOptions(true, true, true);
        StageProgram p = new LossRadarProgram().build(c, LossRadarProgram.DEFAULT_ACL_ENTRIES, null);
        ResourceReport r = check(p);
        assertTrue(r.fits(), r.failures().toString());
        // DM: 1 batch-state + 18 cell arrays; UM: 18 cell arrays
        assertEquals(1 + 2 * 3 * 6, p.registers().size());
        int last = 0;
        for (StageUsage s : r.stages()) {
            if (s.statefulAlus() > 0) {
                last = Math.max(last, s.stage());
            }
        }
        assertEquals(11, last, "2 + 5 + 5 cell stages: the last of tofino1's 12");
    }

    @Test
    void tooManyCellsDoNotFit() {
        StageProgram p = ProgramPlugins.registry().build("lossradar-um", Map.of("cells", "600000", "ports", "64"));
        assertFalse(check(p).fits());
    }

    @Test
    void badParametersAreUserErrors() {
        assertThrows(UserError.class, () -> ProgramPlugins.registry().build("lossradar", Map.of("cells", "100")));
        assertThrows(UserError.class, () -> ProgramPlugins.registry().build("lossradar", Map.of("port", "9", "ports", "4")));
    }
}

package dev.rmtemu.programs.lds;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdsExperimentTest {
    private static final Map<String, String> SMALL = Map.of("packets", "40000", "flows", "800", "seed", "3");

    private static String run(Map<String, String> opts, boolean json) {
        StringWriter s = new StringWriter();
        int rc = new LdsExperiment().run(opts, json, new PrintWriter(s), new PrintWriter(new StringWriter()));
        assertEquals(0, rc);
        return s.toString();
    }

    @Test
    void sameOptionsSameBytes() {
        String a = run(SMALL, false);
        assertEquals(a, run(SMALL, false));
        assertTrue(a.contains("(a) no loss") && a.contains("(b) uniform loss") && a.contains("(c) weighting"), a);
        // the paper's weights need a multiplier; the power-of-two classes are what a switch runs
        assertTrue(a.contains("1/25/100 (reference only)") && a.contains("1/16/128 (switch)"), a);
        String j = run(SMALL, true);
        assertTrue(j.startsWith("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION
                + ",\"packets\":40000,\"flows\":"), j);
    }

    @Test
    void aLargerSketchBeatsTheGlobalMeanAndLossHurtsUnsampledRows() {
        LdsTrace t = LdsTrace.generate(40_000, 800, 3, DelayModel.DEFAULT);
        double[] truth = LdsExperiment.truth(t, 0, 3);
        LdsExperiment.BinStats[] global = LdsExperiment.bins(t, truth, LdsExperiment.globalMean(t, truth, 0, 3));
        LdsConfig big = LdsConfig.singleRate(4, 2_000, 1, 1.0);
        LdsExperiment.BinStats[] lds = LdsExperiment.bins(t, truth, LdsExperiment.lds(t, big, 0, 3));
        // flows of 100-499 packets: exact or nearly so with 10x counters, ~20 % off with one global mean
        assertTrue(lds[1].medianPct() < 1.0 && global[1].medianPct() > 5.0, lds[1] + " vs " + global[1]);
        assertEquals(lds[1].flows(), lds[1].estimated());
        // 1 % loss: a p = 1 row loses most cells of large flows, the multi-bank rows keep estimates
        double[] lossy = LdsExperiment.truth(t, 0.01, 3);
        LdsExperiment.BinStats[] p1 = LdsExperiment.bins(t, lossy, LdsExperiment.lds(t, big, 0.01, 3));
        LdsExperiment.BinStats[] mb = LdsExperiment.bins(t, lossy,
                LdsExperiment.lds(t, LdsConfig.multiBank(2_000, 5), 0.01, 3));
        int large = 2; // 500-999 packets
        assertTrue(p1[large].estimated() < mb[large].estimated(), p1[large] + " vs " + mb[large]);
    }

    @Test
    void unknownOptionsAreUserErrors() {
        assertThrows(UserError.class, () -> run(Map.of("bogus", "1"), false));
        assertThrows(UserError.class, () -> run(Map.of("scale", "huge"), false));
    }
}

package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsWeights;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdsExperimentTest {
    /** Every part, small enough that its 13 pipeline runs take seconds: one sketch size, two loss rates. */
    private static final Map<String, String> SMALL = Map.of("packets", "12000", "flows", "400", "seed", "3", "sizes", "1",
            "losses", "0.001,0.01");

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
        assertTrue(a.contains("(a) no loss") && a.contains("(b) Figure 11, uniform loss") && a.contains("(c) weighting"), a);
        // the paper's weights need a multiplier; the power-of-two classes are what a switch runs
        assertTrue(a.contains("1/25/100 (reference only)") && a.contains("1/16/128 (switch)"), a);
        assertTrue(a.contains("paper, Fig. 11 (curves only, no numbers in the text): multi-bank"), a);
        // Figure 11's set-up: R = 4, k = 5, rows 5 x (flows/2)/4 cells
        LdsTrace t = LdsTrace.generate(12_000, 400, 3, DelayModel.DEFAULT);
        assertTrue(a.contains("(b) Figure 11, uniform loss: R = 4, k = 5, rows k times longer than 1x ("
                + String.format(java.util.Locale.ROOT, "%,d", 5 * ((t.flows / 2 + 2) / 4)) + " cells each)"), a);
        assertEquals(5 * LdsExperiment.cellsPerRow(1, t.flows / 2, 4), LdsExperiment.fig11Cells(5, t));
    }

    /**
     * Issue 19: the LDS rows come from the emulated switch (the compiled stage program's
     * sender and receiver passes), the baselines and the weights no switch can multiply by from
     * plain Java, and every row says which; part (b) is Figure 11 with the paper's parameters.
     */
    @Test
    void everyRowSaysWhichEngineRanItAndLdsRowsRunTheEmulatedSwitch() throws Exception {
        JsonNode j = new ObjectMapper().readTree(run(SMALL, true));
        int pipeline = 0;
        for (JsonNode row : j.get("rows")) {
            String method = row.get("method").asText();
            String engine = row.get("engine").asText();
            boolean baseline = method.startsWith("global mean") || method.startsWith("RLI") || method.startsWith("SDS")
                    || method.endsWith("(reference only)");
            assertEquals(baseline ? "reference" : "pipeline", engine, method);
            if (!baseline) {
                pipeline++;
                // the first built-in target whose compiler accepts the program (tofino1 needs C a power of two)
                assertTrue(java.util.Set.of("tofino1", "unconstrained").contains(row.get("target").asText()), method);
            } else {
                assertTrue(row.get("target").isNull(), method);
            }
        }
        assertEquals(1 + 2 * 4 + 4 + 3, pipeline, "LDS rows of parts a, b, c (unweighted and power-of-two weights), d");
        // Figure 11: flows > 100 and >= 1000 packets
        for (JsonNode row : j.get("rows")) {
            if (row.get("part").asText().equals("b")) {
                assertEquals(">100", row.get("groups").get(0).get("group").asText());
                assertEquals(">=1000", row.get("groups").get(1).get("group").asText());
                assertTrue(row.get("groups").get(1).has("within_5pct"), row.toString());
            }
        }
    }

    /** The reference may stand in for the pipeline only where they agree: on this trace, register for register. */
    @Test
    void theEmulatedSwitchAndThePlainJavaSketchesAgreeOnTheExperimentsTrace() {
        LdsTrace t = LdsTrace.generate(12_000, 300, 5, DelayModel.DEFAULT);
        LdsConfig[] configs = {
            LdsConfig.singleRate(4, 256, 1, 1.0),
            LdsConfig.multiBank(5 * 25, 5),
            LdsConfig.singleRate(4, 100, 5, 0.05).withWeights(LdsWeights.bronzeSilverGold(1, 32, 2048))};
        for (LdsConfig cfg : configs) {
            LdsExperiment.Sketches pipe = LdsExperiment.sketches(t, cfg, 0.01, 5, LdsExperiment.PIPELINE);
            LdsExperiment.Sketches ref = LdsExperiment.sketches(t, cfg, 0.01, 5, LdsExperiment.REFERENCE);
            assertEquals(LdsExperiment.PIPELINE, pipe.engine());
            assertEquals(cfg.cells() == 256 ? "tofino1" : "unconstrained", pipe.target(), cfg.toString());
            assertArrayEquals(new int[0], ref.sender().differingCells(pipe.sender()), cfg + " sender");
            assertArrayEquals(new int[0], ref.receiver().differingCells(pipe.receiver()), cfg + " receiver");
            assertFalse(ref.sender().sameContents(ref.receiver()), "1 % loss and the delays make the ends differ");
        }
    }

    /**
     * Figure 11's claim under loss, on the reference (equal to the pipeline, above): at 1 % loss
     * single-rate p = 1 rows lose most flows of 1,000+ packets, the multi-bank rows keep all.
     */
    @Test
    void underLossTheMultiBankRowsKeepAnEstimateWhereSingleRateRowsLoseIt() {
        LdsTrace t = LdsTrace.generate(200_000, 4_000, 1, DelayModel.DEFAULT);
        int cells = LdsExperiment.fig11Cells(5, t);
        double[] truth = LdsExperiment.truth(t, 0.01, 1);
        LdsExperiment.BinStats[] p1 = LdsExperiment.fig11(t, truth, LdsExperiment.lds(t, LdsConfig.singleRate(4, cells, 5, 1.0), 0.01, 1));
        LdsExperiment.BinStats[] mb = LdsExperiment.fig11(t, truth, LdsExperiment.lds(t, LdsConfig.multiBank(cells, 5), 0.01, 1));
        assertEquals(mb[1].flows(), mb[1].estimated(), "multi-bank: every flow of 1,000+ packets");
        assertTrue(p1[1].estimated() < mb[1].flows() / 2, p1[1] + " vs " + mb[1]);
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
        UserError e = assertThrows(UserError.class, () -> run(Map.of("engine", "fpga"), false));
        assertEquals("experiment lds: engine must be pipeline or reference, got 'fpga'", e.getMessage());
    }
}

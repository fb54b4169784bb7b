package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.control.NetBouncer;
import dev.rmtemu.programs.wbmon.control.WbmonAnalyser;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;

import dev.rmtemu.emulator.cli.ExperimentCommand;
import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WbmonExperimentTest {
    private static final Map<String, String> SMALL = Map.ofEntries(Map.entry("a_step", "32"), Map.entry("b_max", "200"),
            Map.entry("b_step", "50"), Map.entry("c_packets", "20000"), Map.entry("c_runs", "2"), Map.entry("d_packets", "20000"),
            Map.entry("d_losses", "0.01"), Map.entry("d_gbps", "10"), Map.entry("d_conv_runs", "3"), Map.entry("d_conv_gbps", "10"), Map.entry("d_net_packets", "3000"), Map.entry("d_net_gbps", "40"), Map.entry("e_runs", "2"), Map.entry("e_fractions", "0.6"),
            Map.entry("e_packets", "5000"), Map.entry("f_fractions", "0.6"), Map.entry("f_faults", "1"),
            Map.entry("f_placements", "1"), Map.entry("f_subsets", "2"), Map.entry("f_packets", "2000"));

    private static String run(Map<String, String> opts, boolean json) {
        StringWriter out = new StringWriter();
        int code = ExperimentCommand.available().get("wbmon").run(opts, json, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(0, code);
        return out.toString();
    }

    @Test
    void smallRunPrintsEveryPartAndIsDeterministic() {
        String a = run(SMALL, false);
        for (String part : new String[] {"WBMon (a)", "WBMon (b)", "WBMon (c)", "WBMon (d)", "WBMon (e)", "WBMon (f)"}) {
            assertTrue(a.contains(part), part + " in\n" + a);
        }
        assertEquals(a, run(SMALL, false));
        String json = run(SMALL, true);
        assertTrue(json.startsWith("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION
                + ",\"experiment\":\"wbmon\""), json);
        // every table says which engine produced it (issue 19)
        assertEquals(8, a.split("\n engine: ", -1).length - 1, a);
        assertTrue(a.contains(" engine: " + WbmonExperiment.ENGINE_NETWORK), a);
        assertTrue(json.contains("\"engines\":{\"burst\":\"" + WbmonExperiment.ENGINE_REFERENCE + "\""), json);
    }

    @Test
    void reorderWithinTheToleranceWindowIsFreeAndLateBeyondItCostsOnePacket() {
        WbmonConfig c = new WbmonConfig(1, 4, 32, 2);
        // packet 165 is in slot 5; slot 5 is cleaned when the first packet of slot 7 (224) arrives
        assertEquals(0, WbmonScenarios.reorder(c, 0).score().falsePositives());
        assertEquals(0, WbmonScenarios.reorder(c, 59).score().falsePositives());  // arrives after 223
        assertEquals(1, WbmonScenarios.reorder(c, 60).score().falsePositives());  // after 224: late
        assertEquals(60, WbmonScenarios.reorder(c, 60).actual());
        assertEquals(0, WbmonScenarios.reorder(c, -20).score().falsePositives()); // early, still inside the interval
        assertTrue(WbmonScenarios.reorder(c, -128).score().falsePositives() > 32, "early by 4 slots wipes pending slots");
    }

    @Test
    void burstsUpToTheCleaningWindowAreExactAndLongerOnesAreNot() {
        WbmonConfig c = new WbmonConfig(1, 4, 32, 2);
        WindowScore small = WbmonScenarios.burst(c, 40, 383);
        assertEquals(40, small.lost());
        assertEquals(0, small.falsePositives() + small.falseNegatives());
        WindowScore big = WbmonScenarios.burst(c, 383, 383);
        assertEquals(383, big.lost());
        assertTrue(big.falsePositives() + big.falseNegatives() > 0, big.toString());
    }

    @Test
    void table1LowReorderLowDropIsCountedAlmostExactly() {
        WindowScore s = WbmonScenarios.realistic(new WbmonConfig(1, 4, 32, 2), 50_000, 0.0165, 0.01, 0.75, 3);
        assertTrue(s.lost() > 300, s.toString());
        assertEquals(0, s.falsePositives(), s.toString());
        assertEquals(0, s.falseNegatives(), s.toString());
    }

    @Test
    void fatTreeEdgeAndCoreLocalisesTheLossyLink() {
        WbmonLocalisation.Outcome x = WbmonLocalisation.run(new WbmonLocalisation.Setup("builtin:fattree?k=4&programmable=edge,core",
                1, 0.01, 20_000), new WbmonConfig(1, 4, 32, 2), WbmonAnalyser.Params.DEFAULTS, 5);
        assertEquals(1, x.found());
        assertEquals(1, x.blamedSets());
        assertEquals(1, x.trueSets());
    }

    /**
     * A dead link (every packet lost, a blackhole) must be blamed. The downstream window counts
     * drops only when a later packet cleans their slot (WBMon dissertation Section 4.3), so a vconn
     * over a dead link reports no packets and no drops; its success rate must come from what the
     * upstream numbered (Section 4.4: y from the m-switches' counters), or it reads 1.0 and
     * NetBouncer blames nothing (recall was 0 % in every row). Run 5 of Abilene 40 % puts the dead
     * link on three vconns each of which has other links only it crosses: the solver's sweep order
     * must leave the shared link at 0 (NetBouncer.sweepOrder), not one link per dead vconn.
     */
    @Test
    void deadLinkIsFoundInEveryScenario() {
        Map<String, String> o = new TreeMap<>(Map.of("part", "e", "e_loss", "1", "e_runs", "6", "e_fractions", "0.4,0.6",
                "e_packets", "2000"));
        String table = run(o, false);
        int rows = 0;
        for (String line : table.split("\n")) {
            if (line.startsWith(" abilene") || line.startsWith(" fattree")) {
                String[] col = line.trim().split("\\s+");
                assertEquals("100.0%", col[col.length - 4], "recall in: " + line);
                assertEquals("100.0%", col[col.length - 3], "precision in: " + line);
                rows++;
            }
        }
        assertEquals(4, rows, table);
    }

    @Test
    void networkDetectionAddsLinkLatencyToTheWindowDelay() {
        NetworkDetection.Result r = NetworkDetection.run(new WbmonConfig(1, 4, 32, 2), 5_000, 0.02, 40, 1000, 4);
        assertTrue(r.drops() > 50, r.toString());
        // 1 µs r1->r2 and r2->m2 links plus about 49 packets of 204 ns at 40 Gb/s
        assertTrue(r.meanUs() > 2 && r.meanUs() < 2.5 + 70 * 0.204, r.toString());
        assertTrue(r.maxUs() < 3 + 80 * 0.204, r.toString());
    }

    @Test
    void unknownOptionIsAUserError() {
        Map<String, String> o = new TreeMap<>(SMALL);
        o.put("windows", "3");
        assertThrows(UserError.class, () -> run(o, false));
        assertThrows(UserError.class, () -> run(Map.of("part", "d", "d_losses", "1.5"), false));
        assertThrows(UserError.class, () -> run(Map.of("part", "c", "c_runs", "0"), false));
    }

    /**
     * The thesis' metrics (Section 5.1): #FP = max(0, detected − drops) and #FN = max(0, drops −
     * detected) are net counts; FPR = #FP / #packets; detected drop rate = #drops / (#drops + #packets).
     */
    @Test
    void thesisMetricsAreNetCountsOverTheProcessedPackets() {
        WindowScore s = new WindowScore(1_000, 10, 12, 3, 1);
        assertEquals(2, s.thesisFalsePositives());
        assertEquals(0, s.thesisFalseNegatives());
        assertEquals(990, s.packets());
        assertEquals(2.0 / 990, s.thesisFalsePositiveRate(), 1e-15);
        assertEquals(12.0 / 1_002, s.detectedDropRate(), 1e-15);
        WindowScore under = new WindowScore(1_000, 10, 7, 0, 3);
        assertEquals(0, under.thesisFalsePositives());
        assertEquals(3, under.thesisFalseNegatives());
    }

    /** Figure 4 with the thesis' counts: no false negative at any burst size, false positives only past W·tws + 1. */
    @Test
    void burstsNeverGiveAThesisFalseNegativeAndFalsePositivesOnlyPastTheToleranceWindow() {
        WbmonConfig c = new WbmonConfig(1, 4, 32, 2);
        for (int b = 0; b <= 383; b++) {
            WindowScore s = WbmonScenarios.burst(c, b, 383);
            assertEquals(0, s.thesisFalseNegatives(), "burst " + b);
            if (b <= WbmonExperiment.THESIS_BURST_EXACT_UP_TO) {
                assertEquals(0, s.thesisFalsePositives(), "burst " + b);
            }
        }
        assertEquals(1, WbmonScenarios.burst(c, 128, 383).thesisFalsePositives(), "2 FP and 1 FN per number net to 1 FP");
    }

    /** Figure 3: the displacements without a false positive, every one tried, beside the thesis' [−37, 59]. */
    @Test
    void reorderRangeWithoutFalsePositivesIsFoundDisplacementByDisplacement() {
        WbmonExperiment.Results r = WbmonExperiment.compute(options(Map.of("part", "a", "a_step", "64")));
        assertEquals(-37, r.reorderFreeFrom());
        assertEquals(59, r.reorderFreeTo());
        assertEquals(0, WbmonScenarios.reorder(new WbmonConfig(1, 4, 32, 2), 1).actual(), "+1 is in order");
    }

    /** Figure 5: the first number of packets sent at which |ŷ − y| &lt; ε, ŷ the fraction dropped (the thesis' estimate). */
    @Test
    void convergenceIsTheFirstPacketCountWithinEpsilon() {
        WbmonConfig c = new WbmonConfig(1, 4, 32, 2);
        double y = 0.01;
        WbmonScenarios.Convergence x = WbmonScenarios.convergence(c, y, WbmonExperiment.THESIS_EPSILON, 1_000_000, 7);
        dev.rmtemu.traces.gen.SplitMix64 rnd = new dev.rmtemu.traces.gen.SplitMix64(7);
        long dropped = 0;
        long first = -1;
        for (int n = 1; first < 0; n++) {
            dropped += rnd.nextDouble() < y ? 1 : 0;
            if (Math.abs((double) dropped / n - y) < WbmonExperiment.THESIS_EPSILON) {
                first = n;
            }
        }
        assertEquals(first, x.packetsSent());
        assertTrue(x.packetsWindow() > x.packetsSent(), "the window judges a slot tws slots late: " + x);
        assertEquals(2.5, WbmonExperiment.median(new long[] {4, 1, 2, 3}));
        assertEquals(Double.POSITIVE_INFINITY, WbmonExperiment.median(new long[] {Long.MAX_VALUE, 1, Long.MAX_VALUE}));
    }

    /** Table 1 rows carry the thesis' printed values beside ours. */
    @Test
    void table1PrintsTheThesisValuesBesideOurs() {
        WbmonExperiment.Results r = WbmonExperiment.compute(options(Map.of("part", "c", "c_packets", "20000", "c_runs", "2")));
        assertEquals(8, r.table1().size());
        assertEquals(0.9524, r.table1().get(2).thesisDetectedDropRate(), 1e-12);
        assertEquals(2.42, r.table1().get(2).thesisFpr(), 1e-12);
        assertEquals(0.0, r.table1().get(0).falsePositiveRate(), 1e-12);
        assertEquals(r.table1().get(0).trueDropRate(), r.table1().get(0).detectedDropRate(), 2e-4, "1 % loss: #drops/(#drops+#packets)");
    }

    /**
     * Figure 7's precision is #TP / #B over links, B holding every link indistinguishable from a
     * blamed one (thesis Section 5.2.1), not the share of blamed sets that hold a faulty link.
     */
    @Test
    void figure7ScoresCountLinksOfTheBlamedSets() {
        // two faulty links, one found; two blamed sets of 3 and 1 links, one of them holding the found link
        WbmonPlacement.Score x = WbmonPlacement.Score.of(new WbmonLocalisation.Outcome(12, 20, 2, 1, 2, 1, 4));
        assertEquals(0.5, x.recall());
        assertEquals(0.25, x.precision());
        assertTrue(Double.isNaN(WbmonPlacement.Score.of(new WbmonLocalisation.Outcome(12, 20, 1, 0, 0, 0, 0)).precision()));
        // part (e) scores the same way: 2 of 3 blamed links faulty
        assertEquals(2.0 / 3, new WbmonExperiment.LocalisationRow("x", 1, 5, 2, 2, 2, 2, 1.5, 3).thesisPrecision(), 1e-15);
        assertEquals(1.0, new WbmonExperiment.LocalisationRow("x", 1, 5, 2, 2, 2, 2, 1.5, 3).precision(), 1e-15);
    }

    /** The rebuilt P3 has 8 m-switches (73 % of Abilene's 11) and no placement of 8 leaves fewer links unidentifiable. */
    @Test
    void handMadePlacementIsTheBestOfItsSize() {
        String p3 = WbmonPlacement.best(8);
        assertEquals(8, p3.substring(p3.indexOf("programmable=") + 13).split(",").length, p3);
        int best = WbmonPlacement.unidentifiable(p3);
        for (int k = 0; k < 8; k++) {
            String random = WbmonLocalisation.abilenePlacement(8.0 / 11, 31 + k);
            assertTrue(best <= WbmonPlacement.unidentifiable(random), random);
        }
        assertTrue(best < WbmonPlacement.unidentifiable(WbmonLocalisation.abilenePlacement(4.0 / 11, 3)));
    }

    @Test
    void figure7RowsCarryTheThesisStatements() {
        WbmonExperiment.Results r = WbmonExperiment.compute(options(Map.of("part", "f", "f_fractions", "0.4",
                "f_faults", "1", "f_placements", "2", "f_subsets", "2", "f_packets", "2000")));
        assertEquals(4, r.figure7().size(), "R(40), P1, P2, P3");
        assertEquals("R(40)", r.figure7().get(0).placement());
        assertEquals("recall about 70 %; random precision 53-83 %", r.figure7().get(0).thesis());
        assertEquals("recall and precision above R(80)", r.figure7().get(3).thesis());
        assertEquals(List.of(6, 7, 8), r.figure7().subList(1, 4).stream().map(WbmonExperiment.Figure7Row::switches).toList());
        assertEquals(4, r.figure7().get(0).runs());
    }

    private static WbmonOptions options(Map<String, String> given) {
        return WbmonOptions.parse(given);
    }
}

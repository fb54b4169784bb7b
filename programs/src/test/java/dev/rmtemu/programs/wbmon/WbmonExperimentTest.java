package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.cli.ExperimentCommand;
import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WbmonExperimentTest {
    private static final Map<String, String> SMALL = Map.ofEntries(Map.entry("a_step", "32"), Map.entry("b_max", "200"),
            Map.entry("b_step", "50"), Map.entry("c_packets", "20000"), Map.entry("c_runs", "2"), Map.entry("d_packets", "20000"),
            Map.entry("d_losses", "0.01"), Map.entry("d_gbps", "10"), Map.entry("d_net_packets", "3000"), Map.entry("d_net_gbps", "40"), Map.entry("e_runs", "2"), Map.entry("e_fractions", "0.6"),
            Map.entry("e_packets", "5000"));

    private static String run(Map<String, String> opts, boolean json) {
        StringWriter out = new StringWriter();
        int code = ExperimentCommand.available().get("wbmon").run(opts, json, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(0, code);
        return out.toString();
    }

    @Test
    void smallRunPrintsEveryPartAndIsDeterministic() {
        String a = run(SMALL, false);
        for (String part : new String[] {"WBMon (a)", "WBMon (b)", "WBMon (c)", "WBMon (d)", "WBMon (e)"}) {
            assertTrue(a.contains(part), part + " in\n" + a);
        }
        assertEquals(a, run(SMALL, false));
        assertTrue(run(SMALL, true).startsWith("{\"schema_version\":" + dev.rmtemu.emulator.json.Json.SCHEMA_VERSION
                + ",\"experiment\":\"wbmon\""));
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
                assertEquals("100.0%", col[col.length - 3], "recall in: " + line);
                assertEquals("100.0%", col[col.length - 2], "precision in: " + line);
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
}

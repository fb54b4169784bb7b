package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WbmonAnalyserTest {

    /** m1 – r1 – r2 – m2, a host on each m-switch. */
    static Topology chain() {
        TopologyBuilder b = new TopologyBuilder("test:chain");
        b.programmableSwitch("m1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("m2", "tofino1", 2, null, KeyValues.EMPTY);
        b.regularSwitch("r1", 2);
        b.regularSwitch("r2", 2);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.BOTH);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.BOTH);
        b.link("h1", 1, "m1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("m1", 2, "r1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 2, "r2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r2", 2, "m2", 2, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("h2", 1, "m2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    /** m1, m2, m3 around one regular switch r (a star neighbourhood). */
    static Topology star() {
        TopologyBuilder b = new TopologyBuilder("test:star");
        b.regularSwitch("r", 3);
        for (int i = 1; i <= 3; i++) {
            b.programmableSwitch("m" + i, "tofino1", 2, null, KeyValues.EMPTY);
            b.host("h" + i, Ipv4Prefix.parse("10.0." + i + ".1/32"), HostRole.BOTH);
        }
        for (int i = 1; i <= 3; i++) {
            b.link("h" + i, 1, "m" + i, 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
            b.link("m" + i, 2, "r", i, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        }
        return b.build();
    }

    private static List<WbmonCollector.VconnCounters> counters(List<VConn> vc, double[] y, long sent) {
        List<WbmonCollector.VconnCounters> out = new ArrayList<>();
        for (int i = 0; i < vc.size(); i++) {
            long drops = Math.round((1 - y[i]) * sent);
            out.add(new WbmonCollector.VconnCounters(i, sent, sent - drops, drops));
        }
        return out;
    }

    @Test
    void chainLinksOfOneVconnAreOneIndistinguishableSetBlamedTogether() {
        Topology t = chain();
        List<VConn> vc = VConns.vconns(t);
        assertEquals(2, vc.size());
        int lossy = t.node("m1").index() == vc.get(0).from() ? 0 : 1;
        double[] y = new double[2];
        y[lossy] = 0.95;
        y[1 - lossy] = 1.0;
        WbmonAnalyser.Analysis a = WbmonAnalyser.analyse(t, vc, counters(vc, y, 10_000), WbmonAnalyser.Params.DEFAULTS);
        assertEquals(2, a.sets().size(), "one set per direction");
        List<WbmonAnalyser.LinkSet> blamed = a.blamed();
        assertEquals(1, blamed.size());
        assertEquals(3, blamed.get(0).links().size());
        assertEquals(List.of(lossy), blamed.get(0).vconns());
        int[] dl = WbmonAnalyser.directedLinks(t, vc.get(lossy));
        assertEquals(List.of(dl[0], dl[1], dl[2]).stream().sorted().toList(), blamed.get(0).links());
    }

    @Test
    void starNeighbourhoodPinpointsTheLossyUplink() {
        Topology t = star();
        List<VConn> vc = VConns.vconns(t);
        assertEquals(6, vc.size());
        int m1 = t.node("m1").index();
        double[] y = new double[vc.size()];
        for (int i = 0; i < vc.size(); i++) {
            y[i] = vc.get(i).from() == m1 ? 0.97 : 1.0; // m1 → r loses 3 %
        }
        WbmonAnalyser.Analysis a = WbmonAnalyser.analyse(t, vc, counters(vc, y, 100_000), WbmonAnalyser.Params.DEFAULTS);
        assertEquals(6, a.sets().size(), "every directed link has its own vconn set");
        List<WbmonAnalyser.LinkSet> blamed = a.blamed();
        assertEquals(1, blamed.size(), a.sets().toString());
        int up = WbmonAnalyser.directedLinks(t, vc.stream().filter(v -> v.from() == m1).findFirst().orElseThrow())[0];
        assertEquals(List.of(up), blamed.get(0).links());
        assertEquals(0.97, a.success()[up], 1e-3);
        for (WbmonAnalyser.LinkSet s : a.sets()) {
            if (!s.blamed()) {
                assertTrue(s.minSuccess() >= 0.998, s.toString());
            }
        }
        // no loss anywhere: nothing blamed
        double[] ones = new double[vc.size()];
        java.util.Arrays.fill(ones, 1.0);
        assertFalse(WbmonAnalyser.analyse(t, vc, counters(vc, ones, 1000), WbmonAnalyser.Params.DEFAULTS).sets().stream()
                .anyMatch(WbmonAnalyser.LinkSet::blamed));
    }
}

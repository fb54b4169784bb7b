package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsProgram;
import dev.rmtemu.programs.lds.reference.LdsReferenceTest;

import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdsReportTest {
    @Test
    void replaySummaryListsTheLargestFlowsWithTheirDelays() {
        String trace = "gen:isp?packets=20000&flows=200&ipv6=0&seed=2";
        Map<String, String> params = Map.of("cells", "8192", "k", "1", "paths", "2", "priority", "0.2", "top", "8");
        ReplayResult res = Replay.run(new ReplayOptions(LdsProgram.NAME, params, "tofino1", trace, "original", 1, 0, 100, true,
                0, null, false), null);
        String text = new LdsReport().results(res).render();
        assertTrue(text.startsWith("LDS ingress -> egress, largest 8 flows"), text);
        LdsConfig cfg = LdsProgram.pipeline(new dev.rmtemu.model.program.ProgramParams(LdsProgram.NAME, new LdsProgram().params(),
                params)).config;
        List<LdsReport.Row> rows = LdsReport.top(LdsReport.estimator(res.engine().state(), cfg), trace, res.packetsRead(), 8);
        assertEquals(8, rows.size());
        int exact = 0;
        for (int i = 0; i < rows.size(); i++) {
            LdsReport.Row r = rows.get(i);
            assertTrue(i == 0 || rows.get(i - 1).packets() >= r.packets(), "sorted by size");
            assertTrue(r.meanDelayNs() > 0, "flow " + i + " has a delay estimate");
            assertTrue(r.packetsSent() >= r.packets(), "count-min never under-counts");
            exact += r.packetsSent() == r.packets() ? 1 : 0;
            assertEquals(0, r.packetsLost(), 0.0);
        }
        assertTrue(exact >= 6, exact + " exact sizes");
    }

    @Test
    void mergedSketchesAreTheSketchOfTheUnion() {
        LdsConfig cfg = LdsConfig.singleRate(4, 97, 3, 0.7);
        LdsSketch a = new LdsSketch(cfg);
        LdsSketch b = new LdsSketch(cfg);
        LdsSketch all = new LdsSketch(cfg);
        LdsPacketKeys k = new LdsPacketKeys(cfg);
        for (int i = 0; i < 3_000; i++) {
            PacketRecord p = LdsReferenceTest.packet(i % 50, i);
            k.of(p);
            (i % 3 == 0 ? a : b).record(k, 1_000_000L * i);
            all.record(k, 1_000_000L * i);
        }
        a.mergeFrom(b);
        assertTrue(a.sameContents(all));
    }
}

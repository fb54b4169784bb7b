package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstProgram;

import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rmtemu replay --program midst}: the end-of-run S_loss query in the replay summary. */
class MidstReportTest {
    /** The Zipf flow model at 100 Gb/s and load 0.5: its spacing overloads the 10 Gb/s port. */
    private static final String TRACE = "gen:isp?packets=20000&flows=300&seed=3&dist=zipf&gbps=100&load=0.5";

    private static ReplayResult replay(Path control) {
        return replay(control, Map.of("top", "5"));
    }

    private static ReplayResult replay(Path control, Map<String, String> params) {
        ReplayOptions o = new ReplayOptions(MidstProgram.NAME, params, "tofino1", TRACE, "original", 1, 0, 10,
                true, 0, null, false, control, null);
        return Replay.run(o, null);
    }

    @Test
    void queryOverTheTraceFlowsWithMonitoringHeldOn(@TempDir Path dir) throws IOException {
        Path control = dir.resolve("hold.ctl");
        Files.writeString(control, "register_write midst_monitor 0 1\n");
        ReplayResult result = replay(control);
        MidstConfig cfg = MidstConfig.defaults();
        long drops = result.engine().trafficManager().droppedPackets(cfg.dataPort(), DropCause.QUEUE_LIMIT);
        assertTrue(drops > 1_000, "10 Gb/s ports, the trace's own spacing: the port must drop " + drops);
        List<MidstReport.Row> rows = MidstReport.flows(MidstLossQuery.readAllPipes(result.engine(), cfg), TRACE,
                result.packetsRead());
        long lossSum = 0;
        for (MidstReport.Row r : rows) {
            assertEquals(r.arrivals(), r.arrivalsEstimate(), "S_in of " + MidstReport.tuple(r.flow()));
            lossSum += r.loss();
        }
        assertTrue(lossSum >= drops && lossSum <= drops + drops / 100, "sum of S_loss " + lossSum + " vs drops " + drops);
        String text = ProgramReport.forProgram(MidstProgram.NAME).get(0).results(result).render();
        assertTrue(text.contains("port 1 dropped " + drops + " packets"), text);
        assertTrue(text.contains("top 5 heavy losers") && text.contains("top 5 bursty flows"), text);
        assertEquals(text, ProgramReport.forProgram(MidstProgram.NAME).get(0).results(replay(control)).render(), "deterministic");
    }

    @Test
    void withoutProbesOrAControlScriptTheReportSaysNothingWasCounted() {
        String text = ProgramReport.forProgram(MidstProgram.NAME).get(0).results(replay(null, Map.of("top", "5", "probe_ns", "0"))).render();
        assertTrue(text.contains("nothing was counted: monitoring was off"), text);
        assertTrue(text.contains("no export journal (run with --out DIR)"), text);
    }
}

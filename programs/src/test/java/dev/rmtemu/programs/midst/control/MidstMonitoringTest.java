package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.experiment.MidstCleaning;
import dev.rmtemu.programs.midst.experiment.MidstTestTraffic;
import dev.rmtemu.programs.midst.experiment.MidstTraffic;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reactive monitoring through probes and data-plane cleaning between bursts. */
class MidstMonitoringTest {
    /** A probe every 1 µs at 1.22 GHz. */
    private static final long PROBE_PERIOD = 1_220;

    @Test
    void probesStartAndStopMonitoringPerBurstAndCleanBetween() {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 2048).withWaterMarks(100, 10);
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, 300);
        MidstTraffic.Spec spec = MidstTestTraffic.spec(50, 1.6, 2_000, 3, 3_000_000, 5);
        long endCycle = sw.engine().clock().nsToCycles(3 * 3_000_000L);
        sw.startProbes(0, PROBE_PERIOD, endCycle / PROBE_PERIOD);
        MidstTraffic t = new MidstTraffic(spec);
        PacketRecord r = PacketRecord.allocate();
        while (t.next(r)) {
            sw.engine().arrive(sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
        }
        sw.engine().drain();
        sw.engine().checkConservation();

        List<Integer> kinds = new ArrayList<>();
        long last = -1;
        for (MidstCollector.Event e : sw.collector().events()) {
            kinds.add(e.kind());
            assertTrue(e.cycle() > last);
            last = e.cycle();
        }
        int on = MidstPipeline.KIND_MONITOR_ON;
        int off = MidstPipeline.KIND_MONITOR_OFF;
        int done = MidstPipeline.KIND_CLEAN_DONE;
        assertEquals(List.of(on, off, done, on, off, done, on, off, done), kinds);
        List<MidstCollector.Event> ev = sw.collector().events();
        assertEquals(1, ev.get(0).epoch());
        assertEquals(2, ev.get(3).epoch());
        assertEquals(3, ev.get(6).epoch());
        assertTrue(ev.get(0).queueDepthCells() >= cfg.highWater());
        assertTrue(ev.get(1).queueDepthCells() < cfg.lowWater());
        assertEquals(0, sw.ingressCleanPointer());
        assertEquals(0, sw.egressCleanPointer());
        MidstCleaning.checkClean(sw);
        // the counters themselves were never zeroed: the dirty words reset them logically
        long nonZero = 0;
        for (long v : sw.engine().state().snapshot(0, MidstPipeline.inCount(0))) {
            nonZero += v != 0 ? 1 : 0;
        }
        assertTrue(nonZero > 0);
        // heavy losers were reported in every epoch
        long drops = sw.engine().counters().droppedTotal();
        assertTrue(drops > 500, "drops " + drops);
        long reported = 0;
        for (MidstCollector.FlowReport f : sw.collector().flows()) {
            reported += f.loss();
        }
        assertTrue(reported > 0 && reported <= drops + 50 * 3 * 2, "reported " + reported + " of " + drops);
    }

    @Test
    void oneRecirculatingProbeCleansEveryDirtyWord() {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 4096);
        MidstCleaning.Result res = MidstCleaning.dataPlane(cfg, TargetProfiles.builtIn("tofino1"), 0, 0);
        // one word per row per pass: W passes (and the final report pass)
        assertTrue(res.probePasses() >= cfg.dirtyWordCount() && res.probePasses() <= cfg.dirtyWordCount() + 2,
                "passes " + res.probePasses() + " for W = " + cfg.dirtyWordCount());
        MidstCleaning.Result withTraffic = MidstCleaning.dataPlane(cfg, TargetProfiles.builtIn("tofino1"), 40, 256);
        assertTrue(withTraffic.cycles() < res.cycles() / 2, withTraffic + " vs " + res);
        assertEquals(res, MidstCleaning.dataPlane(cfg, TargetProfiles.builtIn("tofino1"), 0, 0));
        // measured per cleaning: every recirculation moved one probe frame; the dirty words of both sketches
        // (2 rows x W in S_in and in S_out) were set before and are zero after
        assertEquals(res.probePasses() * MidstSwitch.PROBE_BYTES, res.recirculatedBytes());
        assertEquals(2L * 2 * cfg.dirtyWordCount(), res.cellsCleaned());
        assertEquals(2L * 2 * cfg.dirtyWordCount(), withTraffic.cellsCleaned());
    }

    @Test
    void controlPlaneResetDeliversOneWritePerCounterOfBothSketches() {
        MidstConfig cfg = MidstConfig.defaults().withRows(3, 2048);
        MidstCleaning.ControlPlane api = MidstCleaning.controlPlane(cfg, TargetProfiles.builtIn("tofino1"));
        assertEquals(2L * 3 * 2048, api.writes());
        assertEquals(api.writes() * 4, api.bytes());
        // the host's time is the model's: writes x the calibrated cost per write
        assertEquals(api.writes() * MidstCleaning.CONTROL_PLANE_WRITE_NS / 1e6, api.hostMs(), 1e-3);
    }

    @Test
    void withoutDirtyWordsCleaningZeroesEveryCounterAndTakes32TimesLonger() {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 1024);
        MidstCleaning.Result words = MidstCleaning.dataPlane(cfg, TargetProfiles.builtIn("tofino1"), 0, 0);
        MidstCleaning.Result counters = MidstCleaning.dataPlane(cfg.withDirtyWords(false), TargetProfiles.builtIn("tofino1"), 0, 0);
        // dataPlane checks every counter is zero at the end (without dirty words the counters themselves are cleaned)
        assertTrue(counters.probePasses() >= cfg.columns() && counters.probePasses() <= cfg.columns() + 2, counters.toString());
        double ratio = (double) counters.cycles() / words.cycles();
        assertTrue(ratio > 30 && ratio < 34, "ratio " + ratio);
    }

    @Test
    void controlPlaneResetScalesWithTheSketch() {
        // calibrated on the paper's 160 KB row: 2 x 20,480 counters (not a power of two: a target with a divider)
        double paper = MidstCleaning.controlPlaneMs(MidstConfig.defaults().withRows(2, 20_480),
                TargetProfiles.builtIn("unconstrained"));
        assertEquals(95.32, paper, 0.01);
        // tofino1's 160 KB point is 2 x 16,384 counters (128 KB, power-of-two rows): 0.8 of the writes
        double small = MidstCleaning.controlPlaneMs(MidstConfig.defaults().withRows(2, MidstConfig.columnsFor(160, 2)),
                TargetProfiles.builtIn("tofino1"));
        assertEquals(95.32 * 0.8, small, 0.01);
    }
}

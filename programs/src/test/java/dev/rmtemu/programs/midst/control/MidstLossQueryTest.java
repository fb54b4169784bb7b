package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.experiment.MidstTestTraffic;
import dev.rmtemu.programs.midst.experiment.MidstTraffic;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.reference.MidstReference;

import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The control plane's end-of-interval S_loss query against the traffic manager: per flow,
 * drops = arrivals − departures (one FIFO queue, the only place data packets are dropped),
 * and their sum is the traffic manager's tail-drop count for the port.
 */
class MidstLossQueryTest {
    private static final int QUEUE_CELLS = 200;

    /** Per-flow arrivals and departures of a run with monitoring held on. */
    private record Run(MidstSwitch sw, int[] arrivals, int[] departures) {
        long truth(int f) {
            return arrivals[f] - departures[f];
        }
    }

    private static Run run(MidstConfig cfg, int flows, long seed) {
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, QUEUE_CELLS);
        sw.monitorAlways();
        int[] dep = new int[flows];
        sw.onDeparture((c, port, s, pool) -> dep[MidstTraffic.flowOf(pool.record(s))]++);
        MidstTraffic t = new MidstTraffic(MidstTestTraffic.spec(flows, 1.6, 4_000, 3, 2_000_000, seed));
        PacketRecord r = PacketRecord.allocate();
        while (t.next(r)) {
            sw.engine().arrive(sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
        }
        sw.engine().drain();
        int[] arr = new int[flows];
        for (int f = 0; f < flows; f++) {
            arr[f] = t.arrivals(f);
        }
        return new Run(sw, arr, dep);
    }

    static MidstLossQuery.FlowKey key(int f) {
        return new MidstLossQuery.FlowKey(MidstTraffic.FLOW_BASE + f, MidstTraffic.DST, PacketRecord.PROTO_TCP,
                MidstTraffic.SRC_PORT_BASE + f, MidstTraffic.DST_PORT);
    }

    private static List<MidstLossQuery.FlowKey> keys(int flows) {
        List<MidstLossQuery.FlowKey> k = new ArrayList<>();
        for (int f = 0; f < flows; f++) {
            k.add(key(f));
        }
        return k;
    }

    @Test
    void exactPerFlowLossWithoutCollisionsMatchingTheDropCount() {
        MidstConfig cfg = MidstConfig.defaults().withRows(3, 4096);
        int flows = 60;
        Run run = run(cfg, flows, 21);
        MidstLossQuery q = MidstLossQuery.read(run.sw());
        long sum = 0;
        for (int f = 0; f < flows; f++) {
            assertEquals(run.truth(f), q.loss(key(f)), "flow " + f);
            assertEquals(run.arrivals()[f], q.arrivals(key(f)), "arrivals of flow " + f);
            sum += run.truth(f);
        }
        long tmDrops = run.sw().engine().trafficManager().droppedPackets(cfg.dataPort(), DropCause.QUEUE_LIMIT);
        assertTrue(tmDrops > 1_000, "the port must be congested: " + tmDrops);
        assertEquals(tmDrops, sum);
        assertEquals(tmDrops, run.sw().engine().counters().droppedTotal());

        long threshold = 20;
        List<MidstLossQuery.FlowEstimate> heavy = q.heavyLosers(keys(flows), threshold);
        int expected = 0;
        for (int f = 0; f < flows; f++) {
            expected += run.truth(f) >= threshold ? 1 : 0;
        }
        assertTrue(expected > 3 && expected < flows, "threshold should split the flows: " + expected);
        assertEquals(expected, heavy.size());
        for (MidstLossQuery.FlowEstimate e : heavy) {
            assertTrue(run.truth(e.flow().src() - MidstTraffic.FLOW_BASE) >= threshold);
        }
        // bursty flows: heavy hitters of S_in, exact here
        List<MidstLossQuery.FlowEstimate> bursty = q.burstyFlows(keys(flows), 300);
        int heavyHitters = 0;
        for (int f = 0; f < flows; f++) {
            heavyHitters += run.arrivals()[f] >= 300 ? 1 : 0;
        }
        assertTrue(heavyHitters > 0);
        assertEquals(heavyHitters, bursty.size());
    }

    @Test
    void neverUnderestimatesUnderCollisions() {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 64);
        int flows = 600;
        Run run = run(cfg, flows, 22);
        MidstLossQuery q = MidstLossQuery.read(run.sw());
        int over = 0;
        for (int f = 0; f < flows; f++) {
            long est = q.loss(key(f));
            assertTrue(est >= run.truth(f), "flow " + f + ": " + est + " < " + run.truth(f));
            over += est > run.truth(f) ? 1 : 0;
        }
        assertTrue(over > 0, "64 counters for 600 flows must overestimate some");
    }

    @Test
    void intervalsAreSnapshotDifferences() {
        MidstConfig cfg = MidstConfig.defaults().withRows(3, 4096);
        int flows = 50;
        long intervalNs = 2_000_000;
        int bursts = 3;
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, QUEUE_CELLS);
        sw.monitorAlways();
        int[][] dep = new int[bursts][flows];
        int[][] arr = new int[bursts][flows];
        sw.onDeparture((c, port, s, pool) -> {
            int k = (int) (sw.engine().clock().cyclesToNs(c) / intervalNs);
            dep[k][MidstTraffic.flowOf(pool.record(s))]++;
        });
        MidstLossQuery[] snaps = new MidstLossQuery[bursts];
        for (int k = 0; k < bursts; k++) {
            final int kk = k;
            // the end of interval k: 1 µs before the next burst, when the queue has long drained
            long at = sw.engine().clock().nsToCycles((k + 1) * intervalNs - 1_000);
            sw.engine().scheduleControl(at, (state, cycle) -> snaps[kk] = MidstLossQuery.read(sw));
        }
        MidstTraffic t = new MidstTraffic(MidstTestTraffic.spec(flows, 2.0, 3_000, bursts, intervalNs, 23));
        PacketRecord r = PacketRecord.allocate();
        while (t.next(r)) {
            arr[(int) (r.timestampNs() / intervalNs)][MidstTraffic.flowOf(r)]++;
            sw.engine().arrive(sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
        }
        sw.engine().drain();
        long lostInSecond = 0;
        for (int k = 0; k < bursts; k++) {
            MidstLossQuery interval = k == 0 ? snaps[0] : snaps[k].minus(snaps[k - 1]);
            for (int f = 0; f < flows; f++) {
                long truth = arr[k][f] - dep[k][f];
                assertEquals(truth, interval.loss(key(f)), "interval " + k + " flow " + f);
                assertEquals(arr[k][f], interval.arrivals(key(f)), "interval " + k + " flow " + f);
                lostInSecond += k == 1 ? truth : 0;
            }
        }
        assertTrue(lostInSecond > 100, "the second burst must drop: " + lostInSecond);
    }

    @Test
    void aCounterWithItsDirtyBitClearReadsZero() {
        MidstConfig cfg = MidstConfig.defaults().withRows(1, 64);
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, QUEUE_CELLS);
        int j = new MidstReference(cfg).index(0, key(0).src(), key(0).dst(), key(0).proto(), key(0).srcPort(), key(0).dstPort());
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.inCount(0), j, 7, 0);
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.outCount(0), j, 2, 0);
        assertEquals(0, MidstLossQuery.read(sw).loss(key(0)));
        long bit = 1L << (j % MidstConfig.COUNTERS_PER_DIRTY_WORD);
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.inDirty(0), j / MidstConfig.COUNTERS_PER_DIRTY_WORD, bit, 0);
        assertEquals(7, MidstLossQuery.read(sw).loss(key(0)), "S_out still stale: its counter reads 0");
        sw.engine().state().writeRegister(sw.pipe(), MidstPipeline.outDirty(0), j / MidstConfig.COUNTERS_PER_DIRTY_WORD, bit, 0);
        assertEquals(5, MidstLossQuery.read(sw).loss(key(0)));
        assertEquals(7, MidstLossQuery.read(sw).arrivals(key(0)));
    }
}

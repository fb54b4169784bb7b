package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.experiment.MidstTestTraffic;
import dev.rmtemu.programs.midst.experiment.MidstTraffic;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.reference.MidstReference;

import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loss estimate against ground truth from the traffic manager: a packet p of flow f
 * leaving the congested port carries min_i(u_i − v_i); the truth is how many of f's
 * packets that arrived before p were dropped = seq(p) − departures of f so far
 * (per-flow FIFO through one queue).
 */
class MidstLossPropertyTest {
    private static final int QUEUE_CELLS = 200;

    private record Outcome(long departures, long exact, long over, long drops) {
    }

    private Outcome run(MidstConfig cfg, int flows, long seed, boolean[] collisionFree) {
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, QUEUE_CELLS);
        sw.monitorAlways();
        MidstPipeline p = sw.pipeline();
        int[] departed = new int[flows];
        long[] stats = new long[3];
        sw.onDeparture((c, port, s, pool) -> {
            PacketRecord r = pool.record(s);
            int f = MidstTraffic.flowOf(r);
            departed[f]++;
            long truth = r.tcpSeq() - departed[f];
            Phv phv = pool.phv(s);
            long est = phv.get(p.lossEstimate);
            assertTrue(est >= truth, "flow " + f + " seq " + r.tcpSeq() + ": estimate " + est + " < true loss " + truth);
            if (collisionFree[f]) {
                assertEquals(truth, est, "collision-free flow " + f + " seq " + r.tcpSeq());
            }
            stats[0]++;
            if (est == truth) {
                stats[1]++;
            } else {
                stats[2]++;
            }
        });
        MidstTraffic t = new MidstTraffic(MidstTestTraffic.spec(flows, 1.6, 4_000, 3, 2_000_000, seed));
        PacketRecord r = PacketRecord.allocate();
        long arrivals = 0;
        while (t.next(r)) {
            sw.engine().arrive(sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
            arrivals++;
        }
        sw.engine().drain();
        sw.engine().checkConservation();
        return new Outcome(stats[0], stats[1], stats[2], arrivals - stats[0]);
    }

    /** Flows that own at least one row cell alone (no other flow of the trace maps there). */
    private static boolean[] collisionFree(MidstConfig cfg, int flows) {
        MidstReference ref = new MidstReference(cfg);
        int[][] idx = new int[flows][cfg.rows()];
        for (int f = 0; f < flows; f++) {
            for (int i = 0; i < cfg.rows(); i++) {
                idx[f][i] = ref.index(i, MidstTraffic.FLOW_BASE + f, MidstTraffic.DST, PacketRecord.PROTO_TCP,
                        MidstTraffic.SRC_PORT_BASE + f, MidstTraffic.DST_PORT);
            }
        }
        boolean[] free = new boolean[flows];
        for (int i = 0; i < cfg.rows(); i++) {
            int[] uses = new int[cfg.columns()];
            for (int f = 0; f < flows; f++) {
                uses[idx[f][i]]++;
            }
            for (int f = 0; f < flows; f++) {
                free[f] |= uses[idx[f][i]] == 1;
            }
        }
        return free;
    }

    @Test
    void exactWithoutCollisionsAndNeverBelowTheTruth() {
        MidstConfig cfg = MidstConfig.defaults().withRows(3, 4096);
        int flows = 60;
        boolean[] free = collisionFree(cfg, flows);
        for (boolean b : free) {
            assertTrue(b, "test set-up: every flow should own a cell in some row");
        }
        Outcome o = run(cfg, flows, 11, free);
        assertTrue(o.drops() > 1_000, "the port must be congested: drops " + o.drops());
        assertEquals(o.departures(), o.exact());
    }

    @Test
    void neverUnderestimatesUnderHeavyCollisions() {
        // 600 flows into 64 counters per row: most cells are shared, estimates overshoot but never undershoot
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 64);
        int flows = 600;
        boolean[] free = collisionFree(cfg, flows);
        Outcome o = run(cfg, flows, 12, free);
        assertTrue(o.drops() > 1_000);
        assertTrue(o.over() > 0, "collisions should make some estimates too high");
        Set<Boolean> seen = new HashSet<>();
        for (boolean b : free) {
            seen.add(b);
        }
        assertTrue(seen.contains(false));
    }
}

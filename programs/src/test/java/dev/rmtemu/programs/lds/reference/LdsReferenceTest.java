package dev.rmtemu.programs.lds.reference;

import dev.rmtemu.programs.lds.control.FlowEstimate;
import dev.rmtemu.programs.lds.control.LdsEstimator;
import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.experiment.LdsDimensioning;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsHashes;
import dev.rmtemu.programs.lds.program.LdsWeights;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class LdsReferenceTest {
    /** A packet of flow {@code f}, its {@code i}-th. */
    public static PacketRecord packet(int f, int i) {
        return PacketRecord.allocate().ipVersion(4).protocol(PacketRecord.PROTO_UDP)
                .srcIpv4(0x0A000000 + f).dstIpv4(0x64000001).srcPort(1000 + f).dstPort(53)
                .ipId(i & 0xFFFF).payloadHash(0x1000 * f + i + 1).wireLength(100);
    }

    /** Flows whose vLDA cells overlap no other flow's in any row. */
    static List<Integer> collisionFree(LdsConfig cfg, int wanted) {
        boolean[][] used = new boolean[cfg.rows()][cfg.cells()];
        List<Integer> out = new ArrayList<>();
        for (int f = 0; out.size() < wanted; f++) {
            PacketRecord p = packet(f, 0);
            boolean free = true;
            int[] base = new int[cfg.rows()];
            for (int r = 0; r < cfg.rows(); r++) {
                base[r] = (int) (LdsHashes.flow(LdsHashes.row(r), p) % cfg.cells());
                for (int j = 0; j < cfg.ldaCells(); j++) {
                    free &= !used[r][(base[r] + j) % cfg.cells()];
                }
            }
            if (free) {
                for (int r = 0; r < cfg.rows(); r++) {
                    for (int j = 0; j < cfg.ldaCells(); j++) {
                        used[r][(base[r] + j) % cfg.cells()] = true;
                    }
                }
                out.add(f);
            }
        }
        return out;
    }

    private static FlowEstimate estimate(LdsEstimator e, int f) {
        PacketRecord p = packet(f, 0);
        return e.estimate(p.srcIpv4(), p.dstIpv4(), p.protocol(), p.srcPort(), p.dstPort(), new FlowEstimate());
    }

    @Test
    void noCollisionsNoLossGivesTheExactMeanDelay() {
        LdsConfig cfg = LdsConfig.singleRate(4, 4096, 1, 1.0);
        List<Integer> flows = collisionFree(cfg, 40);
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        SplitMix64 rng = new SplitMix64(7);
        long[] delaySum = new long[flows.size()];
        int[] packets = new int[flows.size()];
        long t = 1_000_000;
        for (int step = 0; step < 20_000; step++) {
            int i = rng.nextInt(flows.size());
            PacketRecord p = packet(flows.get(i), packets[i]);
            long delay = 1_000 + rng.nextInt(500_000); // uncorrelated, integer ns
            keys.of(p);
            tx.record(keys, t);
            rx.record(keys, t + delay);
            delaySum[i] += delay;
            packets[i]++;
            t += 1 + rng.nextInt(100);
        }
        LdsEstimator est = new LdsEstimator(tx, rx);
        for (int i = 0; i < flows.size(); i++) {
            FlowEstimate e = estimate(est, flows.get(i));
            assertEquals((double) delaySum[i] / packets[i], e.meanDelayNs, 0.0, "flow " + flows.get(i));
            assertEquals(4, e.keptCells);
            assertEquals(packets[i], e.packetsSent, 0.0);
            assertEquals(0, e.packetsLost, 0.0);
        }
    }

    @Test
    void aLostPacketInvalidatesExactlyTheCellsItTouched() {
        LdsConfig cfg = LdsConfig.singleRate(4, 512, 5, 1.0);
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        int lostIndex = 777;
        int[] lostCells = new int[cfg.rows()];
        for (int i = 0; i < 2_000; i++) {
            keys.of(packet(i % 37, i));
            tx.record(keys, 10L * i);
            if (i == lostIndex) {
                for (int r = 0; r < cfg.rows(); r++) {
                    lostCells[r] = keys.cell(r);
                }
            } else {
                rx.record(keys, 10L * i + 3);
            }
        }
        for (int r = 0; r < cfg.rows(); r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                boolean touched = c == lostCells[r];
                if (tx.count(r, c) != 0) {
                    assertEquals(!touched, LdsSketch.usable(tx, rx, r, c), "row " + r + " cell " + c);
                }
            }
        }
        // the loss shows in the flow's loss estimate
        int lostFlow = lostIndex % 37;
        FlowEstimate e = estimate(new LdsEstimator(tx, rx), lostFlow);
        assertTrue(e.packetsLost >= 1);
    }

    @Test
    void reorderingInvalidatesCellsOnlyAcrossAnIntervalBoundary() {
        LdsConfig cfg = LdsConfig.singleRate(4, 256, 5, 1.0);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        // within one interval: sums, counts and XORs do not depend on order
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        for (int i = 0; i < 300; i++) {
            keys.of(packet(i % 11, i));
            tx.record(keys, 100L * i);
        }
        for (int i = 299; i >= 0; i--) {
            keys.of(packet(i % 11, i));
            rx.record(keys, 100L * i + 50);
        }
        for (int r = 0; r < cfg.rows(); r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                assertEquals(tx.count(r, c) != 0, LdsSketch.usable(tx, rx, r, c));
            }
        }
        // the last packet of interval 1 overtaken into interval 2: its cells are spoiled in both
        LdsSketch tx2 = new LdsSketch(cfg);
        LdsSketch rx1 = new LdsSketch(cfg);
        LdsSketch rx2 = new LdsSketch(cfg);
        for (int i = 0; i < 299; i++) {
            keys.of(packet(i % 11, i));
            rx1.record(keys, 100L * i + 50);
        }
        keys.of(packet(299 % 11, 299));
        int[] cells = new int[cfg.rows()];
        for (int r = 0; r < cfg.rows(); r++) {
            cells[r] = keys.cell(r);
        }
        rx2.record(keys, 100L * 299 + 50);
        for (int i = 300; i < 400; i++) {
            keys.of(packet(i % 11, i));
            tx2.record(keys, 100L * i);
            rx2.record(keys, 100L * i + 50);
        }
        for (int r = 0; r < cfg.rows(); r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                if (c == cells[r]) {
                    assertFalse(LdsSketch.usable(tx, rx1, r, c));
                    assertFalse(tx2.count(r, c) != 0 && LdsSketch.usable(tx2, rx2, r, c));
                } else {
                    assertEquals(tx.count(r, c) != 0, LdsSketch.usable(tx, rx1, r, c), "interval 1 row " + r + " cell " + c);
                    assertEquals(tx2.count(r, c) != 0, LdsSketch.usable(tx2, rx2, r, c), "interval 2 row " + r + " cell " + c);
                }
            }
        }
    }

    @Test
    void keptCellsFilterOutACollidingHeavierFlow() {
        // two flows forced into one row-0 cell by a 1-cell row; the other rows keep them apart
        LdsConfig cfg = LdsConfig.singleRate(2, 1, 1, 1.0);
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        for (int i = 0; i < 10; i++) {
            keys.of(packet(1, i));
            tx.record(keys, i);
            rx.record(keys, i + 100);
        }
        FlowEstimate e = estimate(new LdsEstimator(tx, rx), 1);
        assertEquals(100.0, e.meanDelayNs, 0.0);
        // now a heavier flow shares every cell: the (1 + α) N_min filter keeps the least loaded
        LdsConfig wide = LdsConfig.singleRate(4, 64, 1, 1.0);
        List<Integer> pair = collisionFree(wide, 2);
        tx = new LdsSketch(wide);
        rx = new LdsSketch(wide);
        keys = new LdsPacketKeys(wide);
        for (int i = 0; i < 50; i++) {
            keys.of(packet(pair.get(0), i));
            tx.record(keys, 1000L * i);
            rx.record(keys, 1000L * i + 200);
        }
        assertEquals(200.0, estimate(new LdsEstimator(tx, rx), pair.get(0)).meanDelayNs, 0.0);
    }

    @Test
    void weightsScaleCountsButNotTheMeanOrTheSize() {
        LdsWeights heavy = new LdsWeights(new double[] {1.0}, new long[] {25}, new String[] {"silver"});
        LdsConfig cfg = LdsConfig.singleRate(4, 4096, 1, 1.0).withWeights(heavy);
        List<Integer> flows = collisionFree(cfg, 3);
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        long sum = 0;
        for (int i = 0; i < 30; i++) {
            keys.of(packet(flows.get(0), i));
            assertEquals(25, keys.weight());
            tx.record(keys, 10_000L + i);
            rx.record(keys, 10_000L + i + 7 * i);
            sum += 7 * i;
        }
        FlowEstimate e = estimate(new LdsEstimator(tx, rx), flows.get(0));
        assertEquals(sum / 30.0, e.meanDelayNs, 1e-9);
        assertEquals(30, e.packetsSent, 0.0);
        assertEquals(25 * 30, tx.count(0, keys.cell(0)));
    }

    @Test
    void varianceFromTheSpreadOfCellAverages() {
        LdsConfig cfg = LdsConfig.singleRate(1, 1024, 32, 1.0);
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        LdsPacketKeys keys = new LdsPacketKeys(cfg);
        SplitMix64 rng = new SplitMix64(3);
        double sum = 0;
        double sq = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            long d = 50_000 + Math.round(5_000 * rng.nextGaussian());
            keys.of(packet(5, i));
            tx.record(keys, 1_000L * i);
            rx.record(keys, 1_000L * i + d);
            sum += d;
            sq += (double) d * d;
        }
        double var = sq / n - (sum / n) * (sum / n);
        LdsConfig alphaAll = new LdsConfig(1, 1024, 32, new double[] {1.0}, 10.0, LdsWeights.NONE);
        LdsSketch tx2 = copy(tx, alphaAll);
        LdsSketch rx2 = copy(rx, alphaAll);
        FlowEstimate e = estimate(new LdsEstimator(tx2, rx2), 5);
        assertEquals(32, e.keptCells);
        assertEquals(sum / n, e.meanDelayNs, 1e-6);
        assertEquals(var, e.delayVariance, 0.35 * var, "spread of 32 cell means estimates the variance");
    }

    private static LdsSketch copy(LdsSketch from, LdsConfig shape) {
        LdsSketch s = new LdsSketch(shape);
        for (int r = 0; r < shape.rows(); r++) {
            for (int c = 0; c < shape.cells(); c++) {
                s.set(r, c, from.sum(r, c), from.count(r, c), from.digest(r, c));
            }
        }
        return s;
    }

    @Test
    void samplingIsConsistentAndNested() {
        LdsConfig cfg = LdsConfig.multiBank(1024, 5);
        LdsPacketKeys a = new LdsPacketKeys(cfg);
        LdsPacketKeys b = new LdsPacketKeys(cfg);
        int[] kept = new int[cfg.rows()];
        int n = 50_000;
        for (int i = 0; i < n; i++) {
            PacketRecord p = packet(i % 100, i);
            a.of(p);
            b.of(PacketRecord.allocate().copyFrom(p).timestampNs(12345)); // the other end, another time
            for (int r = 0; r < cfg.rows(); r++) {
                assertEquals(a.sampled(r), b.sampled(r));
                assertEquals(a.cell(r), b.cell(r));
                if (r > 0 && a.sampled(r - 1)) {
                    assertTrue(a.sampled(r), "a lower rate keeps a subset of a higher one");
                }
                kept[r] += a.sampled(r) ? 1 : 0;
            }
        }
        for (int r = 0; r < cfg.rows(); r++) {
            assertEquals(cfg.samplingRate(r), (double) kept[r] / n, 0.01 + 0.1 * cfg.samplingRate(r), "row " + r);
        }
    }

    @Test
    void dimensioningFollowsThePaper() {
        assertEquals(5, LdsDimensioning.rows(0.01));
        assertEquals(-1 / (Math.E * Math.log(0.01)), LdsDimensioning.maxLoad(0.01), 1e-12);
        assertEquals((int) Math.ceil(100_000 * 0.1 / LdsDimensioning.maxLoad(0.01)), LdsDimensioning.cellsPerRow(100_000, 0.1, 0.01));
    }

    @Test
    void simpleDelaySketchTakesTheLeastSharedRow() {
        SimpleDelaySketch s = new SimpleDelaySketch(2, 8);
        long[] a = {3, 5};
        long[] b = {3, 6};
        for (int i = 0; i < 10; i++) {
            s.record(a, 100);
        }
        s.record(b, 1_000);
        assertEquals(1_000.0, s.estimate(b), 0.0); // row 1 is b's alone
        assertEquals(100.0, s.estimate(a), 0.0);
        assertTrue(Double.isNaN(s.estimate(new long[] {4, 4})));
    }
}

package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsHashes;
import dev.rmtemu.programs.lds.program.LdsIntervals;

import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LDS on an emulated tofino1 (ingress → priority queues over two ports → egress), exported through the journal. */
class LdsSwitchTest {
    /** Per flow: 5-tuple, packets received, delay sum (ns), packets sent. */
    static final class Truth {
        final PacketRecord key = PacketRecord.allocate();
        long received;
        long delaySum;
        long sent;
    }

    @Test
    void estimatesFromTheJournalMatchTheSwitchsOwnDelays(@TempDir Path dir) {
        // a large sketch with k = 1: flows rarely share a cell, so most estimates are exact
        LdsConfig cfg = LdsConfig.singleRate(4, 8192, 1, 1.0);
        LdsSwitch sw = new LdsSwitch(cfg, TargetProfiles.builtIn("tofino1"), 2, 0.3, 25, 400, 4);
        Field egressTs = sw.pipeline().program.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        TreeMap<Long, Truth> truth = new TreeMap<>();
        sw.onDeparture((cycle, port, slot, pool) -> {
            PacketRecord r = pool.record(slot);
            Truth t = truth.get(key(r));
            long sent = sw.engine().clock().cyclesToNs(pool.arrivalCycle(slot));
            t.received++;
            t.delaySum += pool.phv(slot).get(egressTs) - sent;
        });
        long start = -1;
        try (PacketSource src = TraceSpec.open("gen:isp?packets=30000&flows=300&ipv6=0&seed=5&load=0.6&dist=zipf&gbps=100")) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                start = start < 0 ? r.timestampNs() : start;
                Truth t = truth.computeIfAbsent(key(r), k -> new Truth());
                t.key.copyFrom(r);
                t.sent++;
                sw.arrive(r, start);
            }
        }
        sw.drain();
        JournalKinds kinds = new JournalKinds();
        LdsCollector.registerKinds(kinds);
        try (ExportJournal j = ExportJournal.create(dir, kinds)) {
            assertEquals(4 * 8, sw.exportSender(j, 7));
        }
        LdsEstimator est = sw.estimatorFromJournal(dir.resolve("journal"), 7);
        assertTrue(LdsCollector.importSender(dir.resolve("journal"), cfg, 7, LdsSwitch.SWITCH_ID).sameContents(sw.senderSketch()));

        FlowEstimate e = new FlowEstimate();
        int flows = 0;
        int exact = 0;
        int lossy = 0;
        List<Double> means = new ArrayList<>();
        for (Truth t : truth.values()) {
            PacketRecord k = t.key;
            est.estimate(k.srcIpv4(), k.dstIpv4(), k.protocol(), k.srcPort(), k.dstPort(), e);
            flows++;
            if (t.received < t.sent) {
                lossy++;
            }
            if (t.received == 0 || !e.hasDelay()) {
                continue;
            }
            double mean = (double) t.delaySum / t.received;
            assertEquals(mean, e.meanDelayNs, 0.05 * mean + 1, "flow " + k);
            if (e.meanDelayNs == mean) {
                exact++;
            }
            means.add(mean);
        }
        assertTrue(exact >= 0.9 * (flows - lossy), exact + " exact of " + flows + " (" + lossy + " with drops)");
        assertTrue(flows >= 250);
        // the two queues give the flows different delays: the spread is wide
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double m : means) {
            min = Math.min(min, m);
            max = Math.max(max, m);
        }
        assertTrue(max > 5 * min, "per-flow mean delays from " + min + " to " + max + " ns");
    }

    /** Interval length for the multi-interval test: 2^16 ns ≈ 66 µs (the generated trace lasts a few hundred µs). */
    static final int INTERVAL_SHIFT = 16;

    @Test
    void everyIntervalsEstimateIsItsOwnMeanDelayAndBoundaryPacketsKeepCellsUsable(@TempDir Path dir) {
        // few flows in a large sketch (k = 1): most flows share no cell with another in any row
        LdsConfig cfg = LdsConfig.singleRate(4, 4096, 1, 1.0);
        LdsIntervals iv = new LdsIntervals(INTERVAL_SHIFT);
        // deep queues: no drops, so every cell's n and d can match
        LdsSwitch sw = new LdsSwitch(cfg, TargetProfiles.builtIn("tofino1"), 2, 0.3, 40, 20_000, 4, iv);
        Field egressTs = sw.pipeline().program.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
        List<PacketRecord> packets = new ArrayList<>();
        try (PacketSource src = TraceSpec.open("gen:isp?packets=20000&flows=120&ipv6=0&seed=9&load=0.3&dist=zipf&gbps=100")) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                PacketRecord c = PacketRecord.allocate();
                c.copyFrom(r);
                packets.add(c);
            }
        }
        long start = packets.get(0).timestampNs();
        int intervals = (int) iv.index(packets.get(packets.size() - 1).timestampNs() - start) + 1;
        assertTrue(intervals >= 4, intervals + " intervals");
        // per interval of the send and flow: packets, delay sum, packets received in a later interval
        List<TreeMap<Long, long[]>> truth = new ArrayList<>();
        for (int i = 0; i < intervals + 1; i++) {
            truth.add(new TreeMap<>());
        }
        TreeMap<Long, PacketRecord> flows = new TreeMap<>();
        JournalKinds kinds = new JournalKinds();
        LdsCollector.registerKinds(kinds);
        int[] crossed = {0};
        try (ExportJournal j = ExportJournal.create(dir, kinds)) {
            sw.scheduleIntervals(intervals, j);
            sw.onDeparture((cycle, port, slot, pool) -> {
                long sent = sw.engine().clock().cyclesToNs(pool.arrivalCycle(slot));
                long received = pool.phv(slot).get(egressTs);
                long[] t = truth.get((int) iv.index(sent)).computeIfAbsent(key(pool.record(slot)), k -> new long[3]);
                t[0]++;
                t[1] += received - sent;
                if (iv.index(received) != iv.index(sent)) {
                    t[2]++;
                    crossed[0]++;
                }
            });
            for (PacketRecord r : packets) {
                flows.putIfAbsent(key(r), r);
                sw.arrive(r, start);
            }
            sw.drain();
        }
        assertEquals(0, sw.engine().counters().droppedTotal(), "no drops");
        assertTrue(crossed[0] > 0, "some packets cross an interval boundary");
        // every interval was closed: the registers are clear
        assertTrue(sw.senderSketch().sameContents(new LdsSketch(cfg)) && sw.receiverSketch().sameContents(new LdsSketch(cfg)));

        FlowEstimate e = new FlowEstimate();
        int exact = 0;
        int pairs = 0;
        int exactWithCrossing = 0;
        for (int i = 0; i < intervals; i++) {
            LdsEstimator est = sw.estimatorFromJournal(dir.resolve("journal"), i);
            TreeMap<Long, long[]> mine = truth.get(i);
            for (var f : mine.entrySet()) {
                PacketRecord k = flows.get(f.getKey());
                long[] t = f.getValue();
                pairs++;
                if (!alone(f.getKey(), mine.keySet(), flows, cfg)) {
                    continue;
                }
                // no collision in any row: the estimate is the interval's exact mean delay
                est.estimate(k.srcIpv4(), k.dstIpv4(), k.protocol(), k.srcPort(), k.dstPort(), e);
                assertEquals((double) t[1] / t[0], e.meanDelayNs, 1e-9, "interval " + i + ", flow " + k);
                assertEquals(4, e.keptCells);
                assertEquals(t[0], e.packetsSent, 0);
                exact++;
                exactWithCrossing += t[2] > 0 ? 1 : 0;
            }
        }
        assertTrue(exact >= 0.8 * pairs && exact < pairs, exact + " of " + pairs + " (interval, flow) pairs alone in their cells");
        assertTrue(exactWithCrossing > 0, "a flow with a packet received in the next interval is still exact");
    }

    /** True when no other flow of the interval shares a cell with {@code me} in any row (k = 1). */
    static boolean alone(long me, java.util.Set<Long> active, TreeMap<Long, PacketRecord> flows, LdsConfig cfg) {
        for (int row = 0; row < cfg.rows(); row++) {
            long mine = LdsHashes.flow(LdsHashes.row(row), flows.get(me)) % cfg.cells();
            for (long other : active) {
                if (other != me && LdsHashes.flow(LdsHashes.row(row), flows.get(other)) % cfg.cells() == mine) {
                    return false;
                }
            }
        }
        return true;
    }

    static long key(PacketRecord r) {
        return LdsPacketKeys.tupleKey(r);
    }
}

package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;
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
        try (PacketSource src = TraceSpec.open("gen:isp?packets=30000&flows=300&ipv6=0&seed=5&load=0.6")) {
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

    static long key(PacketRecord r) {
        return LdsTrace.tupleKey(r);
    }
}

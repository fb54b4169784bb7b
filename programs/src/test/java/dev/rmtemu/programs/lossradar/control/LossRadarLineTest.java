package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.MeterDigest;

import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.impair.BernoulliLoss;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** UM and DM stage programs on tofino1 in a two-switch line with a lossy link, against the plain-Java meters and the link's ground truth. */
class LossRadarLineTest {
    /** Batches of 2^16 ns = 65.5 µs so a short trace spans several. */
    static LossRadarConfig small() {
        return new LossRadarConfig(3, 96, 4, 16, 10_000, false, false, false, 0, 1);
    }

    static RecordBuffer trace(int packets, long seed) {
        try (PacketSource s = TraceSpec.open("gen:tcp?packets=" + packets + "&flows=64&seed=" + seed + "&start=0&load=0.5")) {
            return RecordBuffer.load(s, packets);
        }
    }

    private static Map<String, IbfDigest> byKey(List<MeterDigest> ds) {
        Map<String, IbfDigest> m = new TreeMap<>();
        for (MeterDigest d : ds) {
            m.merge(d.switchId() + "/" + MeterDigest.roleName(d.role()) + "/" + d.port() + "/" + d.batch() + "/m" + d.meter(), d.digest(),
                    (x, y) -> {
                        IbfDigest s = x.copy();
                        s.add(y);
                        return s;
                    });
        }
        return m;
    }

    private static void checkRun(LossRadarConfig c, long seed, double loss, Path dir) {
        checkRun(new LossRadarLine(c, "tofino1", true), seed, loss, dir);
    }

    private static void checkRun(LossRadarLine line, long seed, double loss, Path dir) {
        LossRadarLine.Result r = line.run(trace(6000, seed), new BernoulliLoss(loss, seed), dir);
        Map<String, IbfDigest> sw = byKey(r.switchDigests());
        Map<String, IbfDigest> ref = byKey(r.referenceDigests());
        assertEquals(ref.keySet(), sw.keySet(), "seed " + seed + ": the same meters and batches were exported");
        for (String k : ref.keySet()) {
            assertEquals(ref.get(k), sw.get(k), "seed " + seed + ": digest " + k);
        }
        assertTrue(sw.size() >= 6, "several batches: " + sw.keySet());
        assertFalse(r.groundTruth().isEmpty());
        assertEquals(r.groundTruth().size(), LossRadarCollector.counted(r.reports()), "every loss counted");
        for (LossRadarCollector.BatchReport b : r.reports()) {
            assertTrue(b.result().complete(), "batch " + b.batch() + ": " + b.result().summary());
        }
        assertEquals(r.groundTruth(), LossRadarCollector.lost(r.reports()), "seed " + seed + ": decoded == dropped");
        assertEquals(r.linkCarried() - r.groundTruth().size(), r.deliveredByB());
    }

    @Test
    void stageProgramsEqualTheReferenceAndDecodeTheDroppedPackets(@TempDir Path dir) {
        for (long seed = 1; seed <= 3; seed++) {
            checkRun(small(), seed, 0.004, dir.resolve("run" + seed));
        }
    }

    /**
     * The upstream meter sits at the end of ingress, before the queue (LossRadar, CoNEXT 2016,
     * Section 3 and Figure 4), so it runs in the pipe of the port a packet arrived on, while it is
     * filed under the port the packet leaves by. With hosts on ports of all four tofino1 pipes the
     * UM's digest of the egress port is spread over four ingress pipes; reading only the egress
     * port's pipe decoded nothing (a run of 1,342 losses decoded 0 and counted −130,944).
     */
    @Test
    void sendersInAllFourPipesDecodeEveryLoss(@TempDir Path dir) {
        int[] ports = {0, 16, 32, 48}; // tofino1: 16 ports per pipe
        LossRadarLine line = new LossRadarLine(small(), "tofino1", true).hostPorts(ports);
        int[] perPort = new int[4];
        RecordBuffer t = trace(6000, 21);
        for (int i = 0; i < t.size(); i++) {
            perPort[line.hostPort(t.get(i)) / 16]++;
        }
        for (int p = 0; p < 4; p++) {
            assertTrue(perPort[p] > 500, "pipe " + p + " sends " + perPort[p] + " packets");
        }
        checkRun(line, 21, 0.004, dir);
    }

    @Test
    void timestampTtlAndSynBitsInTheSignature(@TempDir Path dir) {
        LossRadarConfig c = small().withOptions(true, true, true);
        assertEquals(5, c.words());
        checkRun(c, 9, 0.004, dir);
    }

    @Test
    void blackBoxMeterIdsTravelAndTheDmFilesByThem(@TempDir Path dir) {
        LossRadarConfig c = small().withMeters(3, 2);
        checkRun(c, 11, 0.004, dir.resolve("bb"));
        LossRadarLine.Result r = new LossRadarLine(c, "tofino1", true).run(trace(3000, 12), new BernoulliLoss(0.004, 12), dir.resolve("bb2"));
        for (MeterDigest d : r.switchDigests()) {
            assertEquals(2, d.meter(), "every digest is meter 2's: " + d);
        }
    }

    @Test
    void aclDropsCancelAndAreNotReported(@TempDir Path dir) {
        RecordBuffer t = trace(6000, 4);
        int victim = t.get(0).dstIpv4();
        LossRadarLine line = new LossRadarLine(small(), "tofino1", true)
                .acl(new LossRadarLine.AclRule(victim, 0xFFFFFFFF, 0, 10));
        LossRadarLine.Result r = line.run(t, new BernoulliLoss(0.004, 4), dir);
        assertTrue(r.aclDropped() > 0, "the ACL dropped packets");
        List<LostPacket> lost = LossRadarCollector.lost(r.reports());
        assertEquals(r.groundTruth(), lost, "only link losses are reported");
        assertEquals(r.linkCarried() - r.groundTruth().size() - r.aclDropped(), r.deliveredByB());
    }

    @Test
    void tooManyLossesForTheDigestAreCountedNotMisreported(@TempDir Path dir) {
        LossRadarConfig c = new LossRadarConfig(3, 12, 4, 16, 10_000, false, false, false, 0, 1);
        LossRadarLine.Result r = new LossRadarLine(c, "tofino1", true).run(trace(6000, 7), new BernoulliLoss(0.02, 7), dir);
        assertEquals(r.groundTruth().size(), LossRadarCollector.counted(r.reports()));
        boolean someIncomplete = false;
        for (LossRadarCollector.BatchReport b : r.reports()) {
            someIncomplete |= !b.result().complete();
            for (LostPacket p : b.result().lost()) {
                assertTrue(r.groundTruth().contains(p), "decoded only lost packets");
            }
        }
        assertTrue(someIncomplete, "12 cells cannot hold a 2% loss batch");
    }
}

package dev.rmtemu.programs.lossradar.experiment;

import dev.rmtemu.programs.lossradar.control.RootCause;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LossRadarExperimentTest {
    private static Map<String, String> small() {
        Map<String, String> o = new TreeMap<>();
        o.put("a_losses", "60");
        o.put("a_ratios", "1.1,3.0");
        o.put("a_trials", "20");
        o.put("a_trace", "gen:tcp?packets=3000&flows=6&seed=4&start=0");
        o.put("m_gbps", "1");
        o.put("m_packet_bytes", "1000");
        o.put("m_batch_ms", "10");
        o.put("m_trials", "20");
        o.put("r_rules", "200");
        o.put("r_trials", "5");
        o.put("c_ms", "40");
        o.put("c_bursts", "2");
        o.put("c_burst_packets", "400");
        o.put("c_cells", "768");
        o.put("d_cells", "96");
        o.put("d_ports", "4");
        o.put("l_packets", "3000");
        o.put("b_ms", "20");
        o.put("b_cells", "48,384");
        o.put("b_bursts", "1");
        o.put("b_burst_packets", "200");
        o.put("f_ms", "1");
        o.put("f_cells", "96");
        o.put("f_burst_packets", "300");
        return o;
    }

    private static String run(Map<String, String> o, boolean json) {
        StringWriter s = new StringWriter();
        assertEquals(0, new LossRadarExperiment().run(o, json, new PrintWriter(s), new PrintWriter(new StringWriter())));
        return s.toString();
    }

    @Test
    void smallRunIsDeterministicAndConsistent() {
        String first = run(small(), true);
        assertEquals(first, run(small(), true), "same options, same bytes");
        assertTrue(first.contains("\"equals_reference\":true"), first);
        assertTrue(first.contains("\"line\":[{\"ingress_pipes\":1,") && first.contains("},{\"ingress_pipes\":4,"), first);
        String text = run(small(), false);
        assertTrue(text.contains("digests == plain-Java meters: true"), text);
    }

    /**
     * Part (l) has a row with the senders on one port and a row with a sender port in each of
     * tofino1's four pipes (the upstream meter runs in the arrival port's ingress pipe: LossRadar,
     * CoNEXT 2016, Section 3, Figure 4); in both every loss is decoded and counted.
     */
    @Test
    void lineRowsWithSendersInOneAndInAllFourPipesDecodeEveryLoss() {
        Map<String, String> o = LossRadarOptions.DEFAULTS.entrySet().stream().collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (x, y) -> x, TreeMap::new));
        o.put("l_packets", "3000");
        List<LossRadarExperiment.LineRow> rows = LossRadarExperiment.lines(LossRadarOptions.parse(o), 3, 1);
        assertEquals(2, rows.size());
        assertEquals(1, rows.get(0).ingressPipes());
        assertEquals(4, rows.get(1).ingressPipes());
        for (LossRadarExperiment.LineRow r : rows) {
            assertTrue(r.lost() > 0, r.toString());
            assertEquals(r.lost(), r.decoded(), r.toString());
            assertEquals(r.lost(), r.counted(), r.toString());
            assertTrue(r.equalsReference(), r.toString());
        }
    }

    @Test
    void decodeSucceedsWithRoomAndFailsWithout() {
        Map<String, String> o = small();
        List<LossRadarExperiment.DecodeRow> rows = LossRadarExperiment.decode(LossRadarOptions.parse(Map.of(
                "a_losses", "60", "a_ratios", "1.1,3.0", "a_trials", "20", "a_trace", PACKET_TRACE)), 3, 1);
        assertEquals(4, rows.size());
        for (int i = 0; i < 4; i++) {
            LossRadarExperiment.DecodeRow r = rows.get(i);
            assertEquals(i < 2 ? LossRadarExperiment.SIG_RANDOM : LossRadarExperiment.SIG_PACKETS, r.signatures());
            if (i % 2 == 0) {
                assertTrue(r.complete() < r.trials() / 2, "1.1x cells for 60 losses rarely decode: " + r);
            } else {
                assertTrue(r.complete() >= 18, "3x cells nearly always decode: " + r);
            }
        }
    }

    /**
     * (m): 1 Gb/s of 1,000-byte packets is 1,250 packets per 10 ms batch; at 1 % that is 13
     * losses (50 in a 40 ms batch, 50 at 4 %); each row's digest is k times a power of two
     * cells, decodes in every trial, and a longer batch or a higher loss rate needs at least
     * as much; the report rate is one digest per batch.
     */
    @Test
    void memoryGrowsWithLossRateAndBatchLength() {
        Map<String, String> o = new TreeMap<>(Map.of("m_gbps", "1", "m_packet_bytes", "1000", "m_loss", "0.01,0.04",
                "m_batch_ms", "10,40", "m_trials", "20", "m_decode", "1", "a_trace", PACKET_TRACE));
        List<LossRadarExperiment.LossRateRow> rows = LossRadarExperiment.lossRates(LossRadarOptions.parse(o), 3, 1);
        assertEquals(4, rows.size());
        int[] losses = {13, 50, 50, 200};
        long[] packets = {1250, 5000, 1250, 5000};
        for (int i = 0; i < 4; i++) {
            LossRadarExperiment.LossRateRow r = rows.get(i);
            assertEquals(losses[i], r.losses(), r.toString());
            assertEquals(packets[i], r.packets(), r.toString());
            assertEquals(20, r.complete(), r.toString());
            assertEquals(1, Integer.bitCount(r.cells() / 3), "k x 2^i cells: " + r);
            assertEquals(r.cells() * 5 * 4, r.digestBytes());
            assertEquals(r.digestBytes() * 8 / (r.batchMs() / 1000) / 1e6, r.mbps(), 1e-9);
            assertTrue(r.cells() >= r.losses(), "a digest holds at least one cell per loss: " + r);
        }
        assertTrue(rows.get(1).cells() > rows.get(0).cells(), "a 4x longer batch needs a larger digest");
        assertTrue(rows.get(3).cells() > rows.get(2).cells());
        assertTrue(rows.get(2).cells() > rows.get(0).cells(), "a 4x loss rate needs a larger digest");
        assertEquals(rows.get(1).cells(), rows.get(2).cells(), "50 losses per batch need the same digest either way");
    }

    private static final String PACKET_TRACE = "gen:tcp?packets=3000&flows=6&seed=4&start=0";

    /**
     * The 'packets' rows of (a) are digests of n consecutive packets of the trace (one
     * flow here: consecutive IP IDs, the case where CRC indexes of near-identical
     * signatures could collide), next to the random rows; a trace shorter than the
     * largest loss count is refused.
     */
    @Test
    void packetSignaturesComeFromTheTrace() {
        List<LossRadarExperiment.DecodeRow> rows = LossRadarExperiment.decode(LossRadarOptions.parse(Map.of(
                "a_losses", "40", "a_ratios", "4.0", "a_trials", "10", "a_trace", "gen:tcp?packets=200&flows=1&seed=4&start=0")), 3, 1);
        assertEquals(LossRadarExperiment.SIG_RANDOM, rows.get(0).signatures());
        assertEquals(10, rows.get(0).complete(), "4x cells: random signatures always decode");
        assertEquals(LossRadarExperiment.SIG_PACKETS, rows.get(1).signatures());
        assertEquals(10, rows.get(1).complete(), "one flow, consecutive IP IDs: distinct signatures decode as well");
        assertThrows(dev.rmtemu.model.UserError.class, () -> LossRadarExperiment.decode(LossRadarOptions.parse(Map.of(
                "a_losses", "400", "a_ratios", "2.0", "a_trials", "1", "a_trace", "gen:tcp?packets=200&flows=1&seed=4&start=0")), 3, 1));
    }

    @Test
    void fatTreeLossesAreAllDecodedWithRoomyDigests() {
        Map<String, String> o = new TreeMap<>(LossRadarOptions.DEFAULTS);
        o.putAll(Map.of("f_ms", "2", "f_cells", "6,192", "f_loss", "0.005", "f_burst_packets", "200"));
        List<LossRadarExperiment.SizeRow> rows = LossRadarExperiment.fatTree(LossRadarOptions.parse(o), 3, 2);
        LossRadarExperiment.SizeRow tiny = rows.get(0);
        LossRadarExperiment.SizeRow roomy = rows.get(1);
        assertTrue(roomy.lost() > 10, "fabric links lost packets: " + roomy.lost());
        assertEquals(roomy.lost(), roomy.decoded(), "every switch-to-switch loss decoded");
        assertEquals(roomy.batches(), roomy.batchesComplete());
        assertEquals(roomy.lost(), tiny.lost(), "the same run, other digests");
        assertTrue(tiny.decoded() < tiny.lost(), "6 cells per digest cannot hold them all: " + tiny);
    }

    @Test
    void blackholeLossesPointAtTheFlippedAclBit() {
        Map<String, String> o = new TreeMap<>(LossRadarOptions.DEFAULTS);
        o.putAll(small());
        o.put("c_ms", "60");
        LossRadarExperiment.CauseResult r = LossRadarExperiment.causes(LossRadarOptions.parse(o), 3, 1);
        LossRadarExperiment.CauseRow blackhole = r.rows().get(2); // after the coverage row and congestion
        assertEquals(RootCause.BLACKHOLE, blackhole.cause());
        assertTrue(blackhole.correct() > 0, "blackhole losses recognised: " + blackhole);
        assertEquals(List.of("rule 0 value dst bit 3", "rule 0 mask dst bit 3"), r.aclCandidates(), r.aclTruth());
        assertTrue(r.aclTruth().startsWith("rule 0 value dst bit 3"));
    }

    @Test
    void memoryIsCellsTimesWordsTimesBatchesTimesMeters() {
        List<LossRadarExperiment.MemoryRow> rows = LossRadarExperiment.memory(LossRadarOptions.parse(Map.of(
                "d_cells", "96", "d_ports", "4", "d_upstream", "16")), 3);
        LossRadarExperiment.MemoryRow r = rows.get(0);
        assertEquals(96 * 5 * 4, r.digestBytes());
        assertEquals(96 * 5 * 4 * 2 * 2 * 4, r.fullBytes());
        assertEquals(96 * 5 * 4 * 2 * (4 + 4 * 16), r.blackBoxBytes());
    }

    @Test
    void badOptionsAreOneLineErrors() {
        assertThrows(UserError.class, () -> run(Map.of("nope", "1"), false));
        assertThrows(UserError.class, () -> run(Map.of("part", "x"), false));
        assertThrows(UserError.class, () -> run(Map.of("a_trials", "many"), false));
    }

    /** (r) takes the paper's scale (up to its largest ACL, 200K rules) and refuses more with one line. */
    @Test
    void aclRuleCountAboveThePapersLargestIsRefused() {
        UserError e = assertThrows(UserError.class, () -> LossRadarExperiment.aclCorruption(
                LossRadarOptions.parse(Map.of("r_rules", "200001", "r_trials", "1")), 1));
        assertEquals("lossradar experiment: r_rules=200001 is more than 200000, the paper's largest ACL", e.getMessage());
    }
}

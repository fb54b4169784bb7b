package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.ReportCharts;
import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.MeterDigest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.programs.wbmon.control.WbmonCollector;
import dev.rmtemu.programs.wbmon.control.WbmonJournalDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu collect --json} decodes the programs' messages: a LossRadar line replay's
 * digests, read back with Jackson into the decoder's records, are the digests the collector
 * reads from the same journal; the run's LossRadar results are the same in report.json and
 * results/*.csv; a message of the wrong length keeps its hex and says why.
 */
class LossRadarCollectJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void digestsReadBackWithJacksonAreTheCollectorsDigests(@TempDir Path tmp) throws Exception {
        Path topo = tmp.resolve("line.yaml");
        Files.writeString(topo, LossRadarReplayCliTest.TOPOLOGY);
        Path run = tmp.resolve("run");
        LossRadarReplayCliTest.Run r = LossRadarReplayCliTest.replay(topo, run, "--param", "timestamp=1");
        assertEquals(0, r.code(), r.err());

        LossRadarReplayCliTest.Run c = LossRadarReplayCliTest.cli("collect", "--journal", run.toString(), "--json");
        assertEquals(0, c.code(), c.err());
        List<MeterDigest> expected = LossRadarCollector.read(run.resolve("journal"));
        List<JsonNode> messages = new ArrayList<>();
        for (String line : c.out().lines().toList()) {
            JsonNode n = JSON.readTree(line);
            if (n.has("kind")) {
                assertEquals(LossRadarExport.KIND_DIGEST, n.get("kind").asText());
                assertFalse(n.has("payload"), "decoded, not hex: " + line.substring(0, Math.min(200, line.length())));
                messages.add(n);
            }
        }
        assertEquals(expected.size(), messages.size());
        assertTrue(expected.size() >= 8, "digests of two meters per link direction: " + expected.size());
        for (int i = 0; i < expected.size(); i++) {
            MeterDigest want = expected.get(i);
            LossRadarJournalDecoder.Digest got = JSON.treeToValue(messages.get(i).get("message"), LossRadarJournalDecoder.Digest.class);
            assertEquals(want.switchId(), messages.get(i).get("switch").asInt());
            assertEquals(want.role() == MeterDigest.UM ? "um" : "dm", got.meter());
            assertEquals(want.port(), got.port());
            assertEquals(want.batch(), got.batch());
            assertEquals(want.meter(), got.meterId());
            IbfDigest rebuilt = new IbfDigest(got.hashes(), got.cellsPerHash(), got.words());
            for (LossRadarJournalDecoder.Cell cell : got.cells()) {
                rebuilt.setCount(cell.index(), (int) cell.count());
                for (int w = 0; w < got.words(); w++) {
                    rebuilt.setXorWord(cell.index(), w, (int) (long) cell.xorSum().get(w));
                }
            }
            assertEquals(want.digest(), rebuilt, "digest " + i);
            assertEquals(got.cells().size(), got.nonEmpty());
        }

        // the results: report.json's links and losses are the CSV's rows
        JsonNode results = JSON.readTree(run.resolve("report.json").toFile()).path("results").path("lossradar");
        assertTrue(results.path("timestamped").asBoolean());
        String links = Files.readString(run.resolve("results/lossradar_links.csv"));
        List<String> lines = links.lines().toList();
        assertEquals("link,batches,complete,counted,decoded,extra,link_lost,queue_drops,true_lost", lines.get(0));
        assertEquals(results.path("links").size() + 1, lines.size());
        long decoded = 0;
        for (int i = 0; i < results.path("links").size(); i++) {
            JsonNode l = results.path("links").get(i);
            assertEquals(String.join(",", l.path("link").asText(), l.path("batches").asText(), l.path("complete").asText(),
                    l.path("counted").asText(), l.path("decoded").asText(), l.path("extra").asText(), l.path("link_lost").asText(),
                    l.path("queue_drops").asText(), l.path("true_lost").asText()), lines.get(i + 1));
            assertEquals(l.path("true_lost").asLong(), l.path("decoded").asLong(), "every loss decoded at this load");
            decoded += l.path("decoded").asLong();
        }
        assertEquals(decoded, results.path("losses").size());
        assertEquals(decoded + 1, Files.readAllLines(run.resolve("results/lossradar_losses.csv")).size());
        long classified = 0;
        for (JsonNode cause : results.path("root_causes")) {
            classified += cause.path("losses").asLong();
        }
        assertEquals(decoded, classified, "every decoded loss has a root cause");
        // report.html: per link direction, counted and decoded against the true losses (here all exact)
        assertEquals(results.path("links").size(), ReportCharts.assertEstimateVsTruth(run, 0,
                "lossradar: losses per link direction: counted and decoded against true", "true lost packets",
                "estimated lost packets", results.path("links"), "true_lost", "link", false, "counted", "decoded"));
    }

    @Test
    void aMessageOfTheWrongLengthKeepsItsHexAndSaysWhy(@TempDir Path run) throws Exception {
        JournalKinds kinds = new JournalKinds();
        WbmonCollector.registerKinds(kinds);
        int kind = kinds.id(WbmonCollector.KIND);
        UnsafeBuffer buf = new UnsafeBuffer(new byte[WbmonCollector.PAYLOAD_BYTES]);
        buf.putInt(0, 3);
        buf.putLong(4, 1000);
        buf.putLong(12, 990);
        buf.putLong(20, 10);
        ExportJournal journal = ExportJournal.create(run, kinds);
        journal.append(kind, 100, 1, 0, buf, 0, WbmonCollector.PAYLOAD_BYTES);
        journal.append(kind, 200, 1, 0, buf, 0, 5);
        journal.close();

        LossRadarReplayCliTest.Run c = LossRadarReplayCliTest.cli("collect", "--journal", run.toString(), "--json");
        assertEquals(0, c.code(), c.err());
        List<String> lines = c.out().lines().toList();
        JsonNode good = JSON.readTree(lines.get(0));
        assertEquals(new WbmonJournalDecoder.VconnCounters(3, 1000, 990, 10),
                JSON.treeToValue(good.get("message"), WbmonJournalDecoder.VconnCounters.class));
        assertEquals("{\"cycle\":200,\"switch\":1,\"pipe\":0,\"kind\":\"wbmon.vconn_counters\",\"length\":5,"
                + "\"payload\":\"" + hex5(buf) + "\",\"decode_error\":\"wbmon.vconn_counters payload of 5 bytes, expected 28\"}",
                lines.get(1));
        assertEquals("{\"summary\":\"wbmon.vconn_counters\",\"messages\":2,\"bytes\":33,\"first_cycle\":100,\"last_cycle\":200}",
                lines.get(2));
    }

    private static String hex5(UnsafeBuffer b) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            s.append(String.format("%02x", b.getByte(i) & 0xFF));
        }
        return s.toString();
    }
}

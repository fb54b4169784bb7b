package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu replay --topology LINE} with {@code lds} role=sender on s1 and role=receiver on
 * s2: each switch's control plane closes its intervals (2^19 ns, half an interval longer than
 * the slowest link delay) into the journal under its own ordinal, and the report estimates
 * the delivered flows per interval.
 */
class LdsNetworkReplayCliTest {
    static final String TOPOLOGY = LdsLineTest.topology(1024, 19);
    static final int PACKETS = 8000;

    static LdsReplayCliTest.Run replay(Path topo, Path run) {
        return LdsReplayCliTest.cli("replay", "--topology", topo.toString(), "--trace",
                "gen:isp?packets=" + PACKETS + "&flows=150&ipv6=0&seed=4&load=0.2&sizes=fixed:500", "--out", run.toString(),
                "--no-progress", "--param", "top=3");
    }

    static String section(String summary) {
        int from = summary.indexOf("LDS per sender -> receiver");
        int to = summary.indexOf("run directory:");
        assertTrue(from >= 0 && to > from, summary);
        return summary.substring(from, to);
    }

    @Test
    void senderAndReceiverSwitchesCloseTheSameIntervals(@TempDir Path tmp) throws IOException {
        Path topo = tmp.resolve("line.yaml");
        Files.writeString(topo, TOPOLOGY);
        Path run = tmp.resolve("run");
        LdsReplayCliTest.Run r = replay(topo, run);
        assertEquals(0, r.code(), r.err());
        String section = section(r.out());

        LdsConfig cfg = LdsConfig.singleRate(LdsConfig.DEFAULT_ROWS, 1024, 1, 1.0);
        var tx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_SENDER_SKETCH, 0);
        var rx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_RECEIVER_SKETCH, 1);
        assertTrue(tx.size() >= 3, "several intervals: " + tx.size());
        assertEquals(tx.keySet(), rx.keySet());
        assertTrue(LdsCollector.importAll(run, cfg, LdsCollector.KIND_SENDER_SKETCH, 1).isEmpty(), "s2 sends nothing");
        assertTrue(LdsCollector.importAll(run, cfg, LdsCollector.KIND_RECEIVER_SKETCH, 0).isEmpty(), "s1 receives nothing");
        assertTrue(section.contains("s1 -> s2 (R=4, C=1024, k=1, interval 2^19 ns): " + tx.size()
                + " interval(s) closed at the sender, " + tx.size() + " at the receiver"), section);

        // no loss and no packet slower than half an interval: every interval's packets at both ends, each packet once
        long total = 0;
        for (int i : tx.keySet()) {
            for (int row = 0; row < cfg.rows(); row++) {
                long sent = 0;
                long received = 0;
                for (int c = 0; c < cfg.cells(); c++) {
                    sent += tx.get(i).count(row, c);
                    received += rx.get(i).count(row, c);
                }
                assertEquals(sent, received, "interval " + i + " row " + row);
                total += row == 0 ? sent : 0;
            }
        }
        assertEquals(PACKETS, total);

        // the listed flows are the hosts' (rewritten) 5-tuples, with an estimate in every interval
        Map<String, Integer> perFlow = new TreeMap<>();
        for (String line : section.split("\n")) {
            if (line.contains("est. mean")) {
                assertTrue(line.trim().startsWith("10.0.1."), line);
                assertFalse(line.contains("none"), line);
                perFlow.merge(line.trim().split("\\s+")[0], 1, Integer::sum);
            }
        }
        assertEquals(3, perFlow.size(), section);
        for (int n : perFlow.values()) {
            assertEquals(tx.size(), n, section);
        }

        LdsReplayCliTest.Run again = replay(topo, tmp.resolve("run2"));
        assertEquals(0, again.code(), again.err());
        assertEquals(section, section(again.out()));
    }
}

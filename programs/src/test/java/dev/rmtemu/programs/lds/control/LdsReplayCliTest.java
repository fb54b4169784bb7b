package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.ReportCharts;
import dev.rmtemu.programs.lds.program.LdsConfig;

import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rmtemu replay --program lds} with intervals of 2^18 ns: {@link LdsControlPlane}
 * closes every interval of the trace during the run (a sender-sketch chunk per row and
 * interval in the journal, both banks zeroed), and {@link LdsReport} estimates per interval.
 */
class LdsReplayCliTest {
    static final int SHIFT = 18;
    static final int ROWS = 4;
    static final String TRACE = "gen:isp?packets=20000&flows=200&ipv6=0&seed=3";
    static final Pattern INTERVAL = Pattern.compile("  interval (\\d+): (\\d+) flows delivered (\\d+) packets, (\\d+) flows estimated");

    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** Two output ports at 45 Gb/s for ~80 Gb/s offered: queues, so delays differ by flow and interval. */
    static Run replay(Path run, String... params) {
        return replay(TRACE, run, params);
    }

    static Run replay(String trace, Path run, String... params) {
        List<String> args = new ArrayList<>(List.of("replay", "--program", "lds", "--trace", trace, "--port-gbps", "45",
                "--out", run.toString(), "--no-progress", "--param", "interval_shift=" + SHIFT, "--param", "rows=" + ROWS,
                "--param", "paths=2", "--param", "priority=0.2", "--param", "top=3"));
        for (String p : params) {
            args.add("--param");
            args.add(p);
        }
        return cli(args.toArray(String[]::new));
    }

    static String section(String summary) {
        int from = summary.indexOf("LDS ingress -> egress per interval");
        int to = summary.indexOf("run directory:");
        assertTrue(from >= 0 && to > from, summary);
        return summary.substring(from, to);
    }

    static long summaryValue(String summary, String label) {
        Matcher m = Pattern.compile(label + "\\s+([\\d,]+)").matcher(summary);
        assertTrue(m.find(), summary);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    @Test
    void everyIntervalIsClosedIntoTheJournalAndEstimatedOnItsOwn(@TempDir Path tmp) {
        Path run = tmp.resolve("run");
        Run r = replay(run, "cells=1024");
        assertEquals(0, r.code(), r.err());
        String section = section(r.out());

        // the truth's intervals are the sender's: 0 .. the last arrival's
        List<LdsDelayTruth.Flow> truth = LdsDelayTruth.read(LdsControlPlane.truthFile(run));
        long intervals = truth.get(truth.size() - 1).interval() + 1;
        assertTrue(intervals >= 4, "the trace spans several intervals: " + intervals);
        Map<Long, Long> truthPackets = new TreeMap<>();
        for (LdsDelayTruth.Flow f : truth) {
            truthPackets.merge(f.interval(), f.packets(), Long::sum);
        }

        // one summary block per closed interval, in order; every delivered packet is in one
        Matcher m = INTERVAL.matcher(section);
        long expect = 0;
        long delivered = 0;
        while (m.find()) {
            assertEquals(expect, Long.parseLong(m.group(1)), section);
            assertEquals(truthPackets.get(expect), Long.parseLong(m.group(3)), section);
            assertTrue(Long.parseLong(m.group(4)) > 0, section);
            delivered += Long.parseLong(m.group(3));
            expect++;
        }
        assertEquals(intervals, expect, section);
        assertTrue(section.contains("(R=4, C=1024, k=5, interval 2^18 ns; " + intervals + " interval(s) closed)"), section);
        assertEquals(summaryValue(r.out(), "packets out"), delivered);

        // the journal: per closed interval one sender-sketch chunk per row (C <= 1,024 cells), and the receiver's
        Run collect = cli("collect", "--journal", run.resolve("journal").toString());
        assertEquals(0, collect.code(), collect.err());
        Map<Long, Integer> senderChunks = new TreeMap<>();
        long receiverChunks = 0;
        for (String line : collect.out().split("\n")) {
            if (line.contains("kind " + LdsCollector.KIND_SENDER_SKETCH + " ")) {
                String hex = line.substring(line.indexOf("bytes ") + 6);
                long id = Long.parseLong(hex.substring(6, 8) + hex.substring(4, 6) + hex.substring(2, 4) + hex.substring(0, 2), 16);
                senderChunks.merge(id, 1, Integer::sum);
            } else if (line.contains("kind " + LdsCollector.KIND_RECEIVER_SKETCH + " ")) {
                receiverChunks++;
            }
        }
        assertEquals(intervals, senderChunks.size(), collect.out());
        for (long i = 0; i < intervals; i++) {
            assertEquals(ROWS, senderChunks.get(i), "interval " + i);
        }
        assertEquals(intervals * ROWS, receiverChunks);

        // banks are zeroed at each close: the receiver's sketch of interval i counts exactly
        // its delivered packets in every row, the sender's at least those (tail drops)
        LdsConfig cfg = LdsConfig.singleRate(ROWS, 1024, LdsConfig.DEFAULT_LDA_CELLS, 1.0);
        var tx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_SENDER_SKETCH, LdsSwitch.SWITCH_ID);
        var rx = LdsCollector.importAll(run, cfg, LdsCollector.KIND_RECEIVER_SKETCH, LdsSwitch.SWITCH_ID);
        for (long i = 0; i < intervals; i++) {
            for (int row = 0; row < ROWS; row++) {
                long sent = 0;
                long received = 0;
                for (int c = 0; c < cfg.cells(); c++) {
                    sent += tx.get((int) i).count(row, c);
                    received += rx.get((int) i).count(row, c);
                }
                assertEquals(truthPackets.get(i), received, "interval " + i + " row " + row);
                assertTrue(sent >= received, "interval " + i + " row " + row);
            }
        }

        // the same replay again: the same section, byte for byte
        Run again = replay(tmp.resolve("run2"), "cells=1024");
        assertEquals(0, again.code(), again.err());
        assertEquals(section, section(again.out()));
    }

    @Test
    void withoutCollisionsEachIntervalsEstimateIsItsTrueMeanDelay(@TempDir Path tmp) {
        // 20 flows over 4 rows of 8,192 cells (the default, the most that fit tofino1): no flow shares a cell with another
        Run r = replay("gen:isp?packets=20000&flows=20&ipv6=0&seed=3", tmp.resolve("run"), "cells=8192", "k=1");
        assertEquals(0, r.code(), r.err());
        String section = section(r.out());
        int rows = 0;
        for (String line : section.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (line.startsWith("    10.") && w.length == 8) {
                assertEquals(w[5], w[6], "estimated = true mean: " + line);
                assertEquals("0.00", w[7], line);
                rows++;
            }
        }
        assertTrue(rows >= 12, section);
        // the same rows as data: report.json's results.lds.flows and results/lds_flows.csv
        com.fasterxml.jackson.databind.JsonNode flows;
        List<String> csv;
        try {
            flows = new com.fasterxml.jackson.databind.ObjectMapper().readTree(tmp.resolve("run/report.json").toFile())
                    .path("results").path("lds").path("flows");
            csv = java.nio.file.Files.readAllLines(tmp.resolve("run/results/lds_flows.csv"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(rows, flows.size());
        assertEquals("interval,five_tuple,packets,est_mean_ns,true_mean_ns,error", csv.get(0));
        assertEquals(rows + 1, csv.size());
        for (com.fasterxml.jackson.databind.JsonNode f : flows) {
            assertTrue(Math.abs(f.path("error").asDouble()) < 1e-9, f.toString());
            assertEquals(f.path("true_mean_ns").asDouble(), f.path("est_mean_ns").asDouble(), 1e-6 * f.path("true_mean_ns").asDouble());
        }
        // report.html: every listed flow a point on y = x, its relative error 0
        assertEquals(rows, ReportCharts.assertEstimateVsTruth(tmp.resolve("run"), 0,
                "lds: largest flows per interval: estimated mean delay against true mean", "true mean delay (ns)",
                "estimated mean delay (ns)", flows, "true_mean_ns", "five_tuple", true, "est_mean_ns"));
    }

    @Test
    void aSenderAloneHasNoEstimate(@TempDir Path tmp) {
        Run r = replay(tmp.resolve("run"), "role=sender");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("LDS: role sender holds one end only"), r.out());
    }
}

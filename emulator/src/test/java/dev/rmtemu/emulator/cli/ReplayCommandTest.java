package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReplayCommandTest {
    @Test
    void replayWritesTheRunDirectoryAndASummary(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--target", "tofino1",
                "--trace", "gen:isp?packets=5000&flows=500&seed=2", "--rate", "100G", "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("packets in                   5,000"), r.out());
        for (String f : new String[] {"report.json", "resources.json", "latency.hgrm", "report.html"}) {
            assertTrue(Files.isRegularFile(out.resolve(f)), f);
        }
        assertTrue(Files.isDirectory(out.resolve("journal")));
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<div class=\"chart\" id=\"latency\"") && html.contains("id=\"drops-option\""), "charts placed");
        CliRunner again = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=3000&flows=50",
                "--out", out.toString(), "--no-progress");
        assertEquals(0, again.exit(), "a run directory is reused: " + again.err());
        assertTrue(again.out().contains("packets in                   3,000"), again.out());
        CliRunner j = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=2000&flows=100",
                "--out", tmp.resolve("j").toString(), "--json", "--no-progress");
        assertEquals(0, j.exit(), j.err());
        assertTrue(j.out().startsWith("{") && j.out().contains("\"host\""));
    }

    @Test
    void badInputsAreOneLineWithTheRightExitCode(@TempDir Path tmp) {
        CliRunner t = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10",
                "--timing", "warp:9", "--out", tmp.resolve("a").toString(), "--no-progress");
        assertEquals(2, t.exit());
        assertTrue(t.err().startsWith("rmtemu: timing 'warp:9' not understood"), t.err());
        CliRunner f = CliRunner.run("replay", "--program", "counter", "--trace", tmp.resolve("missing.pcap").toString(),
                "--out", tmp.resolve("b").toString(), "--no-progress");
        assertEquals(2, f.exit(), f.err());
        assertEquals(1, f.err().lines().count(), f.err());
        CliRunner big = CliRunner.run("replay", "--program", "counter", "--param", "cells=4194304",
                "--trace", "gen:isp?packets=10", "--out", tmp.resolve("c").toString(), "--no-progress");
        assertEquals(3, big.exit());
        assertTrue(big.err().contains("stage 0 ingress: SRAM blocks 1025 > 80"), big.err());
        CliRunner both = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10",
                "--rate", "10G", "--topspeed", "--no-progress");
        assertEquals(2, both.exit(), "timing options are mutually exclusive");
    }

    @Test
    void timingOptionsSayWhetherTheyMeanWhatTcpreplaysDo(@TempDir Path tmp) throws Exception {
        String help = CliRunner.run("replay", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("as tcpreplay's --multiplier: every gap divided by X"), help);
        assertTrue(help.contains("as tcpreplay's --topspeed: back to back at --port-gbps, in the trace's order"), help);
        assertTrue(help.contains("back-to-back (one packet per clock cycle"), help);
        assertTrue(help.contains("scaled:X (every gap multiplied by X"), help);
        // --rate 100Gbps as iperf users write it; --topspeed at 10 Gb/s ports equals --rate 10G
        CliRunner gbps = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=200&flows=10&seed=1",
                "--rate", "100Gbps", "--no-progress", "--out", tmp.resolve("t1").toString(), "--json");
        assertEquals(0, gbps.exit(), gbps.err());
        CliRunner top = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=200&flows=10&seed=1",
                "--port-gbps", "10", "--topspeed", "--no-progress", "--out", tmp.resolve("t2").toString(), "--json");
        CliRunner rate = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=200&flows=10&seed=1",
                "--port-gbps", "10", "--rate", "10G", "--no-progress", "--out", tmp.resolve("t3").toString(), "--json");
        assertEquals(0, top.exit(), top.err());
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        assertEquals(m.readTree(rate.out()).findValue("last_event_cycle"), m.readTree(top.out()).findValue("last_event_cycle"));
        CliRunner net = CliRunner.run("replay", "--topology", "builtin:fattree?k=4", "--trace", "gen:isp?packets=10",
                "--topspeed", "--no-progress", "--out", tmp.resolve("t4").toString());
        assertEquals(2, net.exit());
        assertEquals("rmtemu: timing 'topspeed' packs packets at the ports' line rate, and a topology's links have their own"
                + " rates: give --rate RATE (or --timing back-to-back)", net.err().strip());
    }

    @Test
    void loopReplaysTheTraceNTimesWithTimeGoingForward(@TempDir Path tmp) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        CliRunner once = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=300&flows=10&seed=1",
                "--no-progress", "--out", tmp.resolve("t5").toString(), "--json");
        CliRunner thrice = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=300&flows=10&seed=1",
                "--loop", "3", "--no-progress", "--out", tmp.resolve("t6").toString(), "--json");
        assertEquals(0, thrice.exit(), thrice.err());
        com.fasterxml.jackson.databind.JsonNode one = m.readTree(once.out());
        com.fasterxml.jackson.databind.JsonNode three = m.readTree(thrice.out());
        assertEquals(900, three.get("counters").get("in").asLong());
        assertEquals(3, three.get("inputs").get("loop").asInt());
        assertTrue(one.get("inputs").get("loop") == null, "a single pass says nothing");
        long last1 = one.findValue("last_event_cycle").asLong();
        long last3 = three.findValue("last_event_cycle").asLong();
        assertTrue(last3 > 2 * last1 && last3 < 4 * last1, "three passes one after another: " + last1 + " / " + last3);
        CliRunner zero = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10", "--loop", "0",
                "--no-progress", "--out", tmp.resolve("t7").toString());
        assertEquals(2, zero.exit());
        assertEquals("rmtemu: --loop must be at least 1, got 0 (a replay ends; tcpreplay's 0, forever, is not offered)",
                zero.err().strip());
    }

    @Test
    void aControlOperationAfterTheLastEventIsAWarningAndDoesNotStretchTheRun(@TempDir Path tmp) throws Exception {
        Path control = tmp.resolve("late.txt");
        Files.writeString(control, "at 9223372036854775807 register_reset flow_count\n");
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=100&flows=10&seed=1",
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().startsWith("rmtemu: warning: " + control + ":1: not applied: its cycle comes after the run's last event (cycle "),
                r.err());
        com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        long last = report.findValue("last_event_cycle").asLong();
        assertTrue(last > 0 && last < 1_000_000_000L, "emulated run not stretched: " + last);
    }

    @Test
    void aVerySlowPortKeepsEveryPercentileAtMostTheMaximum(@TempDir Path tmp) throws Exception {
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=50&flows=5&seed=3",
                "--port-gbps", "1e-9", "--out", tmp.resolve("slow").toString(), "--no-progress", "--json");
        assertEquals(0, r.exit(), r.err());
        com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        com.fasterxml.jackson.databind.JsonNode latency = report.findValue("latency_ns").get("latency");
        assertTrue(latency != null, r.out());
        long max = latency.get("max").asLong();
        assertTrue(max > 10_000_000_000L, "queues for far longer than the histograms' initial 10 s: " + max);
        for (String p : new String[] {"p50", "p90", "p99", "p99_9", "p99_99"}) {
            assertTrue(latency.get(p).asLong() <= max, p + " " + latency.get(p) + " > max " + max);
        }
    }

    @Test
    void demoAndReplayHaveHelp() {
        for (String cmd : new String[] {"replay", "demo"}) {
            CliRunner r = CliRunner.run(cmd, "--help");
            assertEquals(0, r.exit());
            assertTrue(r.out().startsWith("Usage: rmtemu " + cmd), r.out());
        }
    }
}

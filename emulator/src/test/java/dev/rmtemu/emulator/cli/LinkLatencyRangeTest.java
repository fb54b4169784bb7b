package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 30 point 13: a link latency that overflows emulated time. Reproducer:
 * {@code rmtemu replay --topology line.yaml --trace gen:... --out RUN} with the s1-s2 link's
 * {@code latency_ns} at 7e18 (was: internal error, a negative histogram value), 8e18 or
 * 2^63-1 (was: accepted, 259 ns end to end). Now: exit 2, one line naming the topology file
 * and the field, and --out is never created.
 */
class LinkLatencyRangeTest {
    /** Largest latency a link may have: 2^61 cycles shared by 64 hops, at tofino1's 1.22 GHz. */
    private static final long MAX_LATENCY_NS = 29_531_800_835_216_366L;

    private static Path topology(Path dir, String latency) throws IOException {
        Path topo = dir.resolve("line.yaml");
        Files.writeString(topo, String.join("\n",
                "nodes:",
                "  - {name: s1, type: switch, target: tofino1, ports: 2}",
                "  - {name: s2, type: regular, ports: 2}",
                "  - {name: h1, type: host, address: 10.0.1.1/32, role: source}",
                "  - {name: h2, type: host, address: 10.0.2.1/32, role: sink}",
                "links:",
                "  - {a: h1:1, b: s1:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s1:2, b: s2:2, latency_ns: " + latency + ", rate_gbps: 100}",
                "  - {a: s2:1, b: h2:1, latency_ns: 500, rate_gbps: 100}",
                ""));
        return topo;
    }

    private static CliRunner replay(Path topo, Path out) {
        return CliRunner.run("replay", "--topology", topo.toString(), "--program", "counter",
                "--trace", "gen:isp?packets=200&flows=20&seed=3", "--no-progress", "--out", out.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"7000000000000000000", "8000000000000000000", "9223372036854775807", "29531800835216367"})
    void aLatencyThatOverflowsEmulatedTimeIsRefused(String latency, @TempDir Path tmp) throws IOException {
        Path topo = topology(tmp, latency);
        Path out = tmp.resolve("run");
        CliRunner r = replay(topo, out);
        assertEquals(2, r.exit(), r.err());
        assertEquals(List.of("rmtemu: " + topo + ": links[1]: latency_ns " + latency + " would overflow emulated time"
                + " (at most " + MAX_LATENCY_NS + " ns, so that 64 hops fit 2^61 cycles at 1220000000 Hz)"),
                r.err().lines().toList());
        assertFalse(Files.exists(out), "--out was created");
    }

    @Test
    void aLongButLegalLatencyRuns(@TempDir Path tmp) throws IOException {
        // one second per hop: far from the bound, and the run's latencies say so
        Path out = tmp.resolve("run");
        CliRunner r = replay(topology(tmp, "1000000000"), out);
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        assertFalse(Files.readString(out.resolve("report.json")).contains("\"complete\" : false"));
    }
}

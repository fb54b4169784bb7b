package dev.rmtemu.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The two-switch line the run-directory and register tests replay through (test helper):
 * h1 – s1 (programmable, tofino1, 2 ports) – s2 (regular, or programmable too) – h2, 100 Gb/s links.
 */
public final class LineTopology {
    private LineTopology() {
    }

    /** Writes the topology as {@code file} (YAML) and returns it. */
    public static Path write(Path file) throws IOException {
        return write(file, false);
    }

    /** As {@link #write(Path)}; with {@code bothProgrammable}, s2 is a tofino1 switch too. */
    public static Path write(Path file, boolean bothProgrammable) throws IOException {
        return write(file, bothProgrammable, null);
    }

    /** As above, with {@code impairAb} (a YAML map, e.g. {@code {loss: "bernoulli:0.1"}}) on the s1 to s2 direction. */
    public static Path write(Path file, boolean bothProgrammable, String impairAb) throws IOException {
        Files.writeString(file, String.join("\n",
                "nodes:",
                "  - {name: s1, type: switch, target: tofino1, ports: 2}",
                bothProgrammable ? "  - {name: s2, type: switch, target: tofino1, ports: 2}" : "  - {name: s2, type: regular, ports: 2}",
                "  - {name: h1, type: host, address: 10.0.1.1/32, role: source}",
                "  - {name: h2, type: host, address: 10.0.2.1/32, role: sink}",
                "links:",
                "  - {a: h1:1, b: s1:1, latency_ns: 500, rate_gbps: 100}",
                "  - {a: s1:2, b: s2:2, latency_ns: 2000, rate_gbps: 100" + (impairAb == null ? "" : ", impair_ab: " + impairAb) + "}",
                "  - {a: s2:1, b: h2:1, latency_ns: 500, rate_gbps: 100}",
                ""));
        return file;
    }
}

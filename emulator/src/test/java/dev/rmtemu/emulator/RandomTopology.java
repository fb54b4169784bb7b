package dev.rmtemu.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded random network: 3..8 switches (regular or programmable, plain forwarding) on a
 * random spanning tree plus a few extra links (loops and equal-cost paths), 2..5 hosts on
 * random switches, link latencies from 1 ns to 3 µs, rates 10..100 Gb/s, and on some links a
 * loss, reorder, duplicate or delay impairment.
 */
public final class RandomTopology {
    private RandomTopology() {
    }

    public static Path write(Path file, long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        int switches = 3 + rnd.nextInt(6);
        int hosts = 2 + rnd.nextInt(4);
        int[] ports = new int[switches];
        List<String> links = new ArrayList<>();
        for (int s = 1; s < switches; s++) {
            int parent = rnd.nextInt(s);
            link(links, rnd, "s" + (parent + 1), ports, parent, "s" + (s + 1), s);
        }
        int extra = rnd.nextInt(switches);
        for (int e = 0; e < extra; e++) {
            int x = rnd.nextInt(switches);
            int y = rnd.nextInt(switches);
            if (x != y) {
                link(links, rnd, "s" + (x + 1), ports, x, "s" + (y + 1), y);
            }
        }
        List<String> hostLines = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            int s = rnd.nextInt(switches);
            ports[s]++;
            String role = h == 0 ? "source" : h == 1 ? "sink" : rnd.nextBoolean() ? "both" : "sink";
            hostLines.add("  - {name: h" + (h + 1) + ", type: host, address: 10.0." + (h + 1) + ".1/32, role: " + role + "}");
            links.add("  - {a: h" + (h + 1) + ":1, b: s" + (s + 1) + ":" + ports[s] + ", latency_ns: "
                    + (100 + rnd.nextInt(900)) + ", rate_gbps: 100}");
        }
        List<String> lines = new ArrayList<>(List.of("nodes:"));
        for (int s = 0; s < switches; s++) {
            lines.add(rnd.nextBoolean()
                    ? "  - {name: s" + (s + 1) + ", type: regular, ports: " + ports[s] + "}"
                    : "  - {name: s" + (s + 1) + ", type: switch, target: tofino1, ports: " + ports[s] + "}");
        }
        lines.addAll(hostLines);
        lines.add("links:");
        lines.addAll(links);
        lines.add("");
        Files.writeString(file, String.join("\n", lines));
        return file;
    }

    private static final String[] IMPAIRMENTS = {
        "{loss: \"bernoulli:0.02\"}", "{reorder: \"p=0.05,sigma=0.75\"}", "{dup: \"0.03\"}",
        "{delay: \"normal:mean=1us,sigma=500ns\"}", "{loss: \"gilbert:p=0.01,r=0.3\", dup: \"0.02\"}"};

    private static void link(List<String> links, SplittableRandom rnd, String a, int[] ports, int ai, String b, int bi) {
        ports[ai]++;
        ports[bi]++;
        long latency = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(20) : 50 + rnd.nextInt(3000);
        int rate = new int[] {10, 25, 40, 100}[rnd.nextInt(4)];
        String impair = rnd.nextInt(3) == 0 ? ", impair_ab: " + IMPAIRMENTS[rnd.nextInt(IMPAIRMENTS.length)] : "";
        links.add("  - {a: " + a + ":" + ports[ai] + ", b: " + b + ":" + ports[bi] + ", latency_ns: " + latency
                + ", rate_gbps: " + rate + impair + "}");
    }
}

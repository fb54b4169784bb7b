package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstHeaders;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MIDST's headers are bytes on the wire between switches: in a network replay with
 * {@code --capture}, s1 (MIDST) sends the probes that report a monitoring change out of its
 * collector port to the regular switch r2, each frame Ethernet, the 10-byte probe header
 * (EtherType 0x88B5), IPv4, UDP, 64 bytes in all; and the data packets egress flags towards
 * the regular switch r1 carry the 12-byte report header (EtherType 0x88B6). r1 parses the
 * report header like the operator's parser would, so it decrements the TTL under it and
 * updates the IPv4 checksum.
 */
class MidstWireCaptureTest {
    /**
     * s1's data port (topology port 2, 1 Gb/s) congests towards r1; its collector port (topology port 3)
     * leads to r2. h2 is the only sink, so every packet s1 sends to r1 is routed on to h2 (none comes back).
     */
    private static final String TOPOLOGY = """
            defaults: {latency_ns: 1000, rate_gbps: 10}
            nodes:
              - {name: s1, type: switch, target: tofino1, ports: 3}
              - {name: r1, type: regular, ports: 2}
              - {name: r2, type: regular, ports: 2}
              - {name: h1, type: host, address: 10.0.0.1/32, role: source}
              - {name: h2, type: host, address: 10.0.0.2/32, role: sink}
              - {name: c, type: host, address: 10.0.0.3/32, role: source}
            links:
              - {a: h1:1, b: s1:1}
              - {a: s1:2, b: r1:1, rate_gbps: 1}
              - {a: r1:2, b: h2:1}
              - {a: s1:3, b: r2:1}
              - {a: r2:2, b: c:1}
            """;
    private static final int ETHER_TYPE_AT = 12;
    private static final int IPV4_AT_AFTER_PROBE = 14 + MidstHeaders.PROBE_HEADER_BYTES;
    private static final int IPV4_AT_AFTER_REPORT = 14 + MidstHeaders.REPORT_HEADER_BYTES;

    /** One captured frame: the interface (egress port) and its bytes. */
    private record Frame(int port, byte[] bytes) {
    }

    private static List<Frame> frames(Path file) {
        List<Frame> out = new ArrayList<>();
        try (CaptureReader r = CaptureFiles.open(file, false)) {
            PacketRecord rec = PacketRecord.allocate();
            // the tap sees every frame, whether or not the reader decodes it
            r.tap((b, off, cap, wire, linkType) -> {
                byte[] bytes = new byte[cap];
                b.getBytes(off, bytes);
                out.add(new Frame(rec.ingressPort(), bytes));
            });
            while (r.next(rec)) {
                // collected by the tap
            }
        }
        return out;
    }

    private static int u16(byte[] f, int at) {
        return (f[at] & 0xFF) << 8 | f[at + 1] & 0xFF;
    }

    /** The IPv4 header checksum over the 20 bytes at {@code at} folds to 0xFFFF when it is valid. */
    private static int ipv4Sum(byte[] f, int at) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += u16(f, at + i);
        }
        while (sum > 0xFFFF) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return sum;
    }

    @Test
    void probesAndReportsAreHeadersOnTheLinksAndRoutersDecrementTheTtlUnderThem(@TempDir Path dir) throws IOException {
        Path topo = dir.resolve("net.yaml");
        Files.writeString(topo, TOPOLOGY);
        Path run = dir.resolve("run");
        MidstReplayCliTest.Run r = MidstReplayCliTest.cli("replay", "--topology", topo.toString(), "--program", "midst",
                "--trace", "gen:isp?packets=20000&flows=300&seed=5&dist=zipf&gbps=100&load=0.5", "--rate", "10G",
                "--out", run.toString(), "--no-progress", "--capture");
        assertEquals(0, r.code(), r.err());

        // s1's collector port (engine port 2): monitoring on / off probes, each with its probe header
        List<Frame> s1 = frames(run.resolve("capture/s1/egress.pcapng"));
        List<Frame> probes = s1.stream().filter(f -> f.port() == 2).toList();
        assertTrue(!probes.isEmpty(), "a probe left the collector port");
        for (Frame p : probes) {
            byte[] f = p.bytes();
            assertEquals(64, f.length, "a probe keeps its minimum-size frame");
            assertEquals(MidstHeaders.PROBE_ETHER_TYPE, u16(f, ETHER_TYPE_AT));
            int kind = f[14] & 0xFF;
            assertTrue(kind == MidstPipeline.KIND_MONITOR_ON || kind == MidstPipeline.KIND_MONITOR_OFF
                    || kind == MidstPipeline.KIND_CLEAN_DONE, "probe kind " + kind);
            // the probe header's own EtherType names IPv4, which follows it
            assertEquals(0x0800, u16(f, 14 + MidstHeaders.PROBE_HEADER_BYTES - 2));
            assertEquals(0x45, f[IPV4_AT_AFTER_PROBE] & 0xFF);
            assertEquals(0xFFFF, ipv4Sum(f, IPV4_AT_AFTER_PROBE));
        }
        assertEquals(MidstPipeline.KIND_MONITOR_ON, probes.get(0).bytes()[14] & 0xFF, "the first report starts monitoring");
        // the first probe reports a queue over h (the 19-bit depth after 5 reserved bits)
        byte[] first = probes.get(0).bytes();
        long depth = ((first[15] & 0x07L) << 16) | (first[16] & 0xFFL) << 8 | first[17] & 0xFFL;
        assertTrue(depth >= MidstConfig.defaults().highWater(), "queue depth " + depth);

        // s1's data port (engine port 1): the flagged packets carry the report header; r1 forwards them with
        // the TTL one lower and a valid IPv4 checksum
        Map<String, Integer> ttlAtS1 = new HashMap<>();
        int reports = 0;
        for (Frame d : s1) {
            byte[] f = d.bytes();
            if (d.port() == 1 && u16(f, ETHER_TYPE_AT) == MidstHeaders.REPORT_ETHER_TYPE) {
                reports++;
                int ip = IPV4_AT_AFTER_REPORT;
                assertTrue((f[14] & 0xFF) != 0, "a report's flags");
                ttlAtS1.put(key(f, ip), f[ip + 8] & 0xFF);
            }
        }
        assertTrue(reports > 10, "reports " + reports);
        int forwarded = 0;
        for (Frame d : frames(run.resolve("capture/r1/egress.pcapng"))) {
            byte[] f = d.bytes();
            if (u16(f, ETHER_TYPE_AT) != MidstHeaders.REPORT_ETHER_TYPE) {
                continue;
            }
            int ip = IPV4_AT_AFTER_REPORT;
            Integer before = ttlAtS1.get(key(f, ip));
            if (before != null) {
                forwarded++;
                assertEquals(before - 1, f[ip + 8] & 0xFF, "r1 decrements the TTL under the report header");
                assertEquals(0xFFFF, ipv4Sum(f, ip), "and keeps the IPv4 checksum valid");
            }
        }
        assertEquals(reports, forwarded, "every report s1 sent reached h2 through r1");
    }

    /** Two MIDST switches in a row: s1's data port (1 Gb/s) congests, s2's (10 Gb/s) does not. */
    private static final String CHAIN = """
            defaults: {latency_ns: 1000, rate_gbps: 10}
            nodes:
              - {name: s1, type: switch, target: tofino1, ports: 3}
              - {name: s2, type: switch, target: tofino1, ports: 3}
              - {name: h1, type: host, address: 10.0.0.1/32, role: source}
              - {name: h2, type: host, address: 10.0.0.2/32, role: sink}
              - {name: c1, type: host, address: 10.0.0.3/32, role: source}
              - {name: c2, type: host, address: 10.0.0.4/32, role: source}
            links:
              - {a: h1:1, b: s1:1}
              - {a: s1:2, b: s2:1, rate_gbps: 1}
              - {a: s2:2, b: h2:1}
              - {a: s1:3, b: c1:1}
              - {a: s2:3, b: c2:1}
            """;

    /**
     * A report is for the link it leaves on: s2's ingress removes the report header s1's egress
     * added (Ethernet gets IPv4's EtherType back) and, its own port never congesting, adds none.
     */
    @Test
    void theNextMidstSwitchRemovesTheReportOfThePreviousOne(@TempDir Path dir) throws IOException {
        Path topo = dir.resolve("chain.yaml");
        Files.writeString(topo, CHAIN);
        Path run = dir.resolve("run");
        MidstReplayCliTest.Run r = MidstReplayCliTest.cli("replay", "--topology", topo.toString(), "--program", "midst",
                "--trace", "gen:isp?packets=20000&flows=300&seed=5&dist=zipf&gbps=100&load=0.5", "--rate", "10G",
                "--out", run.toString(), "--no-progress", "--capture");
        assertEquals(0, r.code(), r.err());
        long fromS1 = frames(run.resolve("capture/s1/egress.pcapng")).stream()
                .filter(f -> f.port() == 1 && u16(f.bytes(), ETHER_TYPE_AT) == MidstHeaders.REPORT_ETHER_TYPE).count();
        assertTrue(fromS1 > 10, "reports s1 sent to s2: " + fromS1);
        List<Frame> s2 = frames(run.resolve("capture/s2/egress.pcapng")).stream().filter(f -> f.port() == 1).toList();
        assertTrue(s2.size() > 10_000, "s2 forwarded " + s2.size());
        long ipv4 = 0;
        for (Frame f : s2) {
            int type = u16(f.bytes(), ETHER_TYPE_AT);
            assertNotEquals(MidstHeaders.REPORT_ETHER_TYPE, type, "s2 sends no report");
            ipv4 += type == 0x0800 ? 1 : 0;
        }
        assertTrue(ipv4 > 10_000, "IPv4 right under Ethernet again: " + ipv4);
    }

    /** A packet's identity in both captures: IPv4 identification and the first 8 bytes of TCP or UDP (ports, sequence number). */
    private static String key(byte[] f, int ip) {
        StringBuilder sb = new StringBuilder();
        for (int i : new int[] {ip + 4, ip + 5, ip + 20, ip + 21, ip + 22, ip + 23, ip + 24, ip + 25, ip + 26, ip + 27}) {
            sb.append(String.format("%02x", f[i] & 0xFF));
        }
        return sb.toString();
    }
}

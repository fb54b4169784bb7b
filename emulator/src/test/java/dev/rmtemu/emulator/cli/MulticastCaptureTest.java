package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A P4 program's multicast ({@code p4/multicast_flood.p4}: mcast_grp_a 1 and mcast_grp_b 2,
 * level1_exclusion_id 7, level2_exclusion_id 2, rid 1; egress writes egress_rid into the
 * source MAC) with the groups of a control script: node 0 (RID 1: ports 1, 2, 3) loses port 2
 * to the prune table entry 2, node 1 (RID 5: port 4) is skipped by its L1 XID 7, group 2's
 * node 2 (RID 9: port 5) stays. Each frame's three copies are in capture/egress.pcapng, each
 * with its node's RID; report.json counts the packets in and the copies out.
 */
class MulticastCaptureTest {
    private static PacketRecord packet(long ns, int src) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(src).dstIpv4(0x0A000009).srcPort(1000).dstPort(2000);
    }

    private static long srcMac(byte[] frame) {
        long v = 0;
        for (int i = 6; i < 12; i++) {
            v = v << 8 | frame[i] & 0xFF;
        }
        return v;
    }

    @Test
    void eachCopyIsCapturedOnItsPortWithItsNodesRid(@TempDir Path tmp) throws Exception {
        Path program = tmp.resolve("multicast_flood.p4");
        try (InputStream in = MulticastCaptureTest.class.getResourceAsStream("p4/multicast_flood.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000001));
            w.write(packet(10_000, 0x0A000002));
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                mc_mgrp_create 1
                mc_mgrp_create 2
                mc_node_create 1 1 2 3
                mc_node_create 5 4
                mc_node_create 9 5
                mc_node_associate 1 0
                mc_node_associate 1 1 7
                mc_node_associate 2 2
                mc_update_port_prune_table 2 2
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        List<String> copies = c.frames().stream().map(f -> f.port() + ":" + srcMac(f.bytes())).toList();
        assertEquals(List.of("1:1", "3:1", "5:9", "1:1", "3:1", "5:9"), copies);
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        // 2 in + 4 copies beyond the packets themselves = 6 out
        assertEquals(List.of(2L, 6L, 0L, 0L), List.of(report.at("/counters/in").asLong(), report.at("/counters/out").asLong(),
                report.at("/counters/dropped").asLong(), report.at("/counters/in_flight").asLong()), report.path("counters").toString());
        // the copies themselves: 4 replicated beyond the 2 packets, none mirrored
        assertEquals(List.of(0L, 4L), List.of(report.at("/counters/mirrored").asLong(),
                report.at("/counters/replicated").asLong()), report.path("counters").toString());
    }
}

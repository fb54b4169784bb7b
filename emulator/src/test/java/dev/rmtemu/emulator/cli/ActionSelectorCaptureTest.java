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
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's ActionSelector in P4 ({@code p4/ecmp_selector.p4}) compiles, places and runs: a control
 * script creates four members (ports 1..4), joins them to group 0 in that order, points
 * 10.0.0.9 at the group and 10.0.0.8 at member 2, and later removes member 1 from the group.
 * Each flow leaves by the port of the member the FAIR formula names (ActionProfileState):
 * (h & 0x3fff) mod n over the live members in joining order, h the CRC-16/ARC (TNA's CRC16) of
 * the source address and UDP source port as 6 bytes, worked out by hand for flows i = 1..6
 * (source 10.0.1.i, port 1000 + 7i): h = 0xea11, 0x2020, 0x2730, 0x9443, 0x5052, 0x9a63.
 */
class ActionSelectorCaptureTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static PacketRecord packet(long ns, int i, int dst) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(0x0A000100 + i).dstIpv4(dst).srcPort(1000 + 7 * i).dstPort(2000);
    }

    private static Path program(Path tmp) throws Exception {
        Path program = tmp.resolve("ecmp_selector.p4");
        try (InputStream in = ActionSelectorCaptureTest.class.getResourceAsStream("p4/ecmp_selector.p4")) {
            Files.write(program, in.readAllBytes());
        }
        return program;
    }

    @Test
    void eachFlowLeavesByTheMemberTheSelectorHashNamesBeforeAndAfterARemoval(@TempDir Path tmp) throws Exception {
        Path program = program(tmp);
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (int i = 1; i <= 6; i++) {
                w.write(packet(i * 1000L, i, 0x0A000009));
            }
            w.write(packet(7_000, 1, 0x0A000008)); // the member entry: port 3
            w.write(packet(8_000, 1, 0x0A000007)); // a miss: drop()
            for (int i = 1; i <= 6; i++) {
                w.write(packet(200_000 + i * 1000L, i, 0x0A000009));
            }
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                act_prof_create_member ecmp_ap set_port 1
                act_prof_create_member ecmp_ap set_port 2
                act_prof_create_member ecmp_ap set_port 3
                act_prof_create_member ecmp_ap set_port port=4
                act_prof_create_group ecmp_sel
                act_prof_add_member_to_group ecmp_sel 0 0
                act_prof_add_member_to_group ecmp_sel 1 0
                act_prof_add_member_to_group ecmp_sel 2 0
                act_prof_add_member_to_group ecmp_sel 3 0
                table_indirect_add_with_group ecmp 10.0.0.9 => 0
                table_indirect_add ecmp 10.0.0.8 => 2
                at 122000 act_prof_remove_member_from_group ecmp_ap 1 0
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        List<Integer> ports = new ArrayList<>();
        c.frames().forEach(f -> ports.add(f.port()));
        // group [1, 2, 3, 4]: (h & 0x3fff) mod 4; member 2 (port 3); then [1, 3, 4]: mod 3
        assertEquals(List.of(2, 1, 1, 4, 3, 4, 3, 4, 3, 1, 1, 4, 4), ports);
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertEquals(1L, report.at("/counters/dropped").asLong(), report.path("counters").toString());
    }

    /**
     * tofino1 hand count (resource_estimate.cpp, memories.cpp as in ActionProfileResourcesTest):
     * 16 members of a 9-bit port in 2-byte slots, 8 a word: 1 action RAM; 4 groups of at most 8
     * members, one 120-member word each: 4 lines, 1 RAM + 1 spare, 2 map RAMs, a meter ALU; the
     * entry's pointer 4 (member) + 2 (group line) = 6 bits; the stage takes 20 + 4 cycles (its first stateful ALU).
     */
    @Test
    void theProgramPlacesAndCostsWhatP4cCounts(@TempDir Path tmp) throws Exception {
        Path program = program(tmp);
        CliRunner r = CliRunner.run("resources", "--program", program.toString(), "--target", "tofino1", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode tables = JSON.readTree(r.out()).at("/resources/mau/tables");
        JsonNode ap = null;
        JsonNode sel = null;
        JsonNode ecmp = null;
        for (JsonNode t : tables) {
            switch (t.path("name").asText()) {
                case "ecmp_ap" -> ap = t;
                case "ecmp_sel" -> sel = t;
                case "ecmp" -> ecmp = t;
                default -> { }
            }
        }
        assertEquals("action profile", ap.path("kind").asText());
        assertEquals(1, ap.at("/rams/action").asInt());
        assertEquals("selector", sel.path("kind").asText());
        assertEquals(List.of(1, 1), List.of(sel.at("/rams/data").asInt(), sel.at("/rams/spare").asInt()));
        assertTrue(ecmp.path("sized_by").asText().startsWith("entries hold a 6-bit pointer into ecmp_ap"), ecmp.toString());
        JsonNode stage0 = JSON.readTree(r.out()).at("/resources/mau/mau_stages/0");
        assertEquals(List.of(1, 2, 24), List.of(stage0.at("/meter_alus/used").asInt(), stage0.at("/map_rams/used").asInt(),
                stage0.path("latency_cycles").asInt()), stage0.toString());
    }
}

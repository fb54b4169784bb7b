package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One ActionSelector named in two tables' implementation ({@code p4/ecmp_shared.p4}): ecmp
 * (IPv4 destination) and ecmp_port (UDP destination port) point into the same members and
 * groups. Members are created once; each flow leaves by the same port whichever table it hits,
 * the port ActionSelectorCaptureTest works out by hand for flows i = 1..6 (source 10.0.1.i, port
 * 1000 + 7i; CRC-16/ARC h = 0xea11, 0x2020, 0x2730, 0x9443, 0x5052, 0x9a63; FAIR over ports
 * [1, 2, 3, 4]: (h &amp; 0x3fff) mod 4).
 *
 * <p>Placement and resources follow bf-p4c mau/table_placement.cpp: {@code
 * TablePlacement::can_duplicate} is true for ActionData and Selector, so a shared profile is
 * placed whole with each table using it ({@code initial_stage_and_entries} defers only
 * non-duplicable shared tables such as registers): tables in one stage share one copy, a table
 * pinned to another stage takes a copy there.
 */
class SharedActionSelectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "ecmp_shared.p4";

    private static String source() throws Exception {
        try (InputStream in = SharedActionSelectorTest.class.getResourceAsStream("p4/" + FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Path program(Path tmp, String text) throws Exception {
        Path program = tmp.resolve(FILE);
        Files.writeString(program, text);
        return program;
    }

    private static PacketRecord packet(long ns, int i, int dst, int dstPort) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(0x0A000100 + i).dstIpv4(dst).srcPort(1000 + 7 * i).dstPort(dstPort);
    }

    @Test
    void eachFlowLeavesByTheSameMemberThroughEitherTable(@TempDir Path tmp) throws Exception {
        Path program = program(tmp, source());
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (int i = 1; i <= 6; i++) {
                w.write(packet(i * 1000L, i, 0x0A000009, 2000)); // ecmp: 10.0.0.9 => group 0
            }
            for (int i = 1; i <= 6; i++) {
                w.write(packet(10_000 + i * 1000L, i, 0x0A000007, 3000)); // ecmp_port: 3000 => group 0
            }
            w.write(packet(20_000, 1, 0x0A000007, 3001)); // ecmp_port: 3001 => member 2 (port 3)
            w.write(packet(21_000, 1, 0x0A000007, 3002)); // an ecmp_port miss: drop()
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                act_prof_create_member ecmp_ap set_port 1
                act_prof_create_member ecmp_ap set_port 2
                act_prof_create_member ecmp_ap set_port 3
                act_prof_create_member ecmp_ap set_port 4
                act_prof_create_group ecmp_sel
                act_prof_add_member_to_group ecmp_sel 0 0
                act_prof_add_member_to_group ecmp_sel 1 0
                act_prof_add_member_to_group ecmp_sel 2 0
                act_prof_add_member_to_group ecmp_sel 3 0
                table_indirect_add_with_group ecmp 10.0.0.9 => 0
                table_indirect_add_with_group ecmp_port 3000 => 0
                table_indirect_add ecmp_port 3001 => 2
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        CaptureFilesReader.Capture c = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        List<Integer> ports = new ArrayList<>();
        c.frames().forEach(f -> ports.add(f.port()));
        assertEquals(List.of(2, 1, 1, 4, 3, 4, 2, 1, 1, 4, 3, 4, 3), ports);
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        assertEquals(1L, report.at("/counters/dropped").asLong(), report.path("counters").toString());
    }

    /** The file with a plain ActionProfile (no selector, no selector keys) named in both tables. */
    private static String plainProfile() throws Exception {
        return source().replace("        implementation = ecmp_sel;", "        implementation = ecmp_ap;")
                .replace("            hdr.ipv4.src_addr : selector;\n            hdr.udp.src_port : selector;\n", "")
                .replace("    ActionSelector(ecmp_ap, sel_hash, SelectorMode_t.FAIR, 8, 4) ecmp_sel;\n", "");
    }

    @Test
    void aPlainActionProfileServesBothTablesFromOneSetOfMembers(@TempDir Path tmp) throws Exception {
        P4Programs.Result lowered = P4Programs.text(FILE, plainProfile(), PreprocessorOptions.defaults());
        assertEquals(List.of(), lowered.errors());
        assertEquals(List.of("ecmp", "ecmp_port"), lowered.program().actionProfile("ecmp_ap").tables());
        Path program = program(tmp, plainProfile());
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(1_000, 1, 0x0A000009, 2000)); // ecmp: member 1 (port 2)
            w.write(packet(2_000, 2, 0x0A000007, 3000)); // ecmp_port: member 1 (port 2)
            w.write(packet(3_000, 3, 0x0A000007, 3001)); // ecmp_port: member 3 (port 4)
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                act_prof_create_member ecmp_ap set_port 1
                act_prof_create_member ecmp_ap set_port 2
                act_prof_create_member ecmp_ap set_port 3
                act_prof_create_member ecmp_ap set_port 4
                table_indirect_add ecmp 10.0.0.9 => 1
                table_indirect_add ecmp_port 3000 => 1
                table_indirect_add ecmp_port 3001 => 3
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", program.toString(), "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress", "--capture");
        assertEquals(0, r.exit(), r.err());
        List<Integer> ports = new ArrayList<>();
        CaptureFilesReader.read(out.resolve("capture/egress.pcapng")).frames().forEach(f -> ports.add(f.port()));
        assertEquals(List.of(2, 2, 4), ports);
    }

    private static JsonNode resources(Path tmp, String text) throws Exception {
        CliRunner r = CliRunner.run("resources", "--program", program(tmp, text).toString(), "--target", "tofino1", "--json");
        assertEquals(0, r.exit(), r.err());
        return JSON.readTree(r.out()).at("/resources/mau");
    }

    private static List<Integer> stagesOf(JsonNode mau, String name) {
        List<Integer> stages = new ArrayList<>();
        for (JsonNode t : mau.path("tables")) {
            if (t.path("name").asText().equals(name)) {
                stages.add(t.path("stage_number").asInt());
            }
        }
        return stages;
    }

    /**
     * tofino1 hand count of one copy (as ActionSelectorCaptureTest): 1 action RAM; 4 lines of
     * selector, 1 RAM + 1 spare = 2 map RAMs; a meter ALU; each table's entries a 6-bit pointer.
     * Both tables in stage 0 (exclusive branches of one gateway): one copy there.
     */
    @Test
    void tablesInOneStageShareOneCopy(@TempDir Path tmp) throws Exception {
        JsonNode mau = resources(tmp, source());
        assertEquals(List.of(0), stagesOf(mau, "ecmp"));
        assertEquals(List.of(0), stagesOf(mau, "ecmp_port"));
        assertEquals(List.of(0), stagesOf(mau, "ecmp_ap"));
        assertEquals(List.of(0), stagesOf(mau, "ecmp_sel"));
        for (JsonNode t : mau.path("tables")) {
            String name = t.path("name").asText();
            if (name.startsWith("ecmp") && !name.equals("ecmp_ap") && !name.equals("ecmp_sel")) {
                assertTrue(t.path("sized_by").asText().startsWith("entries hold a 6-bit pointer into ecmp_ap"), t.toString());
            }
        }
        JsonNode stage0 = mau.at("/mau_stages/0");
        assertEquals(List.of(1, 2), List.of(stage0.at("/meter_alus/used").asInt(), stage0.at("/map_rams/used").asInt()),
                stage0.toString());
    }

    /** ecmp_port pinned to stage 1 ({@code @stage(1)}): a second copy there, its own map RAMs and meter ALU. */
    @Test
    void aTablePinnedToAnotherStageTakesACopyThere(@TempDir Path tmp) throws Exception {
        JsonNode mau = resources(tmp, source().replace("    table ecmp_port {", "    @stage(1)\n    table ecmp_port {"));
        assertEquals(List.of(1), stagesOf(mau, "ecmp_port"));
        assertEquals(List.of(0, 1), stagesOf(mau, "ecmp_ap"));
        assertEquals(List.of(0, 1), stagesOf(mau, "ecmp_sel"));
        for (int stage = 0; stage < 2; stage++) {
            JsonNode s = mau.at("/mau_stages/" + stage);
            assertEquals(List.of(1, 2), List.of(s.at("/meter_alus/used").asInt(), s.at("/map_rams/used").asInt()), s.toString());
        }
    }

    /**
     * The refused case: ecmp_port hashing only the source address while ecmp hashes the source
     * address and port. The selector has one Hash (TNA's ActionSelector takes one Hash instance);
     * p4c's bmv2 back end refuses the same sharing (backends/bmv2/common/sharedActionSelectorCheck.cpp,
     * {@code SharedActionSelectorCheck}). Its legal twin is the file itself (no errors).
     */
    @Test
    void tablesSharingASelectorMustHashTheSameKey() throws Exception {
        assertEquals(List.of(), P4Programs.text(FILE, source(), PreprocessorOptions.defaults()).errors());
        String src = source();
        String portKey = "            hdr.udp.dst_port : exact;\n            hdr.ipv4.src_addr : selector;\n"
                + "            hdr.udp.src_port : selector;\n";
        assertTrue(src.contains(portKey));
        String text = src.replace(portKey, "            hdr.udp.dst_port : exact;\n            hdr.ipv4.src_addr : selector;\n");
        int offset = text.indexOf("implementation = ecmp_sel;", text.indexOf("table ecmp_port"));
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": tables ecmp and ecmp_port share ecmp_sel but their selector"
                + " keys differ (ipv4.src_addr, udp.src_port vs ipv4.src_addr): the selector's one Hash hashes one key"),
                r.errors().stream().map(Diagnostic::line).toList());
    }
}

package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --program FILE.p4} in resources, show and replay: the LPM router of the engine's
 * P4 tests (ingress parser, one lpm table, the deparser's checksum), lowered, placed by the
 * compiler and run; {@code -D} reaches its preprocessor; an unsupported construct exits 2
 * with its FILE:LINE:COL.
 */
class P4ProgramCliTest {
    private static Path router(Path dir) throws IOException {
        Path f = dir.resolve("lpm_router.p4");
        try (InputStream in = P4ProgramCliTest.class.getResourceAsStream("/dev/rmtemu/emulator/engine/p4/lpm_router.p4")) {
            Files.write(f, in.readAllBytes());
        }
        return f;
    }

    @Test
    void resourcesPlacesTheP4ProgramsTable(@TempDir Path tmp) throws IOException {
        CliRunner r = CliRunner.run("resources", "--program", router(tmp).toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("  ingress  stage  0  table    ipv4_lpm"), r.out());
    }

    @Test
    void checkLowersAndPlacesTheProgram(@TempDir Path tmp) throws IOException {
        Path f = router(tmp);
        CliRunner r = CliRunner.run("check", f.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(f + ": no errors; lowered to the pipeline and placed on tofino1: 1 table in 1 ingress stage\n", r.out());
    }

    @Test
    void showPrintsTheLoweredProgram(@TempDir Path tmp) throws IOException {
        CliRunner r = CliRunner.run("show", "--program", router(tmp).toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("ipv4_lpm"), r.out());
    }

    @Test
    void replayRoutesEveryIpv4PacketThroughTheDefaultRoute(@TempDir Path tmp) throws IOException {
        Path control = tmp.resolve("routes.txt");
        // 0.0.0.0/0 -> route(next_hop_mac = 0a:0b:0c:0d:0e:0f, port = 5), by the P4 program's own names
        Files.writeString(control, "table_add ipv4_lpm route 0.0.0.0/0 => 0a:0b:0c:0d:0e:0f port=5\n");
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", router(tmp).toString(), "--trace", "gen:isp?packets=2000&flows=40",
                "--control", control.toString(), "--no-progress", "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode counters = Json.mapper().readTree(out.resolve("report.json").toFile()).get("counters");
        assertEquals(2000, counters.get("in").asLong());
        assertEquals(2000, counters.get("out").asLong(), "the generator's packets are IPv4 with a TTL over 1: all routed");

        // without the route every packet misses: no egress port is written, so each is dropped as such
        Path noRoute = tmp.resolve("run2");
        CliRunner dropped = CliRunner.run("replay", "--program", router(tmp).toString(), "--trace", "gen:isp?packets=2000&flows=40",
                "--no-progress", "--out", noRoute.toString());
        assertEquals(0, dropped.exit(), dropped.err());
        JsonNode c2 = Json.mapper().readTree(noRoute.resolve("report.json").toFile()).get("counters");
        assertEquals(0, c2.get("out").asLong());
        assertEquals(2000, c2.get("dropped_by_cause").get("no_egress_port").asLong());
    }

    @Test
    void dashDReachesThePreprocessor(@TempDir Path tmp) throws IOException {
        Path f = router(tmp);
        Files.writeString(f, Files.readString(f).replace("        size = 1024;", "        size = TABLE_SIZE;"));
        CliRunner missing = CliRunner.run("resources", "--program", f.toString());
        assertEquals(2, missing.exit(), missing.err());
        CliRunner r = CliRunner.run("resources", "--program", f.toString(), "-D", "TABLE_SIZE=2048");
        assertEquals(0, r.exit(), r.err());
    }

    @Test
    void anUnsupportedConstructExitsTwoWithItsPosition(@TempDir Path tmp) throws IOException {
        Path f = router(tmp);
        Files.writeString(f, Files.readString(f).replace("    action route(", "    RegisterParam<bit<12>>(12w0) c;\n    action route("));
        CliRunner r = CliRunner.run("resources", "--program", f.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("rmtemu: " + f + ":80:5: RegisterParam c: unsupported type bit<12> (bit<8>, int<8>, bit<16>, int<16>, bit<32> and int<32> are supported)\n", r.err());
    }

    /**
     * A keyless table (no key: every packet runs its default action) in the router, applied
     * before the lpm table: its default sends everything to port 9, so packets the routes
     * miss leave too; table_set_default moves them to port 4; table_add on it is refused
     * when the script is read (exit 2), naming the table.
     */
    @Test
    void aKeylessTableRunsItsDefaultActionWhichTheControlPlaneMaySet(@TempDir Path tmp) throws IOException {
        Path f = router(tmp);
        Files.writeString(f, Files.readString(f)
                .replace("    action route(", "    action to_port(PortId_t port) {\n        ig_tm_md.ucast_egress_port = port;\n    }\n"
                        + "    table fallback {\n        actions = { to_port; }\n        default_action = to_port(9);\n    }\n"
                        + "    action route(")
                .replace("        if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {", "        fallback.apply();\n"
                        + "        if (hdr.ipv4.isValid() && hdr.ipv4.ttl > 1) {"));
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", f.toString(), "--trace", "gen:isp?packets=500&flows=10", "--no-progress",
                "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode counters = Json.mapper().readTree(out.resolve("report.json").toFile()).get("counters");
        assertEquals(500, counters.get("out").asLong(), "no route, but the keyless table's default port");
        JsonNode ports = Json.mapper().readTree(out.resolve("report.json").toFile()).get("ports");
        assertEquals(List.of("9"), fieldNames(ports), ports.toString());
        assertEquals(500, ports.get("9").get("dequeued").asLong());

        Path control = tmp.resolve("default.txt");
        Files.writeString(control, "table_set_default fallback to_port 4\n");
        Path moved = tmp.resolve("moved");
        CliRunner m = CliRunner.run("replay", "--program", f.toString(), "--trace", "gen:isp?packets=500&flows=10",
                "--control", control.toString(), "--no-progress", "--out", moved.toString());
        assertEquals(0, m.exit(), m.err());
        JsonNode movedPorts = Json.mapper().readTree(moved.resolve("report.json").toFile()).get("ports");
        assertEquals(List.of("4"), fieldNames(movedPorts), movedPorts.toString());
        assertEquals(500, movedPorts.get("4").get("dequeued").asLong());

        Files.writeString(control, "table_add fallback to_port => 4\n");
        CliRunner refused = CliRunner.run("replay", "--program", f.toString(), "--trace", "gen:isp?packets=500&flows=10",
                "--control", control.toString(), "--no-progress", "--out", tmp.resolve("refused").toString());
        assertEquals(2, refused.exit(), refused.err());
        assertEquals("rmtemu: " + control + ":1: table fallback has no key: it holds no entries, only its default action"
                + " (table_set_default)\n", refused.err());
    }

    /** Like a compiler, check prints every error the lowering finds, then the count (exit 2). */
    @Test
    void checkPrintsEveryRefusal(@TempDir Path tmp) throws IOException {
        Path f = router(tmp);
        Files.writeString(f, Files.readString(f)
                .replace("    action route(", "    RegisterParam<bit<12>>(12w0) c;\n    action route(")
                .replace("            ipv4_lpm.apply();", "            ipv4_lpm.apply();\n            ig_tm_md.copy_to_cpu = 1;"));
        CliRunner r = CliRunner.run("check", f.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals(f + ":80:5: RegisterParam c: unsupported type bit<12> (bit<8>, int<8>, bit<16>, int<16>, bit<32> and int<32> are supported)\n"
                + f + ":98:13: intrinsic metadata ig_tm_md.copy_to_cpu is not supported by the lowering yet\n"
                + "rmtemu: " + f + ": 2 errors\n", r.err());
    }

    /**
     * pvs_add in a control script fills the P4 parser's value set: language_features.p4 parses
     * EtherType 0x88b5 as IPv4 only once the set holds it. Its ICMP frames leave on port 0
     * unparsed before; after, they are IPv4 without a const entry, so no egress port: dropped.
     */
    @Test
    void pvsAddFillsTheParsersValueSet(@TempDir Path tmp) throws IOException {
        Path program = tmp.resolve("language_features.p4");
        try (InputStream in = P4ProgramCliTest.class.getResourceAsStream("/dev/rmtemu/emulator/engine/p4/language_features.p4")) {
            Files.write(program, in.readAllBytes());
        }
        Path pcap = tmp.resolve("tagged.pcap");
        byte[] frame = new byte[60];
        frame[12] = (byte) 0x88;
        frame[13] = (byte) 0xB5;
        frame[14] = 0x45; // IPv4, IHL 5
        frame[22] = 64; // TTL
        frame[23] = 1; // ICMP
        try (PcapWriter w = new PcapWriter(pcap)) {
            for (int i = 0; i < 10; i++) {
                w.write(PacketRecord.allocate().timestampNs(i * 1_000L).wireLength(frame.length).putFrame(frame, 0, frame.length));
            }
        }
        JsonNode before = replayCounters(tmp.resolve("before"), program, pcap, null);
        assertEquals(10, before.get("out").asLong());
        Path control = tmp.resolve("pvs.txt");
        Files.writeString(control, "pvs_add special_types 0x88b5\n");
        JsonNode after = replayCounters(tmp.resolve("after"), program, pcap, control);
        assertEquals(0, after.get("out").asLong());
        assertEquals(10, after.get("dropped_by_cause").get("no_egress_port").asLong());

        Files.writeString(control, "pvs_add special_type 0x88b5\n");
        CliRunner typo = CliRunner.run("replay", "--program", program.toString(), "--trace", pcap.toString(), "--control",
                control.toString(), "--no-progress", "--out", tmp.resolve("typo").toString());
        assertEquals(2, typo.exit(), typo.err());
        assertEquals("rmtemu: " + control + ":1: no parser value set 'special_type' (did you mean special_types?)\n", typo.err());
    }

    private static List<String> fieldNames(JsonNode o) {
        List<String> names = new ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode replayCounters(Path out, Path program, Path pcap, Path control) throws IOException {
        List<String> args = new ArrayList<>(List.of("replay", "--program", program.toString(), "--trace", pcap.toString(),
                "--no-progress", "--out", out.toString()));
        if (control != null) {
            args.addAll(List.of("--control", control.toString()));
        }
        CliRunner r = CliRunner.run(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.err());
        return Json.mapper().readTree(out.resolve("report.json").toFile()).get("counters");
    }
}

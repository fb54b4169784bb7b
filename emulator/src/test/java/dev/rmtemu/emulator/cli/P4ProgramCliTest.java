package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

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
        Files.writeString(f, Files.readString(f).replace("    action route(", "    Lpf<bit<16>, bit<8>>(256) c;\n    action route("));
        CliRunner r = CliRunner.run("resources", "--program", f.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("rmtemu: " + f + ":80:5: extern Lpf (c) is not supported by the lowering yet\n", r.err());
    }
}

package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code show --parser}, {@code resources --parser} and the protocol hierarchy of {@code trace info}. */
class ParserCliTest {
    @Test
    void showPrintsTheParseGraphWithItsRows() {
        CliRunner r = CliRunner.run("show", "--program", "counter", "--parser");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("parser default: 15 states, 233 parser TCAM rows of 256, PHV 1360 field bits"
                + " + 15 validity bits\n"), r.out());
        assertTrue(r.out().contains("\n  parse_ipv6                      9 rows (8 + 0 + 1) extract(ipv6)\n"
                + "      select(ipv6.next_hdr)\n        0x0 -> parse_ipv6_hop_by_hop\n"), r.out());
        assertTrue(r.out().contains("\n  ipv4 : ipv4_h (20 B + options 0..40 B by ihl) version:4 ihl:4 "), r.out());
    }

    /**
     * A profile with fewer parser TCAM rows refuses the default graph where the rows run out
     * (bf-p4c parde/parde_spec.h, PardeSpec::numTcamRows), exit 3 with one line.
     */
    @Test
    void aParserOverTheTargetsRowsIsRefused(@TempDir Path dir) throws IOException {
        String tofino;
        try (InputStream in = TargetProfiles.class.getResourceAsStream("tofino1.json")) {
            tofino = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path small = dir.resolve("small.json");
        Files.writeString(small, tofino.replace("\"tcamRows\": 256", "\"tcamRows\": 100"));
        CliRunner r = CliRunner.run("show", "--program", "counter", "--parser", "--target", small.toString());
        assertEquals(3, r.exit(), r.err());
        assertEquals("rmtemu: counter: parser default: state parse_ipv6_dest_opts: needs 233 parser TCAM rows in all,"
                + " the target has 100 (the rows run out in this state) [parser TCAM rows]\n", r.err());
    }

    @Test
    void resourcesAppendsTheParserRowsAndKeepsItsJson() {
        CliRunner plain = CliRunner.run("resources", "--program", "counter");
        CliRunner parser = CliRunner.run("resources", "--program", "counter", "--parser");
        assertEquals(0, parser.exit(), parser.err());
        assertTrue(parser.out().startsWith(plain.out() + "\nparser default: 15 states, 233 parser TCAM rows of 256"),
                parser.out());
        CliRunner json = CliRunner.run("resources", "--program", "counter", "--parser", "--json");
        assertEquals(2, json.exit());
        assertEquals("rmtemu: resources: --parser prints text; leave out --json\n", json.err());
    }

    @Test
    void traceInfoOfACaptureShowsItsProtocolHierarchy(@TempDir Path dir) {
        Path pcap = dir.resolve("g.pcap");
        CliRunner conv = CliRunner.run("trace", "convert", "gen:isp?packets=500&seed=3", pcap.toString());
        assertEquals(0, conv.exit(), conv.err());
        CliRunner info = CliRunner.run("trace", "info", pcap.toString());
        assertEquals(0, info.exit(), info.err());
        assertTrue(info.out().contains("\nprotocol hierarchy (parse graph default, 256-byte window): 500 frames, 500 accepted\n"
                + "  ethernet "), info.out());
        assertTrue(info.out().contains("\nparser errors none\n"), info.out());
        CliRunner json = CliRunner.run("trace", "info", pcap.toString(), "--json");
        assertTrue(json.out().replaceAll("\\s", "").contains("\"protocol_hierarchy\":{\"parse_graph\":\"default\","
                + "\"window_bytes\":256,\"frames\":500,\"other_link_frames\":0,\"accepted\":500,\"hierarchy\":[{\"depth\":0,"
                + "\"header\":\"ethernet\",\"frames\":500,\"bytes\":168288},{\"depth\":1,\"header\":\"ipv4\",\"frames\":500,"
                + "\"bytes\":168288},{\"depth\":2,\"header\":\"tcp\",\"frames\":426,"), json.out());
        CliRunner gen = CliRunner.run("trace", "info", "gen:isp?packets=500&seed=3");
        assertFalse(gen.out().contains("protocol hierarchy"), "generated records carry no frame bytes");
        assertFalse(CliRunner.run("trace", "info", "gen:isp?packets=500&seed=3", "--json").out()
                .contains("protocol_hierarchy"));
    }
}

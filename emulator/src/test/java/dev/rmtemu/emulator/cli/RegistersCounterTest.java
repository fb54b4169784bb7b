package dev.rmtemu.emulator.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replay of l2fwd leaves its direct counter's final values in counters/l2_fwd_hits.csv and in
 * report.json's results.externs.counters, the script's counter_read answers in
 * counter_reads.csv, and 'rmtemu registers RUN COUNTER' prints them: each frame counted with its 4-byte CRC.
 * (report.json lists the cells of counters of at most SavedCounters.CELLS_IN_REPORT cells: a table of 16.)
 */
class RegistersCounterTest {
    private static PacketRecord packet(long ns, int dst, int wire) {
        return PacketRecord.allocate().timestampNs(ns).wireLength(wire).ipVersion(4).protocol(17)
                .srcIpv4(0x0A000001).dstIpv4(dst).srcPort(1000).dstPort(2000);
    }

    @Test
    void aReplayKeepsItsCountersAndTheCommandPrintsThem(@TempDir Path tmp) throws Exception {
        Path pcap = tmp.resolve("t.pcap");
        try (PcapWriter w = new PcapWriter(pcap)) {
            w.write(packet(0, 0x0A000002, 200));
            w.write(packet(1_000, 0x0A000002, 1000));
            w.write(packet(2_000, 0x0A000003, 300));
            w.write(packet(3_000, 0x0A000009, 400)); // no entry: dropped, counted nowhere
        }
        Path control = tmp.resolve("c.txt");
        Files.writeString(control, """
                table_add l2_fwd forward 02:00:0a:00:00:02 => 3
                table_add l2_fwd forward 02:00:0a:00:00:03 => 5
                counter_read l2_fwd_hits 1
                """);
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "l2fwd", "--param", "entries=16", "--target", "tofino1", "--trace", pcap.toString(),
                "--control", control.toString(), "--out", out.toString(), "--no-progress");
        assertEquals(0, r.exit(), r.err());
        assertEquals(List.of("index,packets,bytes", "0,2,1208", "1,1,304", "2,0,0"),
                Files.readAllLines(out.resolve("counters/l2_fwd_hits.csv")).subList(0, 4));
        assertEquals(List.of("where,cycle,counter,index,packets,bytes", "\"" + control + ":3\",0,l2_fwd_hits,1,0,0"),
                Files.readAllLines(out.resolve("counter_reads.csv")));
        JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
        JsonNode hits = report.path("results").path("externs").path("counters").path("l2_fwd_hits");
        assertEquals(3, hits.path("packets").asLong(), report.path("results").toString());
        assertEquals(1512, hits.path("bytes").asLong());
        assertEquals("l2_fwd", hits.path("direct_on").asText());
        assertEquals("[{\"index\":0,\"packets\":2,\"bytes\":1208},{\"index\":1,\"packets\":1,\"bytes\":304}]",
                hits.path("cells").toString());
        assertTrue(report.path("files").toString().contains("counters/l2_fwd_hits.csv"), report.path("files").toString());
        assertEquals(18, Files.readAllLines(out.resolve("counters/l2_fwd_hits.csv")).size(),
                "a header, a row per entry and the miss entry's");
        assertEquals(List.of(16, 17), List.of(hits.path("size").asInt(), hits.path("cell_count").asInt()));

        CliRunner one = CliRunner.run("registers", out.toString(), "l2_fwd_hits", "--range", "0:3");
        assertEquals(0, one.exit(), one.err());
        assertEquals("0 2 1208\n1 1 304\n2 0 0\n", one.out());
        CliRunner csv = CliRunner.run("registers", out.toString(), "l2_fwd_hits", "--csv", "--range", "1:2");
        assertEquals("index,packets,bytes\n1,1,304\n", csv.out());
        CliRunner past = CliRunner.run("registers", out.toString(), "l2_fwd_hits", "--range", "0:18");
        assertEquals(2, past.exit());
        assertEquals("rmtemu: registers: --range 0:18 reaches past counter l2_fwd_hits's 17 cells\n", past.err());
        CliRunner none = CliRunner.run("registers", out.toString(), "nosuch");
        assertEquals(2, none.exit());
        assertEquals(1, none.err().lines().count(), none.err());
    }
}

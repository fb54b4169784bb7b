package dev.rmtemu.emulator.cli;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.pcap.PcapWriter;
import dev.rmtemu.traces.store.TraceStore;
import dev.rmtemu.traces.store.TraceStoreWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30.10: a damaged trace does not cost the previous run. Damage a header check cannot
 * see (a capture cut off mid-file, a store record that fails its checksum, also past
 * {@code --max-packets}) is found by reading the whole trace before {@code --out} is touched:
 * exit 2, one line, and the previous run's files are byte for byte as they were.
 */
class DamagedInputTest {
    private static final String GEN = "gen:isp?packets=2000&flows=50&seed=9";
    /** The record the store test alters: far past the --max-packets the second replay reads. */
    private static final int ALTERED_RECORD = 1500;
    private static final String MAX_PACKETS = "100";

    private static CliRunner replay(Path out, String trace, String... extra) {
        List<String> args = new ArrayList<>(List.of("replay", "--program", "counter", "--trace", trace, "--rate", "100G",
                "--no-progress", "--out", out.toString()));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static TreeMap<String, byte[]> snapshot(Path dir) throws Exception {
        TreeMap<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                m.put(dir.relativize(p).toString(), Files.readAllBytes(p));
            }
        }
        return m;
    }

    private static void assertSameTree(TreeMap<String, byte[]> a, TreeMap<String, byte[]> b) {
        assertEquals(a.keySet(), b.keySet());
        for (String k : a.keySet()) {
            assertArrayEquals(a.get(k), b.get(k), k);
        }
    }

    /** A previous, complete run in {@code tmp/run}, and its files. */
    private static Path previousRun(Path tmp) {
        Path out = tmp.resolve("run");
        CliRunner first = replay(out, GEN);
        assertEquals(0, first.exit(), first.err());
        return out;
    }

    @Test
    void aCaptureCutOffMidFileKeepsThePreviousRun(@TempDir Path tmp) throws Exception {
        Path out = previousRun(tmp);
        TreeMap<String, byte[]> before = snapshot(out);
        Path pcap = tmp.resolve("cut.pcap");
        try (PacketSource gen = TraceSpec.open(GEN); PcapWriter w = new PcapWriter(pcap)) {
            PacketRecord r = PacketRecord.allocate();
            while (gen.next(r)) {
                w.write(r);
            }
        }
        long size = Files.size(pcap);
        try (RandomAccessFile f = new RandomAccessFile(pcap.toFile(), "rw")) {
            f.setLength(size - 10); // the last frame loses its last 10 bytes
        }
        for (String[] extra : List.of(new String[0], new String[] {"--max-packets", MAX_PACKETS})) {
            CliRunner r = replay(out, pcap.toString(), extra);
            assertEquals(2, r.exit(), r.err());
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(lines.get(0).startsWith("rmtemu: " + pcap + ": "), lines.get(0));
            assertTrue(lines.get(0).contains("truncated"), lines.get(0));
            assertSameTree(before, snapshot(out));
        }
    }

    @Test
    void aStoreRecordThatFailsItsChecksumKeepsThePreviousRunAlsoPastMaxPackets(@TempDir Path tmp) throws Exception {
        Path out = previousRun(tmp);
        TreeMap<String, byte[]> before = snapshot(out);
        Path store = tmp.resolve("store");
        try (PacketSource gen = TraceSpec.open(GEN)) {
            TraceStoreWriter.write(gen, store, null);
        }
        byte[] record = new byte[PacketRecord.DECODED_BYTES];
        try (PacketSource s = TraceSpec.open(store.toString())) {
            PacketRecord r = PacketRecord.allocate();
            for (int i = 0; i <= ALTERED_RECORD; i++) {
                assertTrue(s.next(r));
            }
            r.buffer().getBytes(r.offset(), record);
        }
        Path cycleFile;
        try (Stream<Path> s = Files.list(store)) {
            cycleFile = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        byte[] file = Files.readAllBytes(cycleFile);
        int at = indexOf(file, record);
        file[at + 40] ^= 0x5a; // one header byte of the frame
        Files.write(cycleFile, file);
        // the damage behind the file checksum: recomputed, as a careless tool (or a forger) would
        CRC32C crc = new CRC32C();
        crc.update(file);
        Path manifest = store.resolve(TraceStore.MANIFEST);
        String key = "file." + cycleFile.getFileName() + "=";
        StringBuilder sb = new StringBuilder();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            sb.append(line.startsWith(key) ? key + file.length + " crc32c=" + Long.toHexString(crc.getValue()) : line)
                    .append('\n');
        }
        Files.writeString(manifest, sb.toString(), StandardCharsets.UTF_8);

        String expected = "rmtemu: " + store + ": corrupt trace store: the records do not match their checksum (corrupt records)";
        for (String[] extra : List.of(new String[0], new String[] {"--max-packets", MAX_PACKETS})) {
            CliRunner r = replay(out, store.toString(), extra);
            assertEquals(2, r.exit(), r.err());
            assertEquals(expected, r.err().strip());
            assertSameTree(before, snapshot(out));
        }
    }

    private static int indexOf(byte[] file, byte[] rec) {
        outer:
        for (int i = 0; i + rec.length <= file.length; i++) {
            for (int j = 0; j < rec.length; j++) {
                if (file[i + j] != rec[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("record not found in the cycle file");
    }
}

package dev.rmtemu.traces.store;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipReason;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.gen.GeneratorKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import static dev.rmtemu.traces.TraceTestSupport.drain;
import static dev.rmtemu.traces.TraceTestSupport.gen;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceStoreTest {
    @TempDir
    Path dir;

    @Test
    void storeRoundTripGivesIdenticalRecords() {
        List<byte[]> expected = drain(gen(GeneratorKind.ISP, "packets", "30000", "flows", "700", "ipv6", "0.3",
                "ports", "8"));
        Path store = dir.resolve("t.cq");
        long n = TraceStoreWriter.write(gen(GeneratorKind.ISP, "packets", "30000", "flows", "700", "ipv6", "0.3",
                "ports", "8"), store, PacketRecord.MAX_FRAME_BYTES, null); // whole frames, byte for byte
        assertEquals(30000, n);
        try (PacketSource src = TraceSpec.open(store.toString())) {
            assertEquals(30000, src.knownCount()); // from the manifest, before reading: the progress bar's total
            List<byte[]> actual = drain(src);
            assertEquals(expected.size(), actual.size());
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), actual.get(i), "record " + i);
            }
            assertTrue(src.describe().contains("30000 records from gen:isp?"), src.describe());
        }
    }

    private static TreeMap<String, String> digests(Path d) throws Exception {
        TreeMap<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : s.toList()) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                m.put(p.getFileName().toString(), HexFormat.of().formatHex(md.digest(Files.readAllBytes(p))));
            }
        }
        return m;
    }

    @Test
    void sameSourceGivesTheSameStoreFiles() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        TraceStoreWriter.write(gen(GeneratorKind.DC, "packets", "5000", "flows", "100"), a, null);
        TraceStoreWriter.write(gen(GeneratorKind.DC, "packets", "5000", "flows", "100"), b, null);
        TreeMap<String, String> da = digests(a);
        try (TraceStoreSource replay = new TraceStoreSource(b)) {
            assertEquals(5000, drain(replay).size());
        }
        TreeMap<String, String> db = digests(b); // replaying opens read-only: the store is unchanged
        assertTrue(da.keySet().stream().anyMatch(f -> f.endsWith(".cq4")), da.toString());
        // The queue's data files are named by cycle, not by wall time, and have the same bytes.
        assertEquals(da.keySet(), db.keySet());
        for (String f : da.keySet()) {
            if (f.endsWith(".cq4") || f.equals(TraceStore.MANIFEST)) {
                assertEquals(da.get(f), db.get(f), f);
            }
        }
    }

    @Test
    void skipCountersSurviveTheStore() throws IOException {
        PacketSource skipping = new PacketSource() {
            private final dev.rmtemu.traces.SkipCounters s = new dev.rmtemu.traces.SkipCounters();

            @Override
            public boolean next(dev.rmtemu.traces.PacketRecord into) {
                s.add(SkipReason.ARP, 3);
                return false;
            }

            @Override
            public dev.rmtemu.traces.SkipCounters skipped() {
                return s;
            }

            @Override
            public String describe() {
                return "empty";
            }

            @Override
            public void close() {
            }
        };
        Path store = dir.resolve("s");
        assertEquals(0, TraceStoreWriter.write(skipping, store, null));
        try (TraceStoreSource src = new TraceStoreSource(store)) {
            assertEquals(3, src.skipped().count(SkipReason.ARP));
            assertEquals(0, drain(src).size());
        }
    }

    @Test
    void refusesNonEmptyDirectoryAndNonStore() throws IOException {
        Path d = dir.resolve("x");
        Files.createDirectories(d);
        Files.writeString(d.resolve("junk"), "x");
        assertThrows(UserError.class, () -> TraceStoreWriter.write(gen(GeneratorKind.DC, "packets", "10"), d, null));
        UserError e = assertThrows(UserError.class, () -> TraceSpec.open(d.toString()));
        assertTrue(e.getMessage().contains("not a trace store"), e.getMessage());
    }
}

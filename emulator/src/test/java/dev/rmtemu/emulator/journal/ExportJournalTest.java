package dev.rmtemu.emulator.journal;

import dev.rmtemu.model.UserError;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExportJournalTest {

    /** One decoded message, for comparing streams. */
    record Msg(String kind, long cycle, int switchId, int pipe, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Msg m && m.kind.equals(kind) && m.cycle == cycle && m.switchId == switchId
                    && m.pipe == pipe && Arrays.equals(m.payload, payload);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(cycle);
        }

        @Override
        public String toString() {
            return kind + "@" + cycle + " sw" + switchId + " p" + pipe + " " + payload.length + "B";
        }
    }

    static JournalKinds kinds() {
        JournalKinds k = new JournalKinds();
        k.register("lossradar.digest");
        k.register("wbmon.drops");
        k.register("midst.report");
        return k;
    }

    /** A deterministic stream of messages: payload lengths 0..99 (odd sizes included). */
    static List<Msg> messages(int n) {
        List<Msg> out = new ArrayList<>();
        String[] names = {"lossradar.digest", "wbmon.drops", "midst.report"};
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            byte[] payload = new byte[i % 100];
            for (int j = 0; j < payload.length; j++) {
                payload[j] = (byte) (x >>> (j % 8 * 8));
            }
            out.add(new Msg(names[i % 3], 1000L * i + (x & 0xff), i % 5, i % 4, payload));
        }
        return out;
    }

    /** Appends through an off-heap buffer at a non-zero offset, as the engine would. */
    static void write(ExportJournal journal, List<Msg> msgs) {
        UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(256));
        final int offset = 13;
        for (Msg m : msgs) {
            buf.putBytes(offset, m.payload);
            journal.append(journal.kinds().id(m.kind), m.cycle, m.switchId, m.pipe, buf, offset, m.payload.length);
        }
    }

    static List<Msg> readAll(JournalReader reader) {
        List<Msg> out = new ArrayList<>();
        JournalHandler h = (kind, cycle, sw, pipe, payload, offset, length) -> {
            byte[] b = new byte[length];
            payload.getBytes(offset, b);
            out.add(new Msg(reader.kinds().name(kind), cycle, sw, pipe, b));
        };
        while (reader.poll(h, 64) > 0) {
            // keep polling until nothing new
        }
        return out;
    }

    @Test
    void messagesReadBackInOrderWithExactContents(@TempDir Path runDir) {
        List<Msg> msgs = messages(5_000);
        try (ExportJournal journal = ExportJournal.create(runDir, kinds())) {
            write(journal, msgs);
            assertEquals(5_000, journal.messagesAppended());
        }
        assertTrue(Files.isDirectory(runDir.resolve("journal")));
        try (JournalReader reader = JournalReader.open(runDir.resolve("journal"))) {
            List<Msg> back = readAll(reader);
            assertEquals(msgs, back);
            assertTrue(reader.isEnded());
            assertEquals(5_000, reader.messagesRead());
            assertEquals(msgs.get(msgs.size() - 1).cycle(), reader.endCycle());
            assertEquals(List.of("journal.header", "journal.end", "lossradar.digest", "wbmon.drops", "midst.report"),
                    reader.kinds().names());
            assertEquals(0, reader.poll((k, c, s, p, b, o, l) -> { }, 10), "nothing after the end message");
        }
        // Opening the run directory finds the journal inside it.
        try (JournalReader reader = JournalReader.open(runDir)) {
            assertEquals(msgs, readAll(reader));
        }
    }

    @Test
    void emptyJournalHasHeaderAndEndOnly(@TempDir Path runDir) {
        try (ExportJournal journal = ExportJournal.create(runDir, new JournalKinds())) {
            assertEquals(0, journal.messagesAppended());
        }
        try (JournalReader reader = JournalReader.open(runDir)) {
            assertTrue(readAll(reader).isEmpty());
            assertTrue(reader.isEnded());
            assertEquals(0, reader.endCycle());
        }
    }

    @Test
    void twoRunsWriteIdenticalFiles(@TempDir Path tmp) throws IOException {
        List<Msg> msgs = messages(3_000);
        Path a = tmp.resolve("run-a");
        Path b = tmp.resolve("run-b");
        for (Path run : List.of(a, b)) {
            try (ExportJournal journal = ExportJournal.create(run, kinds())) {
                write(journal, msgs);
            }
        }
        TreeMap<String, byte[]> filesA = filesOf(a.resolve("journal"));
        TreeMap<String, byte[]> filesB = filesOf(b.resolve("journal"));
        assertEquals(filesA.keySet(), filesB.keySet());
        assertTrue(filesA.keySet().stream().anyMatch(n -> n.endsWith(".cq4")), "queue file " + filesA.keySet());
        for (String name : filesA.keySet()) {
            assertArrayEquals(filesA.get(name), filesB.get(name), "journal file " + name + " differs between runs");
        }
    }

    @Test
    void differentMessagesGiveDifferentFiles(@TempDir Path tmp) throws IOException {
        List<Msg> msgs = messages(100);
        List<Msg> changed = new ArrayList<>(msgs);
        Msg m = changed.get(50);
        changed.set(50, new Msg(m.kind(), m.cycle() + 1, m.switchId(), m.pipe(), m.payload()));
        try (ExportJournal journal = ExportJournal.create(tmp.resolve("a"), kinds())) {
            write(journal, msgs);
        }
        try (ExportJournal journal = ExportJournal.create(tmp.resolve("b"), kinds())) {
            write(journal, changed);
        }
        TreeMap<String, byte[]> filesA = filesOf(tmp.resolve("a/journal"));
        TreeMap<String, byte[]> filesB = filesOf(tmp.resolve("b/journal"));
        boolean differ = false;
        for (String name : filesA.keySet()) {
            differ |= !Arrays.equals(filesA.get(name), filesB.get(name));
        }
        assertTrue(differ, "a changed cycle must change the journal bytes");
    }

    @Test
    void tailInAnotherThreadSeesEveryMessageAndStopsAtTheEnd(@TempDir Path runDir) throws Exception {
        List<Msg> msgs = messages(20_000);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch headerWritten = new CountDownLatch(1);
            ExportJournal journal = ExportJournal.create(runDir, kinds());
            headerWritten.countDown();
            Future<List<Msg>> tailed = pool.submit(() -> {
                headerWritten.await();
                try (JournalReader reader = JournalReader.open(runDir)) {
                    List<Msg> out = new ArrayList<>();
                    long n = reader.tail((kind, cycle, sw, pipe, payload, offset, length) -> {
                        byte[] b = new byte[length];
                        payload.getBytes(offset, b);
                        out.add(new Msg(reader.kinds().name(kind), cycle, sw, pipe, b));
                    });
                    assertEquals(out.size(), n);
                    assertTrue(reader.isEnded());
                    return out;
                }
            });
            // Write in bursts so the tailer catches up and waits several times.
            for (int i = 0; i < msgs.size(); i += 2_000) {
                write(journal, msgs.subList(i, i + 2_000));
                Thread.sleep(5);
            }
            assertFalse(tailed.isDone(), "the tailer must wait for the end message, not stop when idle");
            journal.close();
            assertEquals(msgs, tailed.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void appendAllocatesNothing(@TempDir Path runDir) {
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        UnsafeBuffer buf = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        buf.setMemory(0, 64, (byte) 7);
        try (ExportJournal journal = ExportJournal.create(runDir, kinds())) {
            int kind = journal.kinds().id("wbmon.drops");
            for (int i = 0; i < 20_000; i++) { // warm up: JIT, appender context, index pages
                journal.append(kind, i, 0, 0, buf, 0, 64);
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            final int n = 50_000;
            for (int i = 0; i < n; i++) {
                journal.append(kind, i, 1, 2, buf, 0, 64);
            }
            long perMessage = (mx.getCurrentThreadAllocatedBytes() - before) / n;
            assertEquals(0, perMessage, "bytes allocated per appended message");
        }
    }

    @Test
    void badUseIsRefused(@TempDir Path runDir) throws IOException {
        try (ExportJournal journal = ExportJournal.create(runDir, kinds())) {
            DirectBuffer buf = new UnsafeBuffer(new byte[8]);
            assertThrows(IllegalArgumentException.class, () -> journal.append(JournalKinds.END, 0, 0, 0, buf, 0, 8));
            assertThrows(IllegalArgumentException.class, () -> journal.append(99, 0, 0, 0, buf, 0, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> journal.append(2, 0, 0, 0, buf, 4, 8));
        }
        UserError again = assertThrows(UserError.class, () -> ExportJournal.create(runDir, kinds()));
        assertTrue(again.getMessage().contains("already holds a journal"), again.getMessage());

        UserError missing = assertThrows(UserError.class, () -> JournalReader.open(runDir.resolve("nope")));
        assertTrue(missing.getMessage().contains("no such directory"), missing.getMessage());
        Path empty = Files.createDirectory(runDir.resolve("empty"));
        UserError notJournal = assertThrows(UserError.class, () -> JournalReader.open(empty));
        assertTrue(notJournal.getMessage().contains("not an export journal"), notJournal.getMessage());

        JournalKinds k = new JournalKinds();
        assertThrows(IllegalArgumentException.class, () -> k.register("journal.end"));
        assertThrows(IllegalArgumentException.class, () -> k.register("Bad Name"));
        assertEquals(2, k.register("a.b"));
        assertEquals(2, k.register("a.b"));
        assertEquals(3, k.register("c"));
    }

    @Test
    void kindsRegisteredAfterCreateDoNotReachTheJournal(@TempDir Path runDir) {
        JournalKinds k = kinds();
        try (ExportJournal journal = ExportJournal.create(runDir, k)) {
            int late = k.register("lds.sketch");
            DirectBuffer buf = new UnsafeBuffer(new byte[8]);
            assertThrows(IllegalArgumentException.class, () -> journal.append(late, 0, 0, 0, buf, 0, 8));
        }
    }

    static TreeMap<String, byte[]> filesOf(Path dir) throws IOException {
        TreeMap<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                out.put(p.getFileName().toString(), Files.readAllBytes(p));
            }
        }
        assertNotNull(out);
        return out;
    }
}

package dev.rmtemu.traces.store;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.SyntheticSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * Fuzz target: a valid trace store damaged by the input, then opened and read.
 * Byte 0 picks the damage: 0 the manifest replaced by the rest of the input; 1 bytes
 * XORed into a queue file (byte 1 picks the file, then 5-byte groups: 4-byte offset,
 * 1-byte mask); 2 an extra queue file holding the rest; 3 a small file truncated
 * (byte 1 picks the manifest or metadata.cq4t, bytes 2-5 the length). Every damage
 * is undone after the input, so one store serves the whole campaign.
 * Contract: the store reads to its end, or a UserError naming the store; nothing
 * else, no hang, nothing mapped that is not checked first.
 */
class TraceStoreFuzzTest {
    private static final int RECORDS = 300;
    private static Path store;
    private static Map<String, byte[]> smallFiles;
    private static List<String> queueFiles;

    private static synchronized void ensureStore() throws IOException {
        if (store != null) {
            return;
        }
        Path dir = Files.createTempDirectory("rmtemu-fuzz-store");
        dir.toFile().deleteOnExit();
        Path s = dir.resolve("store");
        GeneratorConfig cfg = TraceSpec.generator("gen:isp?packets=" + RECORDS + "&flows=30&seed=5");
        TraceStoreWriter.write(new SyntheticSource(cfg), s, null);
        smallFiles = Map.of(TraceStore.MANIFEST, Files.readAllBytes(s.resolve(TraceStore.MANIFEST)),
                "metadata.cq4t", Files.readAllBytes(s.resolve("metadata.cq4t")));
        queueFiles = List.copyOf(StoreManifest.describeFiles(s).keySet());
        store = s;
    }

    @FuzzTest(maxDuration = "10m")
    void damagedStore(byte[] input) throws IOException {
        ensureStore();
        if (input.length < 2) {
            return;
        }
        Runnable undo = damage(input);
        try {
            readAll();
        } finally {
            undo.run();
        }
    }

    private static void readAll() {
        PacketRecord r = PacketRecord.allocate();
        try (PacketSource src = TraceSpec.open(store.toString())) {
            while (src.next(r)) {
                // every record read and checked
            }
        } catch (UserError e) {
            if (!e.getMessage().contains(store.toString())) {
                throw new AssertionError("refusal does not name the store: " + e.getMessage(), e);
            }
        }
    }

    private static Runnable damage(byte[] in) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.BIG_ENDIAN);
        int mode = (b.get() & 0xFF) % 4;
        switch (mode) {
            case 0 -> {
                Path m = store.resolve(TraceStore.MANIFEST);
                Files.write(m, java.util.Arrays.copyOfRange(in, 1, in.length));
                return restore(TraceStore.MANIFEST);
            }
            case 1 -> {
                Path f = store.resolve(queueFiles.get((b.get() & 0xFF) % queueFiles.size()));
                long size = Files.size(f);
                List<long[]> flips = new java.util.ArrayList<>();
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    while (b.remaining() >= 5) {
                        long at = Integer.toUnsignedLong(b.getInt()) % size;
                        byte mask = b.get();
                        xor(ch, at, mask);
                        flips.add(new long[] {at, mask});
                    }
                }
                return () -> {
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                        for (int i = flips.size() - 1; i >= 0; i--) {
                            xor(ch, flips.get(i)[0], (byte) flips.get(i)[1]);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
            }
            case 2 -> {
                Path extra = store.resolve((in[1] & 1) == 0 ? "19700102H.cq4" : "extra.cq4t");
                Files.write(extra, java.util.Arrays.copyOfRange(in, 2, in.length));
                return () -> {
                    try {
                        Files.deleteIfExists(extra);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
            }
            default -> {
                String name = (b.get() & 1) == 0 ? TraceStore.MANIFEST : "metadata.cq4t";
                byte[] whole = smallFiles.get(name);
                int len = b.remaining() >= 4 ? Integer.remainderUnsigned(b.getInt(), whole.length + 1) : 0;
                Files.write(store.resolve(name), java.util.Arrays.copyOf(whole, len));
                return restore(name);
            }
        }
    }

    private static Runnable restore(String smallFile) {
        return () -> {
            try {
                Files.write(store.resolve(smallFile), smallFiles.get(smallFile));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static void xor(FileChannel ch, long at, byte mask) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        ch.read(one, at);
        one.flip();
        byte v = (byte) (one.get(0) ^ mask);
        ch.write(ByteBuffer.wrap(new byte[] {v}), at);
    }
}

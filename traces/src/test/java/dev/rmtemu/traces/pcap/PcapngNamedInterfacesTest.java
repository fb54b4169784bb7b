package dev.rmtemu.traces.pcap;

import dev.rmtemu.traces.PacketRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pcapng written from frame bytes: named interfaces (if_name), packet comments (opt_comment),
 * the snap length, a frame limit; read back by the project's reader, bytes for bytes.
 */
class PcapngNamedInterfacesTest {
    @TempDir
    Path dir;

    private static byte[] frame(int n, int length) {
        byte[] f = new byte[length];
        for (int i = 0; i < length; i++) {
            f[i] = (byte) (n * 31 + i);
        }
        return f;
    }

    private record Read(int port, long ns, int wire, byte[] bytes, String comment) {
    }

    private static List<Read> read(Path file, List<String> names) {
        List<Read> out = new ArrayList<>();
        try (CaptureReader r = CaptureFiles.open(file, false)) {
            PcapngReader ng = (PcapngReader) r;
            ng.readComments(true);
            PacketRecord rec = PacketRecord.allocate();
            // the tap sees every frame, decoded or not (these test frames are no IP packets)
            r.tap((b, off, cap, wire, linkType) -> {
                byte[] bytes = new byte[cap];
                b.getBytes(off, bytes);
                out.add(new Read(rec.ingressPort(), rec.timestampNs(), wire, bytes, ng.comment()));
            });
            while (r.next(rec)) {
                // records are not what this test reads
            }
            for (int i = 0; i < ng.interfaceCount(); i++) {
                names.add(ng.interfaceName(i));
            }
        }
        return out;
    }

    @Test
    void framesKeepTheirBytesInterfacesTheirNamesAndPacketsTheirComments() {
        Path f = dir.resolve("e.pcapng");
        byte[] a = frame(1, 60);
        byte[] b = frame(2, 67); // not a multiple of 4: padded in the block, not in the frame
        try (PcapngWriter w = new PcapngWriter(f, 64, 1 << 16, 10, i -> "port" + i)) {
            assertTrue(w.writeFrame(2, 1_000_000_007L, new UnsafeBuffer(a), 0, a.length, 60, null));
            assertTrue(w.writeFrame(0, 5_000_000_000L, new UnsafeBuffer(b), 0, b.length, 1500,
                    "tm_queue_limit".getBytes(StandardCharsets.UTF_8)));
        }
        List<String> names = new ArrayList<>();
        List<Read> frames = read(f, names);
        assertEquals(List.of("port0", "port1", "port2"), names);
        assertEquals(2, frames.size());
        assertEquals(2, frames.get(0).port());
        assertEquals(1_000_000_007L, frames.get(0).ns());
        assertEquals(60, frames.get(0).wire());
        assertArrayEquals(a, frames.get(0).bytes());
        assertNull(frames.get(0).comment());
        assertEquals(0, frames.get(1).port());
        assertEquals(5_000_000_000L, frames.get(1).ns());
        // snap length 64: 64 of 67 bytes kept, the original length says 1500
        assertEquals(1500, frames.get(1).wire());
        assertArrayEquals(java.util.Arrays.copyOf(b, 64), frames.get(1).bytes());
        assertEquals("tm_queue_limit", frames.get(1).comment());
    }

    @Test
    void aFileTakesItsLimitAndCountsTheRest() {
        Path f = dir.resolve("l.pcapng");
        byte[] a = frame(3, 64);
        try (PcapngWriter w = new PcapngWriter(f, 128, 1 << 16, 2, i -> "port" + i)) {
            assertTrue(w.writeFrame(1, 1, new UnsafeBuffer(a), 0, 64, 64, null));
            assertTrue(w.writeFrame(1, 2, new UnsafeBuffer(a), 0, 64, 64, null));
            assertFalse(w.writeFrame(1, 3, new UnsafeBuffer(a), 0, 64, 64, null));
            assertFalse(w.writeFrame(5, 4, new UnsafeBuffer(a), 0, 64, 64, null));
            assertEquals(2, w.written());
            assertEquals(2, w.notWritten());
        }
        List<String> names = new ArrayList<>();
        assertEquals(List.of(1L, 2L), read(f, names).stream().map(Read::ns).toList());
        assertEquals(List.of("port0", "port1"), names, "no interface declared for a frame not written");
    }

    @Test
    void anUnnamedWriterWritesNoNames() {
        Path f = dir.resolve("u.pcapng");
        byte[] a = frame(4, 64);
        try (PcapngWriter w = new PcapngWriter(f, 128, 1 << 16, CaptureWriter.NO_LIMIT, null)) {
            w.writeFrame(0, 1, new UnsafeBuffer(a), 0, 64, 64, null);
        }
        List<String> names = new ArrayList<>();
        read(f, names);
        List<String> none = new ArrayList<>();
        none.add(null);
        assertEquals(none, names);
    }

    @Test
    void aCommentOverTheOptionLimitIsRefused() throws Exception {
        Path f = dir.resolve("c.pcapng");
        byte[] a = frame(5, 64);
        try (PcapngWriter w = new PcapngWriter(f, 128, 1 << 16, 10, null)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.writeFrame(0, 1,
                    new UnsafeBuffer(a), 0, 64, 64, new byte[PcapngWriter.MAX_OPTION_BYTES + 1]));
            assertEquals("comment of 1025 bytes, over 1024", e.getMessage());
        }
        assertTrue(Files.size(f) > 0);
    }
}

package dev.rmtemu.programs.parse;

import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The switch's deparse copies the headers that stay and writes only the program's fields over
 * them: for every registered program, over IPv4 and IPv6 frames (captured whole or truncated,
 * with or without the program's own headers on them) and random PHV values and validity bits,
 * it gives the very bytes and length of the deparse that parses the frame in full and
 * serialises every field again. Each output is fed back as the next input, so headers a
 * previous deparse added are parsed, kept, rewritten or removed. The same bytes come from the
 * engine's two shortcuts: the ingress deparser reusing the parse just made, and the egress
 * deparser using the layout kept for the packet's pool slot.
 */
class CopyingDeparseTest {
    private static final int WINDOW = 256;
    private static final int FRAMES = 400;
    private static final int ROUNDS = 4;
    /** The programs whose own header a deparse adds to a frame (it lengthens the frame). */
    static final Set<String> SHIMS = Set.of("lossradar", "wbmon", "lds", "midst");

    static Stream<String> programs() {
        return ProgramPlugins.registry().all().keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("programs")
    void copyingDeparseWritesTheBytesOfTheFullDeparse(String name) {
        StageProgram program = ProgramPlugins.registry().build(name, Map.of());
        assertTrue(program.parser().deparser().copies(), name + ": its checksums are summed over whole bytes of their header");
        FrameParser frames = new FrameParser(program, WINDOW);
        long[] phv = new long[program.fields().size()];
        SplitMix64 rnd = new SplitMix64(name.hashCode());
        int accepted = 0;
        int grown = 0;
        int inPlace = 0;
        int insertedInPlace = 0;
        for (int i = 0; i < FRAMES; i++) {
            byte[] frame = frame(rnd, i);
            for (int round = 0; round < ROUNDS; round++) {
                int caplen = round == 0 && i % 5 == 0 ? (int) (rnd.nextLong() & 0x3F) % frame.length : frame.length;
                int wire = frame.length + (i % 7 == 0 ? 20 : 0);
                if (!frames.parse(frame, 0, caplen, wire, phv)) {
                    assertEquals(-1, frames.deparse(frame, 0, caplen, wire, phv), name + ": frame " + i);
                    assertEquals(-1, frames.deparseByFullParse(frame, 0, caplen, wire, phv), name + ": frame " + i);
                    break;
                }
                accepted++;
                frames.keepLayout(i % 3); // as the engine keeps it for the packet's egress deparser
                for (int s = 0; s < phv.length; s++) {
                    long r = rnd.nextLong();
                    switch ((int) (r & 3)) {
                        case 0 -> phv[s] = 0;
                        case 1 -> phv[s] = 1;
                        case 2 -> phv[s] = r >>> 2;
                        default -> { } // as the parser loaded it
                    }
                }
                int n = frames.deparse(frame, 0, caplen, wire, phv);
                byte[] copied = Arrays.copyOf(frames.deparsed(), Math.max(n, 0));
                int m = frames.deparseByFullParse(frame, 0, caplen, wire, phv);
                byte[] full = Arrays.copyOf(frames.deparsed(), Math.max(m, 0));
                assertEquals(m, n, name + ": frame " + i + " round " + round + " length");
                assertArrayEquals(full, copied, name + ": frame " + i + " round " + round);
                // the ingress deparser's form: the layout of the parse above, not a parse again
                int k = frames.deparse(frame, 0, caplen, wire, phv, true);
                assertEquals(m, k, name + ": frame " + i + " round " + round + " length, reusing the parse");
                assertArrayEquals(full, Arrays.copyOf(frames.deparsed(), Math.max(k, 0)),
                        name + ": frame " + i + " round " + round + ", reusing the parse");
                // the egress deparser's form: the layout kept at the parse, the fields' values unknown
                int e = frames.deparse(frame, 0, caplen, wire, phv, false, i % 3);
                assertEquals(m, e, name + ": frame " + i + " round " + round + " length, from the kept layout");
                assertArrayEquals(full, Arrays.copyOf(frames.deparsed(), Math.max(e, 0)),
                        name + ": frame " + i + " round " + round + ", from the kept layout");
                // the engine's form: written over the frame in its pool slot (capacity bytes from off)
                for (int capacity : new int[] {WINDOW, caplen + 4}) {
                    for (boolean fromLayout : new boolean[] {false, true}) {
                        int off = 3 + (i % 5);
                        byte[] slot = new byte[off + capacity + 16];
                        Arrays.fill(slot, (byte) 0x5A);
                        System.arraycopy(frame, 0, slot, off, caplen);
                        if (!fromLayout) {
                            assertTrue(frames.parse(slot, off, caplen, wire, new long[phv.length]), "parses again");
                        }
                        int p = frames.deparseInPlace(slot, off, caplen, wire, phv, !fromLayout, fromLayout ? i % 3 : -1, capacity);
                        String what = name + ": frame " + i + " round " + round + " in place, capacity " + capacity
                                + (fromLayout ? ", from the kept layout" : ", reusing the parse");
                        assertEquals(m, p, what + ": length");
                        int kept = Math.min(p, capacity);
                        assertArrayEquals(Arrays.copyOf(full, kept), Arrays.copyOfRange(slot, off, off + kept), what);
                        for (int b = 0; b < off; b++) {
                            assertEquals(0x5A, slot[b], what + ": byte " + b + " before the frame");
                        }
                        for (int b = off + capacity; b < slot.length; b++) {
                            assertEquals(0x5A, slot[b], what + ": byte " + b + " after the slot");
                        }
                        inPlace += frames.deparsedInPlace() ? 1 : 0;
                        insertedInPlace += frames.deparsedInPlace() && p > caplen ? 1 : 0;
                    }
                }
                if (n > caplen) {
                    grown++;
                }
                if (n <= 0 || n > WINDOW) {
                    break;
                }
                frame = copied;
            }
        }
        assertTrue(accepted > FRAMES, name + ": " + accepted + " frames parsed");
        assertTrue(inPlace > accepted, name + ": " + inPlace + " deparses in place");
        if (SHIMS.contains(name)) {
            assertTrue(grown > 0, name + ": its shim was added by a deparse");
            assertTrue(insertedInPlace > 0, name + ": its shim was inserted in place");
        }
    }

    /** A synthesised IPv4 or IPv6 TCP/UDP frame of 64 to 200 bytes on the wire. */
    static byte[] frame(SplitMix64 rnd, int i) {
        PacketRecord r = PacketRecord.allocate(FrameSynthesizer.MAX_MIN_FRAME).ttl(1 + (int) (rnd.nextLong() & 0x7F))
                .protocol(i % 3 == 0 ? 17 : 6).srcPort((int) (rnd.nextLong() & 0xFFFF)).dstPort(443)
                .wireLength(64 + (int) ((rnd.nextLong() >>> 1) % 137));
        if (i % 4 == 3) {
            r.ipVersion(6).srcIpv6(rnd.nextLong(), rnd.nextLong());
        } else {
            r.ipVersion(4).srcIpv4((int) rnd.nextLong()).dstIpv4((int) rnd.nextLong());
        }
        int n = FrameSynthesizer.attachFrame(r);
        assertTrue(n > 0, "frame " + i);
        int at = r.offset() + PacketRecord.FRAME_OFFSET;
        return Arrays.copyOfRange(r.buffer().byteArray(), at, at + r.capturedLength());
    }
}

package dev.rmtemu.programs.parse;

import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine keeps a packet's parse layout across its ingress deparse when
 * {@link FrameParser#layoutUnchanged()} says the deparse moved no header and changed no byte a
 * parse steers by; its egress deparse then uses that layout instead of parsing the frame again.
 * For every registered program, on IPv4 and IPv6 frames and PHVs that keep, change or randomise
 * the parsed fields: wherever the layout is kept, the egress deparse from it writes the very
 * bytes and length of the egress deparse that parses the rewritten frame again.
 */
class KeptLayoutAfterDeparseTest {
    private static final int WINDOW = 256;
    private static final int FRAMES = 600;
    /** The programs with a header of their own, which a random validity bit inserts (the layout then changes). */
    private static final Set<String> SHIMS = CopyingDeparseTest.SHIMS;

    @ParameterizedTest
    @MethodSource("dev.rmtemu.programs.parse.CopyingDeparseTest#programs")
    void egressDeparseFromTheKeptLayoutEqualsTheOneThatParsesAgain(String name) {
        StageProgram program = ProgramPlugins.registry().build(name, Map.of());
        FrameParser frames = new FrameParser(program, WINDOW);
        long[] phv = new long[program.fields().size()];
        SplitMix64 rnd = new SplitMix64(name.hashCode() * 31L + 7);
        int kept = 0;
        int notKept = 0;
        for (int i = 0; i < FRAMES; i++) {
            byte[] frame = CopyingDeparseTest.frame(rnd, i);
            int caplen = frame.length;
            int wire = frame.length + (i % 7 == 0 ? 20 : 0);
            int off = 2 + (i % 5);
            byte[] slot = new byte[off + WINDOW + 8];
            System.arraycopy(frame, 0, slot, off, caplen);
            if (!frames.parse(slot, off, caplen, wire, phv)) {
                continue;
            }
            frames.keepLayout(1);
            randomise(phv, rnd, i % 4 == 0 ? 1 : 8); // the ingress pass: every, or about one in eight, slot changed
            int n = frames.deparseInPlace(slot, off, caplen, wire, phv, true, 1, WINDOW);
            if (!frames.layoutUnchanged()) {
                notKept++;
                continue;
            }
            kept++;
            assertEquals(caplen, n, name + ": frame " + i + ": a kept layout keeps the frame's length");
            byte[] again = slot.clone();
            randomise(phv, rnd, 2); // the egress pass
            int fromLayout = frames.deparseInPlace(slot, off, n, wire, phv, false, 1, WINDOW);
            int parsed = frames.deparseInPlace(again, off, n, wire, phv, false, -1, WINDOW);
            assertEquals(parsed, fromLayout, name + ": frame " + i + ": length");
            assertArrayEquals(again, slot, name + ": frame " + i);
        }
        assertTrue(kept > 0, name + ": " + kept + " layouts kept");
        if (SHIMS.contains(name)) {
            assertTrue(notKept > 0, name + ": " + notKept + " layouts not kept (a shim inserted or removed)");
        }
    }

    /**
     * The refused case and its legal twin on MIDST: writing a new Ethernet type (a select key of
     * its graph) changes the layout's path, so the layout is not kept; writing a new IPv4 source address
     * (read by no select) keeps it.
     */
    @Test
    void aChangedSelectKeyDropsTheLayoutAndAChangedSourceAddressKeepsIt() {
        StageProgram program = ProgramPlugins.registry().build("midst", Map.of());
        ParseGraph g = program.parser().graph();
        assertTrue(g.steers(g.field("ethernet.ether_type")), "ether_type is a select key");
        assertFalse(g.steers(g.field("ipv4.src_addr")), "the source address steers no parse");
        FrameParser frames = new FrameParser(program, WINDOW);
        long[] phv = new long[program.fields().size()];
        byte[] frame = CopyingDeparseTest.frame(new SplitMix64(5), 0);
        for (String written : new String[] {"ethernet.ether_type", "ipv4.src_addr"}) {
            Field f = wireField(program, written);
            byte[] slot = Arrays.copyOf(frame, WINDOW);
            assertTrue(frames.parse(slot, 0, frame.length, frame.length, phv));
            frames.keepLayout(0);
            phv[f.slot()] ^= 1;
            assertEquals(frame.length, frames.deparseInPlace(slot, 0, frame.length, frame.length, phv, true, 0, WINDOW));
            assertEquals(written.equals("ipv4.src_addr"), frames.layoutUnchanged(), written);
        }
    }

    private static Field wireField(StageProgram program, String wire) {
        for (Field f : program.fields()) {
            if (wire.equals(f.wireField())) {
                return f;
            }
        }
        throw new AssertionError("midst declares no field " + wire);
    }

    /** About one in {@code oneIn} slots a new value (0, 1 or random); the rest keep theirs. */
    private static void randomise(long[] phv, SplitMix64 rnd, int oneIn) {
        for (int s = 0; s < phv.length; s++) {
            long r = rnd.nextLong();
            if (Long.remainderUnsigned(r, oneIn) != 0) {
                continue;
            }
            r = rnd.nextLong();
            switch ((int) (r & 3)) {
                case 0 -> phv[s] = 0;
                case 1 -> phv[s] = 1;
                default -> phv[s] = r >>> 2;
            }
        }
    }
}

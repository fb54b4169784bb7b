package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.run.ControlScript;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.TableUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The range classifier of {@code p4/range_classifier.p4}: its table's two {@code range} keys
 * lower to a range table, placed on tofino1, and entries a control script installs with
 * {@code LO->HI} pick each TCP frame's egress port by its destination port and IPv4 total
 * length, the lower priority value winning where ranges overlap; a frame no range covers is
 * dropped. Every departure is the frame as it arrived.
 */
class P4RangeTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    record Departure(int port, byte[] frame) {
    }

    private static StageProgram classifier() {
        StageProgram unplaced = P4Programs.text("range_classifier.p4", P4RouterTest.resource("range_classifier.p4"),
                PreprocessorOptions.defaults()).require();
        return ProgramCompiler.compile(unplaced, TOFINO1).requireAccepted().program();
    }

    private static byte[] tcp(int dstPort, int totalLen) {
        return TestFrames.frame().ethernet(0x0800).ipv4(6, totalLen, 0, 64).tcp(40000, dstPort, 0).build();
    }

    /** Each frame alone through the switch: its departure, or null when it was dropped. */
    static List<Departure> replay(SwitchEngine e, byte[]... frames) {
        List<Departure> out = new ArrayList<>();
        Departure[] last = {null};
        e.onDeparture((cycle, port, slot, pool) -> last[0] = new Departure(port, Arrays.copyOfRange(pool.frameArray(),
                pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot))));
        for (byte[] f : frames) {
            last[0] = null;
            e.arrive(e.now() + 1000, 1, TestFrames.record(f));
            e.drain();
            out.add(last[0]);
        }
        return out;
    }

    @Test
    void portAndLengthRangesPickTheEgressPort(@TempDir Path tmp) throws Exception {
        StageProgram p = classifier();
        assertEquals(MatchKind.RANGE, p.table("by_port_and_length").kind());
        Path script = tmp.resolve("ranges.ctl");
        Files.writeString(script, """
                table_add by_port_and_length to_port 0->1023 0->65535 => 1 20
                table_add by_port_and_length to_port 80->80 0x0->1500 => 2 10
                table_add by_port_and_length to_port 0x1f90->0x1f9f 41->99 => port=3 30
                """);
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
        assertEquals(3, ControlScript.apply(script, e));
        byte[][] frames = {
            tcp(80, 40),      // both 0..1023 (priority 20) and 80 with length <= 1500 (priority 10): port 2
            tcp(80, 1600),    // too long for the second entry: the first, port 1
            tcp(443, 40),     // port 1
            tcp(8080, 41),    // 0x1f90, length at the low end: port 3
            tcp(8095, 99),    // 0x1f9f, length at the high end: port 3
            tcp(8080, 100),   // length above 99, port above 1023: dropped
            tcp(1024, 40),    // dropped
        };
        List<Departure> out = replay(e, frames);
        int[] ports = {2, 1, 1, 3, 3, -1, -1};
        for (int i = 0; i < frames.length; i++) {
            Departure d = out.get(i);
            assertEquals(ports[i], d == null ? -1 : d.port(), "frame " + i);
            if (d != null) {
                assertArrayEquals(frames[i], d.frame(), "frame " + i + " leaves unchanged");
            }
        }
    }

    @Test
    void theTableIsSizedInTcamLines() {
        // two 16-bit range keys: 4 key bytes + version = 9 nibbles, 1 TCAM wide; each key 4 nibbles, 2 x 4 - 1 = 7 lines
        // (bf-p4c mau/resource_estimate.cpp RangeEntries): 64 of the 256 entries at 7 + 192 at 1 = 640 lines = 2 TCAMs deep
        TableUsage t = ResourceChecker.check(classifier(), TOFINO1).tables().stream()
                .filter(u -> u.name().equals("by_port_and_length")).findFirst().orElseThrow();
        assertEquals("range", t.kind());
        assertEquals(2, t.tcams());
    }
}

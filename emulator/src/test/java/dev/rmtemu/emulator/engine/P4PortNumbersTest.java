package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.run.ControlScript;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.ProgramPorts;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A P4 program sees ports as TNA numbers them (PortId_t, pipe = port >> 7), rmtemu's port
 * {@code pipe x portsPerPipe + k} as {@code pipe << 7 | k} ({@code p4/port_numbers.p4} on a
 * 2-pipe tofino1 of 16 ports a pipe): the frame carries the ingress and egress ports the program
 * saw, the capture the rmtemu port it left by.
 */
class P4PortNumbersTest {
    private static final int ETHERNET = 14;

    private static TargetProfile twoPipes() throws IOException {
        try (InputStream in = TargetProfiles.class.getResourceAsStream("/dev/rmtemu/model/target/tofino1.json")) {
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(json.contains("\"pipes\": 4,"));
            return TargetProfiles.parse(json.replace("\"pipes\": 4,", "\"pipes\": 2,"), "tofino1 with 2 pipes");
        }
    }

    /**
     * From port 3 (pipe 0) to the port its destination names, 2: the program sees 3 and 2. From
     * port 21 (pipe 1's port 5): the program sees 133, its pipe is 1, it sends to 130, which is
     * rmtemu's port 18. From port 5 to 132 (pipe 1's port 4): rmtemu's port 20. From port 4 to 20:
     * TNA's pipe 0 has no port 20 (16 a pipe), so the packet has no egress port and is dropped.
     * From port 3 to 196, pipe 1's recirculation port (rmtemu's 449): it comes back into pipe 1
     * seeing ingress port 196, and leaves by 130.
     */
    @Test
    void theProgramSeesTnaPortsAndTheCaptureRmtemusOwn() throws IOException {
        TargetProfile profile = twoPipes();
        StageProgram p = ProgramCompiler.compile(P4Programs.text("port_numbers.p4", P4RouterTest.resource("port_numbers.p4"),
                PreprocessorOptions.defaults()).require(), profile).requireAccepted().program();
        assertTrue(p.tnaPorts());
        SwitchEngine e = new SwitchEngine(new SwitchConfig(profile, p, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(40), true));
        List<List<Integer>> seen = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            byte[] a = pool.frameArray();
            int at = pool.frameOffset(slot) + ETHERNET;
            seen.add(List.of(port, (a[at] & 0xFF) << 8 | a[at + 1] & 0xFF, (a[at + 2] & 0xFF) << 8 | a[at + 3] & 0xFF));
        });
        int[][] arrivals = {{3, 2}, {21, 0}, {5, 132}, {4, 20}, {3, 196}};
        long cycle = e.now() + 1;
        for (int[] in : arrivals) {
            byte[] f = TestFrames.frame().ethernet(0x020000000000L | in[1], 0x020000000009L, 0x88B5).payload("....").build();
            e.arrive(cycle, in[0], TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        // {rmtemu egress port, ingress port the program saw, egress port the program saw}
        assertEquals(List.of(List.of(2, 3, 2), List.of(18, 133, 130), List.of(20, 5, 132), List.of(18, 196, 130)), seen);
        assertEquals(1, e.counters().droppedTotal());
    }

    /**
     * A P4 program's control scripts name ports as TNA does: 130 (pipe 1's port 2) is a port of
     * the 2-pipe target, 20 is none (16 ports a pipe); the same for mirror sessions and
     * multicast nodes.
     */
    @Test
    void controlScriptPortsAreTnaNumbersForAP4Program(@TempDir Path tmp) throws IOException {
        TargetProfile profile = twoPipes();
        StageProgram p = ProgramCompiler.compile(P4Programs.text("port_numbers.p4", P4RouterTest.resource("port_numbers.p4"),
                PreprocessorOptions.defaults()).require(), profile).requireAccepted().program();
        String none = "port 20 names no port of this target (a P4 program numbers ports as TNA does: pipe << 7 | port,"
                + " the recirculation port pipe << 7 | 68)";
        for (String[] c : new String[][] {{"mirroring_add 1 130", "mirroring_add 1 20"},
                {"mc_node_create 0 2 130", "mc_node_create 0 2 20"}}) {
            SwitchEngine e = new SwitchEngine(new SwitchConfig(profile, p, SwitchConfig.defaultPorts(profile),
                    PortConfig.strictPriority(40), true));
            Path legal = tmp.resolve("legal.ctl");
            Files.writeString(legal, c[0] + "\n");
            ControlScript.apply(legal, e);
            Path refused = tmp.resolve("refused.ctl");
            Files.writeString(refused, c[1] + "\n");
            UserError err = assertThrows(UserError.class, () -> ControlScript.apply(refused, e));
            assertEquals(refused + ":1: " + none, err.getMessage());
        }
    }

    private static ProgramPorts tna(TargetProfile t) {
        return ProgramPorts.tna(t.pipes(), t.portsPerPipe());
    }

    @Test
    void theMappingKeepsPipeZeroAndNumbersRecirculationAsTofinoDoes() {
        ProgramPorts tna = tna(TargetProfiles.builtIn("tofino1"));
        assertTrue(tna.tna());
        assertEquals(List.of(0, 15, 128, 143, 384, 399), List.of(tna.toProgram(0), tna.toProgram(15), tna.toProgram(16),
                tna.toProgram(31), tna.toProgram(48), tna.toProgram(63)));
        assertEquals(List.of(68, 196, 324, 452), List.of(tna.toProgram(448), tna.toProgram(449), tna.toProgram(450),
                tna.toProgram(451)));
        assertEquals(List.of(16, 448, 451, 511, -1, -1), List.of(tna.toEngine(128), tna.toEngine(68), tna.toEngine(452),
                tna.toEngine(511), tna.toEngine(16), tna.toEngine(64)));
        // a profile whose ports TNA cannot number (unlimited ports a pipe): rmtemu's own numbers
        ProgramPorts plain = tna(TargetProfiles.builtIn("unconstrained"));
        assertFalse(plain.tna());
        assertEquals(List.of(200, 448), List.of(plain.toProgram(200), plain.toEngine(448)));
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code p4/pair_register.p4}: a register of a struct of two words is a lo/hi pair, and its
 * RegisterAction, reading two PHV fields as the stateful ALU's lo and hi inputs, updates both
 * words and returns the new hi word, which the frame carries out as its destination address.
 */
class P4PairRegisterTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int DST_ADDR = 30;

    @Test
    void theRegisterActionCountsPacketsAndBytesInOneCellAndReturnsTheBytes() {
        assertCounts(P4RouterTest.resource("pair_register.p4"), 0, 0);
    }

    /** initial_value {lo, hi}: every cell starts there (and register_reset returns it there). */
    @Test
    void anInitialValueIsWhereTheCountsStart() {
        String text = P4RouterTest.resource("pair_register.p4");
        String plain = "Register<pair_t, bit<1>>(1) totals;";
        assertTrue(text.contains(plain));
        assertCounts(text.replace(plain, "Register<pair_t, bit<1>>(1, {10, 1000}) totals;"), 10, 1000);
    }

    private static void assertCounts(String programText, long packets, long bytes0) {
        StageProgram p = ProgramCompiler.compile(P4Programs.text("pair_register.p4", programText,
                PreprocessorOptions.defaults()).require(), TOFINO1).requireAccepted().program();
        assertTrue(p.register("totals").pair());
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        List<byte[]> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> out.add(Arrays.copyOfRange(pool.frameArray(),
                pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot))));
        int[] lengths = {46, 100, 60};
        List<byte[]> in = new ArrayList<>();
        long cycle = e.now() + 1;
        for (int len : lengths) {
            byte[] f = TestFrames.frame().ethernet(0x020000000002L, 0x020000000009L, 0x0800).ipv4(17, len, 0, 64)
                    .payload("x".repeat(len - 20)).build();
            in.add(f);
            e.arrive(cycle, 1, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        assertEquals(3, out.size());
        long bytes = bytes0;
        for (int i = 0; i < 3; i++) {
            bytes += lengths[i];
            byte[] expected = in.get(i).clone();
            expected[DST_ADDR] = (byte) (bytes >>> 24);
            expected[DST_ADDR + 1] = (byte) (bytes >>> 16);
            expected[DST_ADDR + 2] = (byte) (bytes >>> 8);
            expected[DST_ADDR + 3] = (byte) bytes;
            assertArrayEquals(expected, out.get(i), "frame " + i);
        }
        int pipe = 0; // port 1's pipe
        assertEquals(packets + 3, e.state().readRegister(pipe, "totals", 0));
        assertEquals(bytes0 + 206, e.state().readRegisterHi(pipe, "totals", 0));
    }
}

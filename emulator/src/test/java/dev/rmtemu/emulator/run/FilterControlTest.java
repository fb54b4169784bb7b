package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * lpf_set_params and wred_set_params, with bf-runtime's field names, set the specs of
 * filtered_forwarder.p4's Lpf and DirectWred (the engine test P4FiltersTest drives the same
 * frames through the API); every mistake is one line naming the script's line.
 */
class FilterControlTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final long US = 1220;

    private static StageProgram program() throws Exception {
        try (InputStream in = FilterControlTest.class.getResourceAsStream("/dev/rmtemu/emulator/engine/p4/filtered_forwarder.p4")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return ProgramCompiler.compile(P4Programs.text("filtered_forwarder.p4", text, PreprocessorOptions.defaults()).require(),
                    TOFINO1).requireAccepted().program();
        }
    }

    /** An Ethernet frame to 02:00:00:00:00:02 with sample value, filtered 0 and depth. */
    private static PacketRecord frame(int value, int depth) {
        byte[] f = new byte[64];
        f[5] = 2;
        f[0] = 2;
        f[11] = 9;
        f[6] = 2;
        f[12] = (byte) 0x88;
        f[13] = (byte) 0xB5;
        f[14] = (byte) (value >> 8);
        f[15] = (byte) value;
        f[18] = (byte) (depth >> 8);
        f[19] = (byte) depth;
        PacketRecord r = PacketRecord.allocate();
        r.wireLength(f.length);
        r.putFrame(f, 0, f.length);
        return r;
    }

    @Test
    void theScriptSetsTheSpecsAndTheFramesShowThem(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("filters.ctl");
        Files.writeString(f, """
                table_add dmac forward 02:00:00:00:00:02 => 7
                lpf_set_params average 0 lpf_spec_type=SAMPLE lpf_spec_gain_time_constant_ns=1000 \
                lpf_spec_decay_time_constant_ns=2000 lpf_spec_out_scale_down_factor=0
                wred_set_params early_drop 0 WRED_SPEC_MAX_PROBABILITY=0.5 $WRED_SPEC_MIN_THRESH_CELLS=10 \
                wred_spec_max_thresh_cells=30 wred_spec_time_constant_ns=0
                at 100000 lpf_set_params average 0 lpf_spec_type=RATE lpf_spec_gain_time_constant_ns=1000 \
                lpf_spec_decay_time_constant_ns=0 lpf_spec_out_scale_down_factor=2
                """);
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        ControlScript.apply(f, e);
        List<Long> numbers = new ArrayList<>();
        List<Integer> filtered = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            numbers.add(pool.packetNumber(slot));
            int at = pool.frameOffset(slot) + 16;
            filtered.add(((pool.frameArray()[at] & 0xff) << 8) | (pool.frameArray()[at + 1] & 0xff));
        });
        // as P4FiltersTest: averages 1000, 606, 855, 946, 574, 348, 760, 657; RED keeps 0, 1, 3, 5, 6
        int[] values = {1000, 0, 1000, 1000, 0, 0, 1000, 500};
        for (int i = 0; i < values.length; i++) {
            e.arrive(10 * US + i * US, 1, frame(values[i], 20));
        }
        // after cycle 100,000 the cell integrates (RATE, tau 1000 ns, / 4): 100 -> 25, then 136.7879 -> 34; depth 0 keeps
        e.arrive(100 * US, 1, frame(100, 0));
        e.arrive(101 * US, 1, frame(100, 0));
        e.drain();
        assertEquals(List.of(0L, 1L, 3L, 5L, 6L, 8L, 9L), numbers);
        assertEquals(List.of(1000, 606, 946, 348, 760, 25, 34), filtered);
    }

    @Test
    void badFilterOperationsAreRefusedBeforeTheRun(@TempDir Path tmp) throws Exception {
        String lpf = " lpf_spec_gain_time_constant_ns=1000 lpf_spec_decay_time_constant_ns=1000 lpf_spec_out_scale_down_factor=0";
        String wred = " wred_spec_time_constant_ns=0 wred_spec_min_thresh_cells=10 wred_spec_max_thresh_cells=30";
        String[][] cases = {
            {"lpf_set_params average 0 lpf_spec_type=FAST" + lpf, "lpf_spec_type is SAMPLE or RATE, got 'FAST'"},
            {"lpf_set_params average 0" + lpf, "missing arguments: lpf_set_params LPF INDEX lpf_spec_type=... "
                + "lpf_spec_gain_time_constant_ns=... lpf_spec_decay_time_constant_ns=... lpf_spec_out_scale_down_factor=..."},
            {"lpf_set_params average 0 lpf_spec_typ=RATE" + lpf, "unknown field 'lpf_spec_typ' (did you mean lpf_spec_type?)"},
            {"lpf_set_params average 0 lpf_spec_type=RATE" + lpf.replace("=0", "=40"), "lpf average[0]: scale-down factor 40"
                + " outside 0..31"},
            {"at 5 lpf_set_params average 2 lpf_spec_type=RATE" + lpf, "lpf average: index 2 outside 0..1"},
            {"wred_set_params average 0" + wred + " wred_spec_max_probability=0.1", "lpf average is no wred"},
            {"wred_set_params early_drop 0" + wred + " wred_spec_max_probability=2", "wred early_drop[0]: the max probability"
                + " must be in 0..1, got 2.0"},
            {"wred_set_params early_drop 0" + wred + " wred_spec_time_constant_ns=1", "field wred_spec_time_constant_ns given twice"},
            {"meter_set_rates average 0 1:100 1:100", "lpf average is no meter: its cells take lpf_set_params, not rates"},
        };
        StageProgram p = program();
        for (String[] c : cases) {
            Path f = tmp.resolve("bad.ctl");
            Files.writeString(f, "# line 1\n" + c[0] + "\n");
            SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
            UserError err = assertThrows(UserError.class, () -> ControlScript.apply(f, e), c[0]);
            assertEquals(f + ":2: " + c[1], err.getMessage(), c[0]);
        }
    }
}

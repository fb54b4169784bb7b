package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.run.ControlScript;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's RegisterParam on packets: a row of the stateful ALU's register file that the register's
 * actions read and the control plane sets during the run ({@code register_param_set}); the
 * generated code and the interpreter agree, and the run starts at the param's initial value.
 */
class P4RegisterParamTest {
    /** Two actions of one register read two params: step (added) and cap (the compare bound); both bound to totals. */
    private static final String INGRESS = """
                RegisterParam<bit<32>>(32w5) step;
                RegisterParam<bit<32>>(32w1000) cap;
                Register<bit<32>, bit<8>>(4) totals;
                RegisterAction<bit<32>, bit<8>, bit<32>>(totals) add = {
                    void apply(inout bit<32> value) {
                        if (value < cap.read()) {
                            value = value + step.read();
                        }
                    }
                };
                RegisterAction<bit<32>, bit<8>, bit<32>>(totals) put = {
                    void apply(inout bit<32> value) {
                        value = step.read();
                    }
                };
                apply {
                    if (hdr.ethernet.ether_type == 0x0800) {
                        add.execute(hdr.ethernet.dst_addr[1:0]);
                    } else {
                        put.execute(hdr.ethernet.dst_addr[1:0]);
                    }
                    ig_tm_md.ucast_egress_port = 1;
                }
            """;

    /**
     * Cell 0 takes IPv4 frames at cycles 0, 10k, 20k, 30k, 40k; step is 5 until cycle 15k, then 100;
     * cap drops to 200 at 35k (so the frame at 40k, seeing 210, adds nothing): 5 + 5 + 100 + 100 = 210.
     * Cell 1 takes a non-IPv4 frame (put: the step, 100) at 25k. The step line sets every pipe, the cap
     * line (pipe=0) only pipe 0: pipe 1's cap is still 1000.
     */
    @Test
    void paramsSetDuringTheRunChangeWhatTheActionsAddOnBothBackEnds(@TempDir Path tmp) throws IOException {
        StageProgram p = P4LanguageGapsTest.compile(P4LanguageGapsTest.program("", INGRESS));
        RegisterArray totals = p.register("totals");
        assertEquals(List.of(new RegisterArray.Param("cap", 32, false, 1000), new RegisterArray.Param("step", 32, false, 5)),
                totals.params(), "rows in the order the actions (add: its condition first, then put) first read them");
        Path script = tmp.resolve("params.ctl");
        Files.writeString(script, """
                at 15000 register_param_set step 100
                at 35000 register_param_set cap 200 pipe=0
                """);
        List<P4Twins.Arrival> arrivals = new ArrayList<>();
        for (long at : new long[] {0, 10_000, 20_000, 25_000, 30_000, 40_000}) {
            boolean ipv4 = at != 25_000;
            arrivals.add(new P4Twins.Arrival(at, 0, P4Twins.record(P4LanguageGapsTest.frame(ipv4 ? 0 : 1, 0x020000000001L,
                    ipv4 ? 0x0800 : 0x86DD))));
        }
        P4Twins.Run compiled = P4Twins.run(p, Backend.COMPILED, e -> apply(script, e), arrivals);
        P4Twins.Run interpreted = P4Twins.run(p, Backend.INTERPRETER, e -> apply(script, e), arrivals);
        compiled.assertSameTraffic(interpreted);
        compiled.assertSameRegisters(interpreted, p);
        assertArrayEquals(new long[] {210, 100, 0, 0}, compiled.engine().state().snapshot(0, "totals"));
        assertEquals(List.of(100L, 200L, 100L, 1000L), List.of(compiled.engine().state().registerParam(0, "totals", "step"),
                compiled.engine().state().registerParam(0, "totals", "cap"), compiled.engine().state().registerParam(1, "totals", "step"),
                compiled.engine().state().registerParam(1, "totals", "cap")));
        // a fresh run starts at the initial values again
        P4Twins.Run fresh = P4Twins.run(p, Backend.COMPILED, e -> { }, arrivals.subList(0, 2));
        assertArrayEquals(new long[] {10, 0, 0, 0}, fresh.engine().state().snapshot(0, "totals"));
    }

    private static void apply(Path script, SwitchEngine e) {
        ControlScript.apply(script, e);
    }

    /** register_param_set's user errors: one line naming the script line and the cause, exit 2. */
    @Test
    void badRegisterParamSetLinesAreRefusedInOneLine(@TempDir Path tmp) throws IOException {
        StageProgram p = P4LanguageGapsTest.compile(P4LanguageGapsTest.program("", INGRESS));
        TargetProfile tofino1 = TargetProfiles.builtIn("tofino1");
        SwitchEngine e = new SwitchEngine(new SwitchConfig(tofino1, p, SwitchConfig.defaultPorts(tofino1),
                PortConfig.strictPriority(40), true));
        Path f = tmp.resolve("bad.ctl");
        String[][] cases = {
            {"register_param_set step 0x100000000", "value 0x100000000 does not fit RegisterParam step's 32 bits"},
            {"at 10 register_param_set stpe 1", "program lang has no register param 'stpe' (did you mean step?)"},
            {"register_param_set step", "missing arguments: register_param_set PARAM VALUE [pipe=N]"},
            {"register_param_set step 1 pipe=4", "pipe 4 outside 0..3"},
        };
        for (String[] c : cases) {
            Files.writeString(f, c[0] + "\n");
            UserError err = assertThrows(UserError.class, () -> ControlScript.apply(f, e), c[0]);
            assertEquals(f + ":1: " + c[1], err.getMessage());
            assertEquals(UserError.BAD_INPUT, err.exitCode());
        }
        assertEquals(5L, e.state().registerParam(0, "totals", "step"), "a refused line changes nothing");
    }

    /** {@code reads} params of one register, read by three actions (a condition and two updates each). */
    private static String readingParams(int reads) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            s.append("    RegisterParam<bit<32>>(32w").append(i + 1).append(") p").append(i).append(";\n");
        }
        return s + "    Register<bit<32>, bit<8>>(4) totals;\n"
                + "    RegisterAction<bit<32>, bit<8>, bit<32>>(totals) a = {\n"
                + "        void apply(inout bit<32> value) {\n"
                + "            if (value < p0.read()) {\n                value = value + p1.read();\n"
                + "            } else {\n                value = value + p2.read();\n            }\n        }\n    };\n"
                + "    RegisterAction<bit<32>, bit<8>, bit<32>>(totals) b = {\n"
                + "        void apply(inout bit<32> value) {\n            value = value + p3.read();\n        }\n    };\n"
                + "    RegisterAction<bit<32>, bit<8>, bit<32>>(totals) c = {\n"
                + "        void apply(inout bit<32> value) {\n            value = value + p" + (reads - 1) + ".read();\n        }\n    };\n"
                + "    apply {\n"
                + "        if (hdr.ethernet.ether_type == 0x0800) {\n            a.execute(0);\n"
                + "        } else if (hdr.ethernet.ether_type == 0x86DD) {\n            b.execute(0);\n"
                + "        } else {\n            c.execute(0);\n        }\n"
                + "        ig_tm_md.ucast_egress_port = 1;\n    }\n";
    }

    /**
     * Tofino's stateful ALU has a register file of 4 rows (profile mau.saluRegisterFileRows; bf-p4c
     * extract_maupipe.cpp InitializeRegisterParams gives each param of the ALU's actions a row of
     * salu->regfile): five params of one register do not fit, four do. Large constants, which
     * share the file on the hardware, are not counted (rmtemu bakes them into the ALU's code).
     */
    @Test
    void moreParamsThanRegisterFileRowsDoNotFit() {
        UserError five = assertThrows(UserError.class, () -> compiled(readingParams(5)));
        assertTrue(five.getMessage().endsWith(" ingress: register 'totals' stateful ALU reads 5 RegisterParams > 4 register-file rows"),
                five.getMessage());
        Compilation four = compiled(readingParams(4));
        assertTrue(four.accepted(), () -> String.join("\n", four.lines()));
        assertEquals(4, four.program().register("totals").params().size());
    }

    private static Compilation compiled(String ingress) {
        return ProgramCompiler.compile(P4Programs.text("params.p4", P4LanguageGapsTest.program("", ingress),
                PreprocessorOptions.defaults()).require(), TargetProfiles.builtIn("tofino1"));
    }
}

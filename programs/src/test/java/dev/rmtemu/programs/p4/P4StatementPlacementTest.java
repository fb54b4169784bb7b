package dev.rmtemu.programs.p4;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.P4Printer;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Straight-line statements of a P4 apply block placed as p4c places them: bf-p4c's front end
 * gives each extern call its own synthesized action table (midend/action_synthesis_policy.h,
 * {@code ActionSynthesisPolicy::can_combine}: no two extern uses in one action, no statement
 * reading what the action before it writes), and {@code TablePlacement}
 * (mau/table_placement.cpp) puts each in the earliest stage its dependencies
 * (mau/table_dependency_graph.cpp, {@code FindDataDependencyGraph}) and the stage's resources
 * allow. So an unwrapped run of eight register executes, refused before as "stateful ALUs 8 > 4",
 * takes two stages of tofino1's four stateful ALUs.
 */
class P4StatementPlacementTest {

    /** Eight registers r0..r7 of 16 cells, r_i's action adding i + 1 to the cell the destination's low nibble names. */
    private static String eightRegisters() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            b.append("    Register<bit<32>, bit<4>>(16) r").append(i).append(";\n")
                    .append("    RegisterAction<bit<32>, bit<4>, bit<32>>(r").append(i).append(") add").append(i).append(" = {\n")
                    .append("        void apply(inout bit<32> value) {\n")
                    .append("            value = value + ").append(i + 1).append(";\n")
                    .append("        }\n")
                    .append("    };\n");
        }
        return b.toString();
    }

    private static final String UNWRAPPED = eightRegisters() + """
                apply {
                    add0.execute(hdr.ethernet.dst_addr[3:0]);
                    add1.execute(hdr.ethernet.dst_addr[3:0]);
                    add2.execute(hdr.ethernet.dst_addr[3:0]);
                    add3.execute(hdr.ethernet.dst_addr[3:0]);
                    add4.execute(hdr.ethernet.dst_addr[3:0]);
                    add5.execute(hdr.ethernet.dst_addr[3:0]);
                    add6.execute(hdr.ethernet.dst_addr[3:0]);
                    add7.execute(hdr.ethernet.dst_addr[3:0]);
                    ig_tm_md.ucast_egress_port = 4;
                }
            """;

    @Test
    void anUnwrappedRunOfEightRegisterExecutesTakesTwoStagesAndCountsEveryPacket() {
        StageProgram p = P4LanguageGapsTest.compile(P4LanguageGapsTest.program("", UNWRAPPED));
        assertEquals(List.of(0, 0, 0, 0, 1, 1, 1, 1), p.registers().stream().map(RegisterArray::stage).toList());
        // destinations with low nibbles 1, 2, 1, 15, 1
        P4Twins.Run r = P4LanguageGapsTest.run(p, P4LanguageGapsTest.frame(0x01, 0xA, 0x0800),
                P4LanguageGapsTest.frame(0x22, 0xA, 0x0800), P4LanguageGapsTest.frame(0x31, 0xA, 0x86DD),
                P4LanguageGapsTest.frame(0x4F, 0xA, 0x0800), P4LanguageGapsTest.frame(0x51, 0xA, 0x0800));
        assertEquals(List.of(4L, 4L, 4L, 4L, 4L), P4LanguageGapsTest.ports(r));
        for (int i = 0; i < 8; i++) {
            long step = i + 1;
            long[] expected = new long[16];
            expected[1] = 3 * step;
            expected[2] = step;
            expected[15] = step;
            assertArrayEquals(expected, r.engine().state().snapshot(0, "r" + i), "r" + i);
        }
    }

    /** {@code show} says, per stage, which piece of the run is there and why (the second: stage 0's stateful ALUs were full). */
    @Test
    void showPrintsEachPieceWithItsStageAndWhy() {
        StageProgram p = P4LanguageGapsTest.compile(P4LanguageGapsTest.program("", UNWRAPPED));
        List<String> placed = Arrays.stream(P4Printer.print(p).split("\n"))
                .filter(l -> l.contains("stage ") && l.trim().endsWith("{") || l.contains("// placed here:"))
                .filter(l -> !l.startsWith("control"))
                .map(String::trim).toList();
        assertEquals(List.of(
                "stage 0 {",
                "// placed here: action r0.add0: no dependency",
                "stage 1 {",
                "// placed here: action r4.add4: no dependency; earliest 0, pushed down: stage 0 ingress: stateful ALUs 8 > 4"),
                placed);
    }

    /**
     * A read-after-write chain longer than the target: each statement reads the local the one
     * before it writes, so each is its own action one stage after the last (a PHV write is
     * visible from the next stage; bf-p4c's can_combine keeps a statement that reads what the
     * action before it writes out of that action); thirteen of them need thirteen stages and
     * tofino1 has twelve. Refused (exit 3) naming the chain, as a chain of tables is
     * (DependencyGraph's critical path).
     */
    @Test
    void aReadAfterWriteChainLongerThanTheTargetIsRefusedNamingIt() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i <= 11; i++) {
            body.append("    bit<8> v").append(i).append(";\n");
        }
        body.append("    apply {\n        v0 = hdr.ethernet.dst_addr[7:0];\n");
        StringBuilder chain = new StringBuilder("set(SwitchIngress.v0)");
        for (int i = 1; i <= 11; i++) {
            body.append("        v").append(i).append(" = v").append(i - 1).append(" + 1;\n");
            chain.append(" -(action: SwitchIngress.v").append(i - 1).append(")-> set(SwitchIngress.v").append(i).append(')');
        }
        body.append("        ig_md.a = v11;\n        ig_tm_md.ucast_egress_port = 4;\n    }\n");
        chain.append(" -(action: SwitchIngress.v11)-> set(ig_md.a, ig_intr_tm_md.ucast_egress_port)");
        StageProgram unplaced = P4Programs.text("lang.p4", P4LanguageGapsTest.program("", body.toString()),
                PreprocessorOptions.defaults()).require();
        UserError e = assertThrows(UserError.class, () -> ProgramCompiler.compile(unplaced, P4Twins.TOFINO1));
        assertEquals(Compilation.EXIT_REFUSED, e.exitCode());
        assertEquals("program lang: ingress needs 13 stages, tofino1 has 12: " + chain, e.getMessage());
    }
}

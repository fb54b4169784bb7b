package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MIDST on tofino1's compiler: the paper's 2 x 40,960-counter rows need {@code hash % 40960},
 * which a Tofino has no divider for, and are refused with that line; the power-of-two rows
 * that replaced them (a mask of the hash bits) are accepted for every row count and cleaning
 * mode, with every stage written in the IR.
 */
class MidstCompilerRulesTest {
    private static Compilation compile(MidstConfig cfg, String target) {
        return ProgramCompiler.compile(new MidstPipeline(cfg).program, TargetProfiles.builtIn(target));
    }

    @Test
    void thePapersRowWidthIsRefusedOnTofino1ForItsModulo() {
        Compilation c = compile(MidstConfig.defaults().withRows(2, MidstConfig.PAPER_COLUMNS), "tofino1");
        List<String> lines = c.lines();
        assertEquals("midst: ingress stage 0: expression (midst_hash0.get() % 40960): '%' by 40960, not a power of two; "
                + "tofino1 can only shift or mask (no multiplier or divider) [target-operators]", lines.get(0));
        assertEquals("midst: ingress stage 0: expression (midst_hash1.get() % 40960): '%' by 40960, not a power of two; "
                + "tofino1 can only shift or mask (no multiplier or divider) [target-operators]", lines.get(1));
        // the folds of the bridged indices onto the rows (and of the dirty-word indices onto 1,280 words)
        // are the other modulo refusals: 2 per gress and row, 1 per gress for the clean pointer
        assertEquals(14, lines.size(), String.join("\n", lines));
        assertEquals(12, lines.stream().filter(l -> l.endsWith("(no multiplier or divider) [target-operators]")).count(),
                lines.toString());
        // and the clean pointer's test against 1,280 words: a 24-bit range, past a Tofino gateway's 12 bits
        // (bf-p4c mau/gateway.cpp); a power-of-two width makes it an equality on the high bits
        assertEquals("midst: ingress stage 4: gateway 'midst_ig.clean_word < 1280': condition too complex, limit of 4 bytes "
                + "+ 12 bits of PHV input exceeded: midst_ig.clean_word[31:8] < 5 (range match) needs 0 bytes + 24 bits "
                + "(compare in a stateful ALU, or subtract one stage earlier and test the sign bit) [gateway-conditions]",
                lines.get(12));
        assertTrue(lines.get(13).startsWith("midst: egress stage 2: gateway 'midst_eg.clean_word < 1280'"), lines.get(13));
        // a target with a divider takes the paper's width as it is
        assertTrue(compile(MidstConfig.defaults().withRows(2, MidstConfig.PAPER_COLUMNS), "unconstrained").accepted());
    }

    @Test
    void powerOfTwoRowsAreAcceptedOnTofino1ForEveryShape() {
        assertEquals(32_768, MidstConfig.defaults().columns());
        for (int rows = 1; rows <= MidstConfig.MAX_ROWS; rows++) {
            for (boolean dirty : new boolean[] {true, false}) {
                MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(256, rows)).withDirtyWords(dirty);
                Compilation c = compile(cfg, "tofino1");
                assertEquals(List.of(), c.lines(), rows + " rows, dirty words " + dirty);
            }
        }
    }
}

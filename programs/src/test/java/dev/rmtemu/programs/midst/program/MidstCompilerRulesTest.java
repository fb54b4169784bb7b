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
        // are the only other refusals: 2 per gress and row, 1 per gress for the clean pointer
        assertEquals(12, lines.size(), String.join("\n", lines));
        assertTrue(lines.stream().allMatch(l -> l.endsWith("(no multiplier or divider) [target-operators]")), lines.toString());
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

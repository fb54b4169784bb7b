package dev.rmtemu.programs.midst.program;

import dev.rmtemu.programs.midst.experiment.MidstExperiment;

import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MIDST's experiment sweeps sketch sizes past what fits tofino1 (1,280 KB per sketch in two
 * rows needs 41 RAMs per row array in one stage, more than the 36 one stateful ALU reaches):
 * those sizes run with tofino1's memory limits lifted and say so; the sizes that fit run
 * on tofino1 itself.
 */
class MidstFittingTest {
    private static MidstConfig sized(int kb) {
        return MidstConfig.defaults().withRows(2, MidstConfig.columnsFor(kb, 2));
    }

    @Test
    void sizesThatFitRunOnTheTargetOthersWithItsMemoryLimitsLifted() {
        TargetProfile t1 = TargetProfiles.builtIn("tofino1");
        assertEquals("tofino1", MidstExperiment.fitting(sized(160), t1).name());
        assertFalse(ProgramCompiler.compile(new MidstPipeline(sized(1280)).program, t1).accepted());
        TargetProfile lifted = MidstExperiment.fitting(sized(1280), t1);
        assertEquals("tofino1" + TargetProfile.UNLIMITED_MEMORY_SUFFIX, lifted.name());
        assertTrue(ProgramCompiler.compile(new MidstPipeline(sized(1280)).program, lifted).accepted());
        // only memory is lifted: clock, stages and stateful ALUs stay tofino1's
        assertEquals(t1.clockHz(), lifted.clockHz());
        assertEquals(t1.stagesPerGress(), lifted.stagesPerGress());
        assertEquals(t1.statefulAlusPerStage(), lifted.statefulAlusPerStage());
    }
}

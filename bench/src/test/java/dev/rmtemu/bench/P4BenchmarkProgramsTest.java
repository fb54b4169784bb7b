package dev.rmtemu.bench;

import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the P4 benchmarks time is what they say: the generated TNA program has at least 1,000
 * lines, lowers and is placed on tofino1 (its tables spread over several stages), and every P4
 * twin the replay benchmark loads is on the class path.
 */
class P4BenchmarkProgramsTest {
    @Test
    void theGeneratedTnaProgramHasAThousandLinesAndIsPlaced() {
        String text = P4FrontBenchmark.generateTna(P4FrontBenchmark.LINES);
        assertTrue(text.lines().count() >= P4FrontBenchmark.LINES, "lines: " + text.lines().count());
        P4FrontBenchmark b = new P4FrontBenchmark();
        b.setUp();
        StageProgram p = (StageProgram) b.compileAndPlace();
        assertTrue(p.tables().size() > 60, "tables: " + p.tables().size());
        long stages = p.placement().stream().mapToInt(pl -> pl.stage()).distinct().count();
        assertTrue(stages > 1, "stages used: " + stages);
    }

    @Test
    void everyP4TwinIsOnTheClassPath() throws NoSuchFieldException {
        String[] programs = P4TwinBenchmark.class.getField("program").getAnnotation(Param.class).value();
        assertEquals(6, programs.length, "counter, l2fwd, hashpipe, lossradar, midst, lds");
        for (String name : programs) {
            assertTrue(P4TwinBenchmark.source(name + ".p4").contains("Switch(pipe) main;"), name);
        }
    }

    /** WbmonBenchmark's P4 m-switch does the IR's work on the same trace: the same drop count, and some. */
    @Test
    void theP4WbmonBenchmarkCountsTheDropsTheIrOneCounts() {
        WbmonBenchmark b = new WbmonBenchmark();
        b.generate();
        long ir = b.engine();
        assertTrue(ir > 0, "drops: " + ir);
        assertEquals(ir, b.engineP4());
    }
}

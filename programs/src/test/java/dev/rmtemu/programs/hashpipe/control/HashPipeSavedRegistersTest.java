package dev.rmtemu.programs.hashpipe.control;

import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;

import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.output.SavedRegisters;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HashPipe's (key, count) pair arrays saved by a replay: lo and hi words equal the engine's, in every pipe. */
class HashPipeSavedRegistersTest {
    @Test
    void pairArraysAreSavedWithBothWords(@TempDir Path tmp) {
        ReplayOptions o = new ReplayOptions("hashpipe", Map.of("stages", "4", "counters", "512"), "tofino1",
                "gen:isp?packets=20000&flows=2000&seed=4", "rate:100G", 1, 0, 100, true, 0, tmp, false);
        ReplayResult r = Replay.run(o, null);
        PipelineState st = r.engine().state();
        int pairs = 0;
        long nonZeroHi = 0;
        for (RegisterArray a : st.program().registers()) {
            if (!a.pair()) {
                continue;
            }
            pairs++;
            Path file = tmp.resolve(SavedRegisters.fileName(a.name()));
            for (int pipe = 0; pipe < st.pipes(); pipe++) {
                SavedRegisters.Cells c = SavedRegisters.read(file, a.name(), pipe, null);
                assertArrayEquals(st.snapshot(pipe, a.name()), c.lo(), a.name() + " lo, pipe " + pipe);
                assertArrayEquals(st.snapshotHi(pipe, a.name()), c.hi(), a.name() + " hi, pipe " + pipe);
                for (long h : c.hi()) {
                    nonZeroHi += h != 0 ? 1 : 0;
                }
            }
        }
        // 4 stages, each a table and its mirror
        assertEquals(8, pairs);
        assertTrue(nonZeroHi > 0, "the counts (hi words) were exercised");
        assertEquals(HashPipeProgram.tableName(0), SavedRegisters.header(tmp.resolve(
                SavedRegisters.fileName(HashPipeProgram.tableName(0)))).name());
    }
}

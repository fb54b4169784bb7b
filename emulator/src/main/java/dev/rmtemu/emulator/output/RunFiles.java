package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.run.RunRecorder;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;

/**
 * The files of a run directory, as the replays record them: the inputs from {@link RunInputs},
 * the outputs from {@link RunOutputs} (one switch) or {@link NetworkReport} (a network).
 * Registered in {@code META-INF/services/dev.rmtemu.emulator.run.RunRecorder}.
 */
public final class RunFiles implements RunRecorder {
    @Override
    public ObjectNode inputs(ReplayOptions options) {
        return RunInputs.tree(options);
    }

    @Override
    public void write(ReplayResult result, RunDirectory rd) {
        if (result.isNetwork()) {
            NetworkReport.write(result, rd);
        } else {
            RunOutputs.write(result, rd);
        }
    }
}

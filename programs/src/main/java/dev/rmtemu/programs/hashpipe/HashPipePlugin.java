package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.programs.hashpipe.control.HashPipeReport;
import dev.rmtemu.programs.hashpipe.experiment.HashPipeExperiment;
import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;

import java.util.Optional;

/** HashPipe as a plug-in: the stage program, the replay's top-k report and the paper's experiment. */
public final class HashPipePlugin implements ProgramPlugin {
    @Override
    public ProgramFactory factory() {
        return new HashPipeProgram();
    }

    @Override
    public Optional<ProgramReport> report() {
        return Optional.of(new HashPipeReport());
    }

    @Override
    public Optional<Experiment> experiment() {
        return Optional.of(new HashPipeExperiment());
    }
}

package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.programs.lds.control.LdsControlPlane;
import dev.rmtemu.programs.lds.control.LdsJournalDecoder;
import dev.rmtemu.programs.lds.control.LdsReport;
import dev.rmtemu.programs.lds.experiment.LdsExperiment;
import dev.rmtemu.programs.lds.program.LdsProgram;

import java.util.Optional;

/** LDS as a plug-in: the stage program, the replay's control plane (interval closes) and report, the journal decoder of the exported sketches, and the paper's experiment. */
public final class LdsPlugin implements ProgramPlugin {
    @Override
    public ProgramFactory factory() {
        return new LdsProgram();
    }

    @Override
    public Optional<ProgramControlPlane> controlPlane() {
        return Optional.of(new LdsControlPlane());
    }

    @Override
    public Optional<ProgramReport> report() {
        return Optional.of(new LdsReport());
    }

    @Override
    public Optional<JournalDecoder> journalDecoder() {
        return Optional.of(new LdsJournalDecoder());
    }

    @Override
    public Optional<Experiment> experiment() {
        return Optional.of(new LdsExperiment());
    }
}

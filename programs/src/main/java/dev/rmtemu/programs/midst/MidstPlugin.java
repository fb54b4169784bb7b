package dev.rmtemu.programs.midst;

import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.programs.midst.control.MidstControlPlane;
import dev.rmtemu.programs.midst.control.MidstJournalDecoder;
import dev.rmtemu.programs.midst.control.MidstReport;
import dev.rmtemu.programs.midst.experiment.MidstExperiment;
import dev.rmtemu.programs.midst.program.MidstProgram;

import java.util.Optional;

/** MIDST as a plug-in: the stage program, the replay's control plane (probes, collector) and report, the journal decoder of its reports and events, and the paper's experiments. */
public final class MidstPlugin implements ProgramPlugin {
    @Override
    public ProgramFactory factory() {
        return new MidstProgram();
    }

    @Override
    public Optional<ProgramControlPlane> controlPlane() {
        return Optional.of(new MidstControlPlane());
    }

    @Override
    public Optional<ProgramReport> report() {
        return Optional.of(new MidstReport());
    }

    @Override
    public Optional<JournalDecoder> journalDecoder() {
        return Optional.of(new MidstJournalDecoder());
    }

    @Override
    public Optional<Experiment> experiment() {
        return Optional.of(new MidstExperiment());
    }
}

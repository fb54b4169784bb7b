package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.spi.Analysis;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.programs.wbmon.control.NetBouncerCommand;
import dev.rmtemu.programs.wbmon.control.WbmonJournalDecoder;
import dev.rmtemu.programs.wbmon.control.WbmonReport;
import dev.rmtemu.programs.wbmon.experiment.WbmonExperiment;
import dev.rmtemu.programs.wbmon.program.WbmonProgram;

import java.util.Optional;

/**
 * WBMon as a plug-in: the stage program, the network replay's report, the journal decoder of
 * the collector's records, the paper's experiment, and NetBouncer's failure inference on a
 * user's own path measurements ({@code rmtemu analyse netbouncer}).
 */
public final class WbmonPlugin implements ProgramPlugin {
    @Override
    public ProgramFactory factory() {
        return new WbmonProgram();
    }

    @Override
    public Optional<ProgramReport> report() {
        return Optional.of(new WbmonReport());
    }

    @Override
    public Optional<JournalDecoder> journalDecoder() {
        return Optional.of(new WbmonJournalDecoder());
    }

    @Override
    public Optional<Experiment> experiment() {
        return Optional.of(new WbmonExperiment());
    }

    @Override
    public Optional<Analysis> analysis() {
        return Optional.of(new NetBouncerCommand());
    }
}

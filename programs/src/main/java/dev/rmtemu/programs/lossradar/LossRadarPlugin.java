package dev.rmtemu.programs.lossradar;

import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.emulator.spi.JournalDecoder;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.programs.lossradar.control.LossRadarControlPlane;
import dev.rmtemu.programs.lossradar.control.LossRadarJournalDecoder;
import dev.rmtemu.programs.lossradar.control.LossRadarReport;
import dev.rmtemu.programs.lossradar.experiment.LossRadarExperiment;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;

import java.util.List;
import java.util.Optional;

/**
 * LossRadar as a plug-in: the meters on one switch ({@code lossradar}) and, as variants, the
 * upstream-only and downstream-only meters; the network replay's control plane and report, the
 * journal decoder of the exported digests, and the paper's experiment.
 */
public final class LossRadarPlugin implements ProgramPlugin {
    @Override
    public ProgramFactory factory() {
        return new LossRadarProgram();
    }

    @Override
    public List<ProgramFactory> variants() {
        return List.of(new LossRadarProgram.Upstream(), new LossRadarProgram.Downstream());
    }

    @Override
    public Optional<ProgramControlPlane> controlPlane() {
        return Optional.of(new LossRadarControlPlane());
    }

    @Override
    public Optional<ProgramReport> report() {
        return Optional.of(new LossRadarReport());
    }

    @Override
    public Optional<JournalDecoder> journalDecoder() {
        return Optional.of(new LossRadarJournalDecoder());
    }

    @Override
    public Optional<Experiment> experiment() {
        return Optional.of(new LossRadarExperiment());
    }
}

package dev.rmtemu.emulator.spi;

import dev.rmtemu.model.program.ProgramFactory;

import java.util.List;
import java.util.Optional;

/**
 * One program as a plug-in: the single {@link java.util.ServiceLoader} entry a program
 * registers ({@code META-INF/services/dev.rmtemu.emulator.spi.ProgramPlugin}), handing out
 * its parts. Only the factory is required; a program without a control plane, report,
 * journal messages, experiment or offline analysis leaves those empty. The factory builds
 * the program from the validated parameters and may attach its typed parameters (its config
 * record, {@link dev.rmtemu.model.program.StageProgram#withConfig}); the control plane and
 * the report read them from the program a switch runs, so the parameters are parsed once.
 *
 * <p>Programs registered only as a {@link ProgramFactory} ({@code counter} and {@code l2fwd}
 * of the pipeline model) and a user's program from a {@code .java} file are plug-ins with
 * only the factory ({@link #of(ProgramFactory)}).
 */
public interface ProgramPlugin {
    /** Builds the program; its {@link ProgramFactory#name()} names the plug-in. */
    ProgramFactory factory();

    /** The program's name ({@code rmtemu replay --program NAME}). */
    default String name() {
        return factory().name();
    }

    /**
     * Further programs of the same algorithm, sharing these parts (LossRadar's upstream-only and
     * downstream-only meters); each part says by {@code program()} which program it serves.
     */
    default List<ProgramFactory> variants() {
        return List.of();
    }

    /** Its control plane in a replay (tables, periodic reads, exports). */
    default Optional<ProgramControlPlane> controlPlane() {
        return Optional.empty();
    }

    /** Its results after a replay (report.json, CSV, the summary). */
    default Optional<ProgramReport> report() {
        return Optional.empty();
    }

    /** Reads its export messages back from a run's journal ({@code rmtemu collect --json}). */
    default Optional<JournalDecoder> journalDecoder() {
        return Optional.empty();
    }

    /** Its paper's experiment ({@code rmtemu experiment NAME}). */
    default Optional<Experiment> experiment() {
        return Optional.empty();
    }

    /** Its offline analysis on a user's measurements ({@code rmtemu analyse NAME}). */
    default Optional<Analysis> analysis() {
        return Optional.empty();
    }

    /** A plug-in with only {@code factory}. */
    static ProgramPlugin of(ProgramFactory factory) {
        return () -> factory;
    }
}

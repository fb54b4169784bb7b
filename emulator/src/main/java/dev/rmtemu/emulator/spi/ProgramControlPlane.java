package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.emulator.spi.ProgramPlugins;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A program's control plane taking part in a replay (the pre-run counterpart of
 * {@link ProgramReport}): it registers its export-message kinds before the run's
 * journal is created, then, after the engine is built and the {@code --control}
 * script applied but before any packet flows, installs tables and schedules control
 * operations at set cycles ({@link SwitchEngine#scheduleControl}). Everything it does
 * happens at simulated cycles, so a run stays deterministic. A program hands its control
 * plane out through its {@link ProgramPlugin}.
 */
public interface ProgramControlPlane {
    /** The program name this control plane belongs to. */
    String program();

    /** Registers the export-message kinds the control plane writes (before the journal is created). */
    default void registerKinds(JournalKinds kinds) {
    }

    /**
     * Checks a single-switch replay's inputs as this control plane will use them, before the
     * run directory is touched (a {@code UserError}: exit 2, nothing written).
     */
    default void check(SwitchEngine engine, ReplayOptions options) {
    }

    /** {@link #check} for a network replay, on the switches that run {@link #program()}. */
    default void checkNetwork(NetworkEngine network, ReplayOptions options) {
    }

    /**
     * A single-switch replay: {@code journal} is the run's export journal (null without a
     * run directory).
     */
    default Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
        return Session.NONE;
    }

    /**
     * A network replay: called once with the whole network; act only on the switches that
     * run {@link #program()}. {@code journal} is null without a run directory.
     */
    default Session startNetwork(NetworkEngine network, ReplayOptions options, ExportJournal journal) {
        return Session.NONE;
    }

    /** One run's control plane after its start. */
    interface Session {
        Session NONE = new Session() {
        };

        /**
         * Every trace packet has been handed to the engine, the last at {@code lastArrivalCycle};
         * the engine is about to drain. Periodic operations stop rescheduling themselves here
         * (otherwise the drain would never end).
         */
        default void inputDone(long lastArrivalCycle) {
        }

        /** The engine has drained (now at {@code cycle}); last operations (e.g. final exports) before the journal closes. */
        default void finish(long cycle) {
        }

        /** One session for several (a program's switches in a network): each is told, in list order. */
        static Session all(List<? extends Session> sessions) {
            List<Session> copy = List.copyOf(sessions);
            return new Session() {
                @Override
                public void inputDone(long lastArrivalCycle) {
                    for (Session s : copy) {
                        s.inputDone(lastArrivalCycle);
                    }
                }

                @Override
                public void finish(long cycle) {
                    for (Session s : copy) {
                        s.finish(cycle);
                    }
                }
            };
        }
    }

    /** The control planes registered for any of {@code programs}, in program then class-name order. */
    static List<ProgramControlPlane> forPrograms(Collection<String> programs) {
        List<ProgramControlPlane> out = new ArrayList<>();
        for (ProgramPlugin p : ProgramPlugins.registered()) {
            p.controlPlane().filter(c -> programs.contains(c.program())).ifPresent(out::add);
        }
        out.sort((a, b) -> a.program().equals(b.program())
                ? a.getClass().getName().compareTo(b.getClass().getName()) : a.program().compareTo(b.program()));
        return out;
    }

    /** The kinds every one of {@code planes} registers, in their order. */
    static JournalKinds kinds(List<ProgramControlPlane> planes) {
        JournalKinds kinds = new JournalKinds();
        for (ProgramControlPlane c : planes) {
            c.registerKinds(kinds);
        }
        return kinds;
    }
}

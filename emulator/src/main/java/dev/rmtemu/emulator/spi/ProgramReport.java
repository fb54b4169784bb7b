package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.RunResults;
import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.emulator.spi.ProgramPlugins;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A program's results after a replay (e.g. HashPipe's top-k with estimated and true
 * counts) as a {@link ProgramResults} record, read from the switch's state (or, for a
 * network replay, its switches' states) through the control plane and from what the data
 * plane exported into the run's journal, once the run has drained and the journal is
 * closed. The run writes them into report.json ({@code results}) and {@code results/*.csv}
 * and renders the summary from them. A program hands its report out through its
 * {@link ProgramPlugin}.
 */
public interface ProgramReport {
    /** The program name this report belongs to. */
    String program();

    /** The program's results after a single-switch replay (null: none). */
    ProgramResults results(ReplayResult result);

    /**
     * The program's results after a network replay ({@code --topology}), read from the
     * switches that run {@link #program()}; null for programs without any.
     */
    default ProgramResults networkResults(ReplayResult result) {
        return null;
    }

    /** The reports registered for {@code program}, in class-name order. */
    static List<ProgramReport> forProgram(String program) {
        List<ProgramReport> out = new ArrayList<>();
        for (ProgramPlugin p : ProgramPlugins.registered()) {
            p.report().filter(r -> r.program().equals(program)).ifPresent(out::add);
        }
        out.sort((a, b) -> a.getClass().getName().compareTo(b.getClass().getName()));
        return out;
    }

    /** The results of the run's program (at most one report per program gives results). */
    static RunResults collect(ReplayResult run) {
        TreeMap<String, ProgramResults> m = new TreeMap<>();
        for (ProgramReport pr : forProgram(run.options().program())) {
            put(m, pr, pr.results(run));
        }
        return RunResults.of(m);
    }

    /** The results of every program the network's switches run, in program order. */
    static RunResults collectNetwork(ReplayResult run) {
        Collection<String> programs = new TreeSet<>();
        for (int s = 0; s < run.network().switchCount(); s++) {
            programs.add(run.network().switchProgram(s));
        }
        TreeMap<String, ProgramResults> m = new TreeMap<>();
        for (String name : programs) {
            for (ProgramReport pr : forProgram(name)) {
                put(m, pr, pr.networkResults(run));
            }
        }
        return RunResults.of(m);
    }

    private static void put(TreeMap<String, ProgramResults> m, ProgramReport pr, ProgramResults r) {
        if (r != null && m.putIfAbsent(pr.program(), r) != null) {
            throw new IllegalStateException("two reports give results for program " + pr.program());
        }
    }
}

package dev.rmtemu.emulator.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * A program's own section of the replay summary (e.g. HashPipe's top-k with
 * estimated and true counts), read from the switch's state (or, for a network
 * replay, its switches' states) through the control plane after the run. Implementations live with their programs and register
 * with {@link ServiceLoader} under
 * {@code META-INF/services/dev.rmtemu.emulator.replay.ProgramReport}.
 */
public interface ProgramReport {
    /** The program name this report belongs to. */
    String program();

    /** Text appended to the replay summary (deterministic: no host timing). */
    String summarize(ReplayResult result);

    /**
     * Text appended to a network replay's summary ({@code --topology}), read from the
     * switches that run {@link #program()}; empty for programs without one.
     */
    default String summarizeNetwork(NetworkReplay.Result result) {
        return "";
    }

    /** The reports registered for {@code program}, in class-name order. */
    static List<ProgramReport> forProgram(String program) {
        List<ProgramReport> out = new ArrayList<>();
        for (ProgramReport r : ServiceLoader.load(ProgramReport.class)) {
            if (r.program().equals(program)) {
                out.add(r);
            }
        }
        out.sort((a, b) -> a.getClass().getName().compareTo(b.getClass().getName()));
        return out;
    }
}

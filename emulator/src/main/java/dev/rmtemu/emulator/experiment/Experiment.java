package dev.rmtemu.emulator.experiment;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * An experiment that reproduces a paper's result on generated traffic and prints
 * tables (or JSON). Implementations live with their programs and register with
 * {@link java.util.ServiceLoader} under
 * {@code META-INF/services/dev.rmtemu.emulator.experiment.Experiment}, so
 * {@code rmtemu experiment NAME} finds whatever is on the class path.
 */
public interface Experiment {
    /** The name on the command line, e.g. {@code hashpipe}. */
    String name();

    /** One line for listings. */
    String description();

    /** Options the experiment accepts, as "key=default  meaning" lines for --help listings. */
    List<String> options();

    /**
     * Runs the experiment. Output must be deterministic for equal options (no host
     * timing in it). Bad options throw {@link dev.rmtemu.model.UserError}.
     *
     * @return the process exit code
     */
    int run(Map<String, String> options, boolean json, PrintWriter out, PrintWriter err);
}

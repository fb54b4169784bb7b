package dev.rmtemu.emulator.spi;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * An experiment that reproduces a paper's result on generated traffic and prints
 * tables (or JSON). Implementations live with their programs and register with
 * {@link java.util.ServiceLoader} under
 * {@code META-INF/services/dev.rmtemu.emulator.spi.Experiment}, so
 * {@code rmtemu experiment NAME} finds whatever is on the class path.
 */
public interface Experiment {
    /**
     * What one run produced: the JSON document ({@code --json}) and the terminal tables, both
     * rendered from the same rows, so {@code --out} can keep the JSON (and the CSV tables
     * derived from it, see {@link CsvTables}) and still print the tables without a second run.
     * The JSON is put in the shared form here ({@link ExperimentJson}: {@code schema_version} first).
     */
    record Output(String json, String tables) {
        public Output {
            json = ExperimentJson.document(json);
        }
    }

    /** The name on the command line, e.g. {@code hashpipe}. */
    String name();

    /** One line for listings. */
    String description();

    /**
     * The figures {@code --plots} draws, each the paper's figure redrawn from one of this experiment's tables
     * (a table no spec names gets no figure).
     */
    default List<PlotSpec> plots() {
        return List.of();
    }

    /** Options the experiment accepts, as "key=default  meaning" lines for --help listings. */
    List<String> options();

    /**
     * Runs the experiment once. Output must be deterministic for equal options (no host
     * timing in it). Bad options throw {@link dev.rmtemu.model.UserError}.
     */
    Output produce(Map<String, String> options, PrintWriter err);

    /**
     * Runs the experiment and prints its JSON or its tables.
     *
     * @return the process exit code
     */
    default int run(Map<String, String> options, boolean json, PrintWriter out, PrintWriter err) {
        Output o = produce(options, err);
        out.print(json ? o.json() : o.tables());
        out.flush();
        return 0;
    }
}

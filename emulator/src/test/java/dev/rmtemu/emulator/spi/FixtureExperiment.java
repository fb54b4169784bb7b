package dev.rmtemu.emulator.spi;

import dev.rmtemu.model.UserError;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * A test experiment (registered in the test class path only): its rows hold a label with a
 * comma and quotes, so the CLI's CSV quoting is seen end to end; option {@code fail=1} makes
 * it refuse its options the way a real experiment does; {@code pad=N} adds N bytes to its JSON
 * (an output that fills a small file system).
 */
public final class FixtureExperiment implements Experiment {
    @Override
    public String name() {
        return "fixture";
    }

    @Override
    public String description() {
        return "test fixture";
    }

    @Override
    public List<String> options() {
        return List.of("fail=0  1 refuses the options", "pad=0  bytes added to the JSON");
    }

    /** Its "rows" drawn (value by label, a category axis); "other" names no figure. */
    @Override
    public List<PlotSpec> plots() {
        return List.of(PlotSpec.of("rows", "value by label", "label", "label", "value", "value"));
    }

    @Override
    public Output produce(Map<String, String> options, PrintWriter err) {
        if (options.getOrDefault("fail", "0").equals("1")) {
            throw new UserError("experiment fixture: option fail is 1");
        }
        String json = "{\"experiment\":\"fixture\",\"rows\":[{\"label\":\"a, \\\"quoted\\\" one\",\"value\":1.50},"
                + "{\"label\":\"plain\",\"value\":2}],\"other\":[{\"k\":3}]"
                + pad(Integer.parseInt(options.getOrDefault("pad", "0"))) + "}\n";
        String tables = "label                value\na, \"quoted\" one       1.5\nplain                2\n\nk\n3\n";
        return new Output(json, tables);
    }

    private static String pad(int bytes) {
        return bytes == 0 ? "" : ",\"pad\":\"" + "x".repeat(bytes) + "\"";
    }
}

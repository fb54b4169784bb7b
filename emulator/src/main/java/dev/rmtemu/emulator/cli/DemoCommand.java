package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.rundir.OutputPaths;
import dev.rmtemu.emulator.spi.ReplayOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code rmtemu demo}: the main job on a built-in generated trace. */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run the main job on a built-in generated trace (counter on tofino1, a congested port).",
            "",
            "Run the main job on a built-in generated trace: the per-flow 'counter' program on tofino1,",
            "an ISP-like heavy-tailed trace (Zipf flow sizes, seeded; a 100 Gb/s link at 50%% load)",
            "replayed with its own timing and forwarded out of one 40 Gb/s port, so the queue fills",
            "and tail-drops. Prints the summary and writes a run directory (report.json,",
            "resources.json, latency.hgrm, journal/, report.html)."
        })
public final class DemoCommand implements Callable<Integer> {
    /** Demo size: large enough to see queues build, small enough to finish in seconds. */
    public static final long DEFAULT_PACKETS = 2_000_000;
    public static final long DEFAULT_FLOWS = 80_000;
    /** Egress port rate: below the trace's ~50 Gb/s, so the port congests. */
    public static final double DEMO_PORT_GBPS = 40;
    /** The demo trace's flow model and link: Zipf flows on a 100 Gb/s link at 50 % load. */
    public static final String DEMO_TRACE_MODEL = "&dist=zipf&gbps=100&load=0.5";

    @Spec
    CommandSpec spec;

    @Option(names = "--packets", defaultValue = "" + DEFAULT_PACKETS, description = "Packets to generate (default: ${DEFAULT-VALUE}).")
    long packets;

    @Option(names = "--flows", defaultValue = "" + DEFAULT_FLOWS, description = "Flows to generate (default: ${DEFAULT-VALUE}).")
    long flows;

    @Option(names = "--seed", defaultValue = "1", description = "Generator seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "runs/demo", paramLabel = "DIR", description = "Run directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--json", description = "Print report.json to stdout instead of the summary table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        // the Zipf flow model on a 100 Gb/s link at 50 % load (gen:isp's own default is a 10 Gb/s backbone at 15 %,
        // which would not congest the demo's port)
        String trace = "gen:isp?packets=" + packets + "&flows=" + flows + "&seed=" + seed + DEMO_TRACE_MODEL;
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", trace, "original", seed, 0,
                DEMO_PORT_GBPS, true, 0, OutputPaths.directory("--out", out), true);
        return ReplayCommand.run(spec.commandLine().getOut(), spec.commandLine().getErr(), o, json);
    }
}

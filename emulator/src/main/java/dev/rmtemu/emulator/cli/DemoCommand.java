package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.replay.ReplayOptions;
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
            "Run the main job on a built-in generated trace (counter, tofino1, 100 Gb/s).",
            "",
            "Run the main job on a built-in generated trace: the per-flow 'counter' program on tofino1,",
            "an ISP-like heavy-tailed trace (Zipf flow sizes, seeded) replayed at 100 Gb/s line rate",
            "into one port, forwarded out of another. Prints the summary and writes a run directory",
            "(report.json, resources.json, latency.hgrm, journal/, report.html)."
        })
public final class DemoCommand implements Callable<Integer> {
    /** Demo size: large enough to see queues build, small enough to finish in seconds. */
    public static final long DEFAULT_PACKETS = 2_000_000;
    public static final long DEFAULT_FLOWS = 80_000;

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

    @Override
    public Integer call() throws Exception {
        String trace = "gen:isp?packets=" + packets + "&flows=" + flows + "&seed=" + seed;
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", trace, "rate:100G", seed, 0,
                ReplayOptions.DEFAULT_PORT_GBPS, true, 0, out, true);
        return ReplayCommand.run(spec.commandLine().getOut(), spec.commandLine().getErr(), o, false);
    }
}

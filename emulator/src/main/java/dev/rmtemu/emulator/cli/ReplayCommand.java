package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.capture.CaptureOptions;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.rundir.OutputPaths;
import java.nio.file.Files;
import dev.rmtemu.emulator.run.IdleSweep;
import dev.rmtemu.emulator.run.NetworkReplay;
import dev.rmtemu.emulator.output.NetworkReport;
import dev.rmtemu.emulator.run.Replay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.output.RunOutputs;
import dev.rmtemu.emulator.output.SavedRegisters;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.rundir.StopRequest;
import dev.rmtemu.emulator.rundir.StopSignals;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramParams;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rmtemu replay}: a trace through one switch running a stage program. */
@Command(name = "replay",
        resourceBundle = "dev.rmtemu.emulator.cli.help.replay",
        mixinStandardHelpOptions = true,
        description = {
            "Replay a trace through an emulated switch (or a network, with --topology).",
            "",
            "Replay a trace through one emulated switch running a stage program, cycle-accurately:",
            "parser (one packet per pipe per cycle), ingress stages, traffic manager (queues, shared",
            "buffer, tail drop, serialisation), egress stages, recirculation. Every hardware rule is",
            "enforced per packet; a violation stops the run (exit 4) naming packet, stage and array.",
            "Writes DIR/report.json (host-dependent numbers only under 'host'), DIR/resources.json,",
            "DIR/latency.hgrm and per-queue .hgrm files, DIR/journal/, DIR/report.html and the register arrays",
            "in DIR/registers/ (read them with 'rmtemu registers'; see --save-registers).",
            "Programs with results of their own (e.g. hashpipe: top-k flows with estimated and true",
            "counts; wbmon: per-vconn drops in a network replay) write them into report.json ('results'),",
            "as tables into DIR/results/PROGRAM_TABLE.csv, and append them to the summary.",
            "Trace SPEC: a pcap/pcapng file, a trace store directory, or gen:KIND?key=value&...",
            "(see 'rmtemu trace gen --help').",
            "With --topology the trace runs through a network of switches, hosts and links (latency, rate,",
            "impairments) on one timeline; targets, port counts and rates then come from the topology, and",
            "DIR gets report.json with a 'network' section, network-latency.hgrm, ground-truth/ logs,",
            "journal/ and report.html (switch, link and per-port tables; throughput, drops and queues).",
            "DIR is locked for the run (DIR/run.lock); report.json says \"complete\": false until the run ends",
            "and lists the run's files, which are all a rerun removes. SIGINT/SIGTERM stop the run with a final",
            "report marked incomplete (exit 130/143). Network packets have a hop budget (--max-hops): loops end.",
            "--capture records what leaves: DIR/capture/egress.pcapng (interface N = egress port N, named",
            "portN, each frame at its emulated departure in ns) and DIR/capture/drops.pcapng (interface N =",
            "the port the packet arrived on, its drop cause as the packet's comment); --packet-log writes",
            "DIR/packets.csv.gz, one row per packet. With --topology: DIR/capture/SWITCH/ and",
            "DIR/packets/SWITCH.csv.gz per switch.",
            HelpText.SIGINT_INHERITED_IGNORED
        },
        footer = {"", "Examples:",
            "  rmtemu replay --program counter --target tofino1 --trace 'gen:isp?packets=1000000' --out runs/isp",
            "  rmtemu replay --program counter --trace capture.pcap --rate 40G --out runs/cap",
            "  rmtemu replay --topology 'builtin:fattree?k=4' --trace 'gen:isp?packets=100000' --out runs/ft"})
public final class ReplayCommand implements Callable<Integer> {
    @Mixin
    ProgramOptions programOptions;

    @Mixin
    TargetOption targetOption;

    @Spec
    CommandSpec spec;

    @Option(names = "--topology", paramLabel = "SPEC",
            description = "Replay through a network instead of one switch: a topology file (.json/.yaml) or"
                    + " builtin:NAME?key=value&... (see 'rmtemu topo --help'). Trace packets are put on the source"
                    + " hosts by their addresses; report.json then has a 'network' section.")
    String topology;

    @Option(names = "--trace", required = true, paramLabel = "SPEC", description = "Trace to replay.")
    String trace;

    @ArgGroup(exclusive = true)
    TimingChoice timing = new TimingChoice();

    /**
     * How trace packets become arrivals, in the trace's order; the tcpreplay options keep tcpreplay's
     * meaning ({@code --multiplier}, {@code --pps}, {@code --topspeed}; {@code --rate} is its {@code --mbps}
     * with units); {@code --timing back-to-back} is rmtemu's own (see ArrivalTiming).
     */
    static final class TimingChoice {
        @Option(names = "--rate", paramLabel = "RATE", description = "Pack packets back to back at this line rate, as"
                + " tcpreplay's --mbps does: decimal units of bits per second, e.g. 100G, 100Gbps, 40gbit, 400M, 10Mbps.")
        String rate;

        @Option(names = "--pps", paramLabel = "N", description = "One packet every 1/N s (tcpreplay's --pps).")
        Long pps;

        @Option(names = "--multiplier", paramLabel = "X", description = "Replay X times faster than captured, as"
                + " tcpreplay's --multiplier: every gap divided by X (2 is twice the speed, 0.5 half).")
        String multiplier;

        @Option(names = "--topspeed", description = "As fast as the ingress link carries them, as tcpreplay's --topspeed:"
                + " back to back at --port-gbps, in the trace's order (a network replay: use --rate).")
        boolean topspeed;

        @Option(names = "--timing", paramLabel = "MODE", description = "original (the trace's spacing, the default),"
                + " scaled:X (every gap multiplied by X: 2 is half the speed, the inverse of --multiplier), or back-to-back"
                + " (one packet per clock cycle, as fast as the parser takes them: faster than any port, unlike --topspeed).")
        String mode;

        String spec() {
            if (rate != null) {
                return "rate:" + rate;
            }
            if (pps != null) {
                return "pps:" + pps;
            }
            if (multiplier != null) {
                return "multiplier:" + multiplier;
            }
            if (topspeed) {
                return "topspeed";
            }
            return mode != null ? mode : ReplayOptions.DEFAULT_TIMING;
        }
    }

    @Option(names = "--loop", paramLabel = "N", defaultValue = "1", description = "Replay the trace N times back to back,"
            + " as tcpreplay's --loop, each pass's timestamps shifted past the one before by the trace's span plus its mean"
            + " gap, so time keeps going forward (default: ${DEFAULT-VALUE}; tcpreplay's 0, forever, is refused: a run ends).")
    int loop;

    @Option(names = "--seed", defaultValue = "1", description = "Seed for anything random in the run (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--ports", description = "Front-panel ports, at least 1 (default: every port of the target).")
    Integer ports;

    @Option(names = "--port-gbps", defaultValue = "100", description = "Rate of every front-panel port in Gb/s (default: ${DEFAULT-VALUE}).")
    double portGbps;

    @Option(names = "--max-packets", defaultValue = "0", description = "Stop after this many packets (0, the default: whole trace).")
    long maxPackets;

    @Option(names = "--no-enforce", description = "Skip the per-packet hardware checks (only to measure their cost).")
    boolean noEnforce;

    @Option(names = "--out", defaultValue = "runs/replay", paramLabel = "DIR", description = "Run directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--control", paramLabel = "FILE", description = {
        "Control-plane script: bmv2 runtime_CLI commands with the program's names",
        "(table_add, table_set_default, register_write, mc_mgrp_create, ...), applied",
        "before the run or 'at CYCLE'; with --topology every line starts 'on SWITCH'.",
        "See docs/reference/control-script.md."})
    Path control;

    @Option(names = "--force", description = "Write into a non-empty --out that is not a run directory"
            + " (its files stay; only the run's own names are replaced).")
    boolean force;

    @Option(names = "--max-hops", paramLabel = "N", defaultValue = "" + NetworkOptions.DEFAULT_MAX_HOPS,
            description = "With --topology: switch hops a packet may take before it is dropped as hop_limit"
                    + " (ends forwarding loops; default: ${DEFAULT-VALUE}).")
    int maxHops;

    @Option(names = "--threads", paramLabel = "N", description = "With --topology: threads that run the switches"
            + " (default: the cores available). The output is the same for every N; a network whose switches cannot"
            + " run apart (a link with latency_ns 0, a program's control plane) runs on one thread, with a warning"
            + " when N > 1 was given.")
    Integer threads;

    @Option(names = "--snaplen", paramLabel = "N", description = "Bytes of each frame the packet ring and the switches"
            + " carry, 1.." + PacketRecord.MAX_FRAME_BYTES + " (default: the target's parser window, 256 on the Tofino"
            + " profiles); a longer frame is carried truncated with its original length, as tcpdump -s does.")
    Integer snaplen;

    @Option(names = "--save-registers", description = "Save the register arrays into DIR/registers/ (for 'rmtemu"
            + " registers') even when they are over " + (SavedRegisters.ALWAYS_SAVE_BYTES >> 20) + " MiB uncompressed"
            + " in all; smaller ones are always saved.")
    boolean saveRegisters;

    @Option(names = "--capture", descriptionKey = "capture")
    boolean capture;

    @Option(names = "--capture-limit", paramLabel = "N", descriptionKey = "capture-limit",
            defaultValue = "" + CaptureOptions.DEFAULT_LIMIT)
    long captureLimit;

    @Option(names = "--packet-log", descriptionKey = "packet-log")
    boolean packetLog;

    @Option(names = "--json", description = "Print report.json to stdout instead of the summary table.")
    boolean json;

    @Option(names = "--strict", description = "Exit 5 when the run has a warning (an empty trace, every packet dropped"
            + " or none delivered, packets sent out of unlinked topology ports, a forwarding loop); the run directory"
            + " is written as usual.")
    boolean strict;

    @Option(names = "--progress", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Progress bar on stderr when it is a terminal (default: on).")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        if (!(portGbps > 0) || Double.isInfinite(portGbps)) {
            throw new UserError("--port-gbps must be positive and finite, got " + portGbps);
        }
        if (ports != null && ports < 1) {
            throw new UserError("--ports must be at least 1, got " + ports + " (leave it out for every port of the target)");
        }
        if (maxPackets < 0) {
            throw new UserError("--max-packets must be 0 (the whole trace) or positive, got " + maxPackets);
        }
        if (loop < 1) {
            throw new UserError("--loop must be at least 1, got " + loop + " (a replay ends; tcpreplay's 0, forever, is not offered)");
        }
        Path outDir = OutputPaths.directory("--out", out);
        if (programOptions.program == null && topology == null) {
            throw new UserError("--program is required (unless --topology gives the switches their programs)");
        }
        if (maxHops < 1) {
            throw new UserError("--max-hops must be at least 1, got " + maxHops);
        }
        if (threads != null && threads < 1) {
            throw new UserError("--threads must be at least 1, got " + threads);
        }
        ReplayOptions o = new ReplayOptions(programOptions.program, ProgramParams.parseAssignments(programOptions.params), targetOption.target, trace,
                timing.spec(), seed, ports == null ? 0 : ports, portGbps, !noEnforce, maxPackets, outDir, progress, control,
                topology, force, maxHops, saveRegisters,
                snaplen == null ? ReplayOptions.WINDOW_SNAP : Snaplen.check(snaplen), loop, captureOptions(),
                programOptions.p4Options(), threads == null ? NetworkOptions.AUTO_THREADS : threads);
        return run(spec.commandLine().getOut(), spec.commandLine().getErr(), o, json, strict);
    }

    /** --capture, --capture-limit and --packet-log, checked. */
    private CaptureOptions captureOptions() {
        if (!capture && spec.commandLine().getParseResult().hasMatchedOption("--capture-limit")) {
            throw new UserError("--capture-limit bounds the capture files: it needs --capture");
        }
        if (captureLimit < 1) {
            throw new UserError("--capture-limit must be at least 1 packet, got " + captureLimit);
        }
        return new CaptureOptions(capture, captureLimit, packetLog);
    }

    /** Exit code of a run that ended with warnings under {@code --strict} (README: exit codes). */
    static final int EXIT_WARNINGS = 5;

    static int run(PrintWriter out, PrintWriter err, ReplayOptions o, boolean json) throws Exception {
        return run(out, err, o, json, false);
    }

    static int run(PrintWriter out, PrintWriter err, ReplayOptions o, boolean json, boolean strict) throws Exception {
        // drawn only when stderr is a terminal; the total comes once the trace is open
        ProgressBar bar = o.progress() ? new ProgressBar(err, "replay", "packets", -1, false) : null;
        Replay.Progress p = bar == null ? null : new Replay.Progress() {
            @Override
            public void total(long packets) {
                bar.total(packets);
            }

            @Override
            public void update(long packets) {
                bar.update(packets);
            }

            @Override
            public void done(long packets) {
                bar.update(packets);
                bar.close();
            }
        };
        StringBuilder table = new StringBuilder();
        StopRequest stop = new StopRequest();
        Outcome done;
        // SIGINT/SIGTERM end the run at the next chunk with a report marked incomplete
        try (StopSignals signals = StopSignals.install(stop)) {
            done = replay(o, p, stop, table, err);
        }
        String interruptedBy = done.interruptedBy();
        long packets = done.packets();
        for (String w : done.warnings()) {
            err.println("rmtemu: warning: " + w);
        }
        err.flush();
        if (interruptedBy != null) {
            err.println("rmtemu: replay interrupted by " + interruptedBy + " after " + packets + " packets"
                    + (o.out() == null ? "" : "; " + o.out().resolve(RunOutputs.REPORT) + " says complete: false"));
            err.flush();
            return stop.exitCode();
        }
        if (json) {
            out.print(Files.readString(o.out().resolve(RunOutputs.REPORT)));
        } else {
            out.print(table);
            out.println("run directory: " + o.out());
        }
        out.flush();
        if (strict && !done.warnings().isEmpty()) {
            err.println("rmtemu: --strict: " + done.warnings().size() + " warning(s), exit " + EXIT_WARNINGS);
            err.flush();
            return EXIT_WARNINGS;
        }
        return 0;
    }

    /** How a replay ended: the signal that stopped it (null: it ran to the end), the packets read, the warnings. */
    private record Outcome(String interruptedBy, long packets, List<String> warnings) {
    }

    /** Runs the replay and appends its summary (and its programs' sections) to {@code table}. */
    private static Outcome replay(ReplayOptions o, Replay.Progress p, StopRequest stop, StringBuilder table,
                                  PrintWriter err) {
        if (o.topology() != null) {
            ReplayResult r = NetworkReplay.run(o, p, stop);
            for (int s = 0; s < r.network().switchCount(); s++) {
                warnNotApplied(err, r.network().switchEngine(s), r.network().now());
            }
            if (o.threads() > 1 && r.network().threadNote() != null) {
                // on stderr only: report.json is the same whatever the threads
                err.println("rmtemu: warning: --threads " + o.threads() + ": " + r.network().threadNote());
            }
            if (o.out() != null) {
                SavedRegisters.notSavedWarning(NetworkReport.registerBytes(r.network()), o.saveRegisters(),
                                SavedRegisters.ALWAYS_SAVE_BYTES)
                        .ifPresent(w -> err.println("rmtemu: warning: " + w));
            }
            err.flush();
            table.append(NetworkReport.summary(r));
            table.append(r.results().render());
            return new Outcome(r.interruptedBy(), r.packetsRead(), r.warnings());
        }
        ReplayResult r = Replay.run(o, p, stop);
        warnNotApplied(err, r.engine(), r.engine().now());
        if (o.out() != null) {
            SavedRegisters.notSavedWarning(SavedRegisters.uncompressedBytes(r.engine().state()), o.saveRegisters(),
                            SavedRegisters.ALWAYS_SAVE_BYTES)
                    .ifPresent(w -> err.println("rmtemu: warning: " + w));
            err.flush();
        }
        table.append(RunOutputs.summary(r));
        table.append(r.results().render());
        return new Outcome(r.interruptedBy(), r.packetsRead(), r.warnings());
    }

    /** One warning per control operation scheduled after the run's last event (it was not applied). */
    private static void warnNotApplied(PrintWriter err, SwitchEngine engine, long lastCycle) {
        for (Object op : engine.controlOpsNotApplied()) {
            if (op instanceof IdleSweep.Tick) {
                continue; // the switch's own idle-time sweep, not a line of the user's script
            }
            err.println("rmtemu: warning: " + op + ": not applied: its cycle comes after the run's last event (cycle "
                    + lastCycle + ")");
        }
        err.flush();
    }
}

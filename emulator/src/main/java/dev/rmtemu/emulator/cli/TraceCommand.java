package dev.rmtemu.emulator.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.TraceSummary;
import dev.rmtemu.traces.parse.ProtocolHierarchy;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import dev.rmtemu.traces.impair.GroundTruthLog;
import dev.rmtemu.traces.impair.ImpairedSource;
import dev.rmtemu.traces.impair.ImpairmentChain;
import dev.rmtemu.traces.impair.Impairment;
import dev.rmtemu.traces.impair.Impairments;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import dev.rmtemu.traces.pcap.CaptureWriter;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.store.TraceStoreWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import dev.rmtemu.traces.SkipCounters;
import dev.rmtemu.traces.SkipReason;

/** {@code rmtemu trace}: generate, inspect and convert packet traces. */
@Command(name = "trace",
        mixinStandardHelpOptions = true,
        description = {
            "Generate, inspect and convert packet traces.",
            "A trace SPEC is a pcap or pcapng file (told apart by magic number), a trace store",
            "directory, or a generator: gen:KIND?key=value&... with KIND one of "
                + "isp, dc, incast, tcp, uniform."
        },
        subcommands = {TraceCommand.Gen.class, TraceCommand.Info.class, TraceCommand.Convert.class})
public final class TraceCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Output kinds, chosen by the output path's extension unless --format is given. */
    enum OutputFormat { PCAP, PCAPNG, STORE }

    static OutputFormat outputFormat(Path out, String format) {
        if (format != null) {
            try {
                return OutputFormat.valueOf(format.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new UserError("unknown --format '" + format + "'; valid: pcap, pcapng, store");
            }
        }
        String name = out.getFileName() == null ? "" : out.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".pcapng")) {
            return OutputFormat.PCAPNG;
        }
        if (name.endsWith(".pcap")) {
            return OutputFormat.PCAP;
        }
        if (name.endsWith(".cq")) {
            return OutputFormat.STORE;
        }
        throw new UserError(out + ": cannot tell the output format from the name; use .pcap, .pcapng or .cq "
                + "(a store directory), or --format");
    }

    /** Help of --snaplen (gen and convert). */
    static final String SNAPLEN_HELP = "Bytes of each frame a pcap/pcapng keeps, 1.." + FrameSynthesizer.WHOLE_FRAME
            + " (default: whole frames); a longer frame is written truncated with its original length, as tcpdump -s "
            + "does, never shorter than its headers and 4 payload bytes.";

    /** The snap length of {@code --snaplen} (null: whole frames), checked against the output format. */
    static int snapLength(Integer snaplen, OutputFormat format) {
        if (snaplen == null) {
            return FrameSynthesizer.WHOLE_FRAME;
        }
        if (snaplen < 1 || snaplen > FrameSynthesizer.WHOLE_FRAME) {
            throw new UserError("--snaplen " + snaplen + ": must be in [1, " + FrameSynthesizer.WHOLE_FRAME + "]");
        }
        if (format == OutputFormat.STORE) {
            throw new UserError("--snaplen applies to pcap and pcapng output, not to a trace store");
        }
        return snaplen;
    }

    /** Copies every record of {@code src} to {@code out}, frames cut to {@code snap} bytes; returns the record count. */
    static long copy(PacketSource src, Path out, OutputFormat format, int snap, ProgressBar bar) {
        if (format == OutputFormat.STORE) {
            return TraceStoreWriter.write(src, out, bar::update);
        }
        long n = 0;
        try (CaptureWriter w = CaptureWriter.create(out,
                format == OutputFormat.PCAP ? CaptureFiles.Format.PCAP : CaptureFiles.Format.PCAPNG, snap)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                w.write(r);
                n++;
                if ((n & 0xFFFF) == 0) {
                    bar.update(n);
                }
            }
        }
        bar.update(n);
        return n;
    }

    @Command(name = "gen", mixinStandardHelpOptions = true,
            description = {"Generate a seeded synthetic trace and write it as pcap, pcapng or a trace store.",
                "The same options give the same bytes on every run and machine."})
    static final class Gen implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--kind", required = true, paramLabel = "KIND",
                description = "Generator preset: isp (a backbone link: flows arrive and end through the trace, 10 M packets / "
                        + "~400 K flows in ~20 s at 10 Gb/s), dc (Pareto: mice and "
                        + "elephants), incast (N senders to one receiver in bursts), tcp (SYN-first TCP flows), uniform.")
        String kind;

        @Option(names = "--seed", required = true, paramLabel = "N", description = "Seed of all randomness.")
        long seed;

        @Option(names = "--packets", paramLabel = "N", description = "Total packets (default: the preset's).")
        Long packets;

        @Option(names = "--flows", paramLabel = "N", description = "Distinct 5-tuple flows, 0 = one per 25 packets (default: the preset's).")
        Integer flows;

        @Option(names = "--param", paramLabel = "KEY=VALUE",
                description = "Any other generator parameter, repeatable: dist, zipf, pareto, sizes (imix | fixed:N | "
                        + "mean:N), gbps, load, start, ipv6, tcp, udp, ports, senders, bursts, interval, mice, micepkts, "
                        + "gap, gapsigma.")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--out", required = true, paramLabel = "PATH",
                description = "Output: FILE.pcap, FILE.pcapng, or DIR.cq for a trace store (or see --format).")
        Path out;

        @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: pcap, pcapng or store "
                + "(default: from the --out extension).")
        String format;

        @Option(names = "--snaplen", paramLabel = "N", description = SNAPLEN_HELP)
        Integer snaplen;

        @Option(names = "--progress", description = "Show the progress bar even when stderr is not a terminal.")
        boolean progress;

        @Override
        public Integer call() {
            GeneratorKind k = GeneratorKind.byLabel(kind);
            if (k == null) {
                throw new UserError("unknown --kind '" + kind + "'; valid: " + GeneratorKind.labels());
            }
            GeneratorConfig c = GeneratorConfig.preset(k).with("seed", Long.toString(seed));
            if (packets != null) {
                c = c.with("packets", Long.toString(packets));
            }
            if (flows != null) {
                c = c.with("flows", Integer.toString(flows));
            }
            c = c.with(params);
            OutputFormat f = outputFormat(out, format);
            int snap = snapLength(snaplen, f);
            PrintWriter o = spec.commandLine().getOut();
            long n;
            try (SyntheticSource src = new SyntheticSource(c);
                 ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "gen", "pkts", c.packets(), progress)) {
                n = copy(src, out, f, snap, bar);
            }
            o.println("wrote " + n + " packets to " + out + " (" + f.name().toLowerCase(Locale.ROOT) + ") from "
                    + c.toSpec());
            return 0;
        }
    }

    @Command(name = "info", mixinStandardHelpOptions = true,
            description = {"Summarise a trace: packets, flows, bytes, duration, protocol mix, skipped frames by",
                "reason, mean packet size, the share of packets in the top 1/10/100/1000 flows, the flow-size",
                "CCDF, new flows per tenth of the span and the largest flows; a table for people or JSON for",
                "machines (deterministic order). For a capture file, also the protocol hierarchy the switch's",
                "default parse graph finds in the frames' bytes (Ethernet, VLAN, ARP, IPv4, IPv6 and its",
                "extension headers, TCP, UDP, ICMP, ICMPv6; tofino1's 256-byte parser window): frames and",
                "bytes per chain of headers, frames per header and per parser error kind."})
    static final class Info implements Callable<Integer> {
        /** The target whose parser window the protocol hierarchy reads frames through. */
        static final String PARSER_TARGET = "tofino1";

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "SPEC", description = "The trace: capture file, store directory or gen:... spec.")
        String trace;

        @Option(names = "--json", description = "Print JSON instead of a table.")
        boolean json;

        @Option(names = "--top", paramLabel = "N", defaultValue = "10",
                description = "How many of the largest flows (by packets) to list (default: ${DEFAULT-VALUE}).")
        int top;

        @Option(names = "--lenient", description = "Stop at a corrupt or truncated tail instead of failing, and skip "
                + "(count and warn about) frames whose captured length exceeds the original or whose timestamp is out of range.")
        boolean lenient;

        @Option(names = "--progress", description = "Show the progress bar even when stderr is not a terminal.")
        boolean progress;

        @Override
        public Integer call() {
            if (top < 0) {
                throw new UserError("--top must be >= 0");
            }
            TraceSummary s;
            String stop = null;
            ProtocolHierarchy hierarchy = null;
            try (PacketSource src = TraceSpec.open(trace, lenient);
                 ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "info", "pkts", src.knownCount(), progress)) {
                if (src instanceof CaptureReader cr) {
                    // a capture has the frames' bytes: run the switch's default parser over them
                    hierarchy = new ProtocolHierarchy(TargetProfiles.builtIn(PARSER_TARGET).parser().windowBytes());
                    cr.tap(hierarchy);
                }
                s = TraceSummary.of(src, top, bar::update);
                if (src instanceof CaptureReader cr) {
                    stop = cr.stopReason();
                }
                warnLenientSkips(spec.commandLine().getErr(), src.skipped());
            }
            ProtocolHierarchy.Summary phs = hierarchy == null ? null : hierarchy.summary();
            PrintWriter o = spec.commandLine().getOut();
            o.print(json ? SummaryFormat.json(s, stop, phs) : SummaryFormat.table(s, stop, phs));
            o.flush();
            return 0;
        }
    }

    @Command(name = "convert", mixinStandardHelpOptions = true,
            description = {"Convert a trace to pcap, pcapng or a trace store (records are re-synthesised as",
                "Ethernet frames; skipped frames are counted, not copied)."})
    static final class Convert implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "IN", description = "Input trace: capture file, store directory or gen:... spec.")
        String in;

        @Parameters(index = "1", paramLabel = "OUT", description = "Output: FILE.pcap, FILE.pcapng or DIR.cq.")
        Path out;

        @Option(names = "--format", paramLabel = "FORMAT", description = "Output format: pcap, pcapng or store "
                + "(default: from the OUT extension).")
        String format;

        @Option(names = "--lenient", description = "Stop at a corrupt or truncated tail of IN instead of failing; "
                + "reports how many packets were read. Frames whose captured length exceeds the original or whose "
                + "timestamp is out of range are skipped, counted and warned about.")
        boolean lenient;

        @Option(names = "--impair", paramLabel = "KEY=SPEC",
                description = {"Pass the packets through an impairment; repeat for a chain, applied in order.",
                    "Same keys and specs as a topology link's impair map:",
                    "  loss=bernoulli:P | loss=gilbert:p=P,r=R[,good=G,bad=B]",
                    "  blackhole=dst=PREFIX[,proto=N][,port=N][,from=TIME][,to=TIME]",
                    "  delay=normal:mean=TIME,sigma=TIME | delay=mixture:w=W,mean1=..,sigma1=..,mean2=..,sigma2=..",
                    "  delay=exp:const=TIME,mean=TIME | dup=P | reorder=p=P,sigma=X[,max=N]",
                    "TIME: number with ns (default), us, ms or s."})
        List<String> impair = new ArrayList<>();

        @Option(names = "--impair-seed", paramLabel = "N", defaultValue = "1",
                description = "Seed of the impairments (default: ${DEFAULT-VALUE}).")
        long impairSeed;

        @Option(names = "--truth", paramLabel = "FILE",
                description = "With --impair: write the ground-truth log (input packet index, drop | duplicate | "
                        + "reorder | delay, value) to FILE.")
        Path truth;

        @Option(names = "--snaplen", paramLabel = "N", description = SNAPLEN_HELP)
        Integer snaplen;

        @Option(names = "--progress", description = "Show the progress bar even when stderr is not a terminal.")
        boolean progress;

        /** KEY=SPEC options to a chain; impairment i draws from seed + i so each has its own stream. */
        static ImpairmentChain chain(List<String> specs, long seed) {
            Impairment[] parts = new Impairment[specs.size()];
            for (int i = 0; i < parts.length; i++) {
                String kv = specs.get(i);
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new UserError("--impair '" + kv + "' is not KEY=SPEC (keys: " + String.join(", ", Impairments.KEYS) + ")");
                }
                parts[i] = Impairments.parse(kv.substring(0, eq), kv.substring(eq + 1), seed + i);
            }
            return new ImpairmentChain(parts);
        }

        @Override
        public Integer call() {
            OutputFormat f = outputFormat(out, format);
            int snap = snapLength(snaplen, f);
            if (truth != null && impair.isEmpty()) {
                throw new UserError("--truth needs --impair");
            }
            ImpairmentChain chain = impair.isEmpty() ? null : chain(impair, impairSeed);
            GroundTruthLog log = chain == null ? null : new GroundTruthLog();
            PrintWriter o = spec.commandLine().getOut();
            long n;
            String stop = null;
            Map<String, Long> skipped;
            try (PacketSource in0 = TraceSpec.open(in, lenient);
                 ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), "convert", "pkts",
                         chain == null ? in0.knownCount() : -1, progress)) {
                PacketSource src = chain == null ? in0 : new ImpairedSource(in0, chain, log, PacketRecord.MAX_FRAME_BYTES);
                n = copy(src, out, f, snap, bar);
                skipped = src.skipped().asMap();
                if (in0 instanceof CaptureReader cr) {
                    stop = cr.stopReason();
                }
                warnLenientSkips(spec.commandLine().getErr(), in0.skipped());
            }
            o.println("wrote " + n + " packets to " + out + " (" + f.name().toLowerCase(Locale.ROOT) + ")"
                    + (skipped.isEmpty() ? "" : "; skipped " + skipped));
            if (log != null) {
                o.println("impairments " + chain.describe() + ": dropped " + log.count(GroundTruthLog.DROP)
                        + ", duplicated " + log.count(GroundTruthLog.DUPLICATE) + ", reordered "
                        + log.count(GroundTruthLog.REORDER) + ", delayed " + log.count(GroundTruthLog.DELAY));
                if (truth != null) {
                    log.writeTo(truth);
                }
            }
            if (stop != null) {
                spec.commandLine().getErr().println("rmtemu: warning: stopped early after " + n + " packets: " + stop);
            }
            return 0;
        }
    }

    /**
     * One warning line per kind of frame --lenient skipped for an out-of-range field (without
     * --lenient the reader refuses the file at the first one, naming record and byte offset).
     */
    static void warnLenientSkips(PrintWriter err, SkipCounters skipped) {
        long lengths = skipped.count(SkipReason.CAPTURED_OVER_ORIGINAL);
        if (lengths > 0) {
            err.println("rmtemu: warning: --lenient skipped " + lengths + " frame(s) whose captured length exceeds the"
                    + " original length (counted as " + SkipReason.CAPTURED_OVER_ORIGINAL.label() + ")");
        }
        long times = skipped.count(SkipReason.BAD_TIMESTAMP);
        if (times > 0) {
            err.println("rmtemu: warning: --lenient skipped " + times + " frame(s) with an out-of-range timestamp"
                    + " (counted as " + SkipReason.BAD_TIMESTAMP.label() + ")");
        }
    }
}

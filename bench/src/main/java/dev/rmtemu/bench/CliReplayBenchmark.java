package dev.rmtemu.bench;

import dev.rmtemu.emulator.cli.Main;
import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PackedRecords;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a user's {@code rmtemu replay} gets next to the engine alone, on the same program and
 * trace in one run, so their ratio is measurable (issue #34's goal: {@code cli / engine >= 0.85}).
 * The trace is a fully loaded 100 Gb/s ISP link ({@value #TRACE_QUERY}); {@code source} says
 * where the CLI reads it: the generator itself, a pcap of it ({@code trace convert}, frames cut
 * at the parser window) or a trace store.
 * <ul>
 *   <li>{@code engine}: the switch alone, as {@link ReplayBenchmark#replay()} runs it: the same
 *       records (each with the frame bytes the CLI's ring carries, the parser window) held in
 *       memory, arrivals with the CLI's default timing, a fresh switch per invocation, drained.</li>
 *   <li>{@code cli}: {@code rmtemu replay --program counter --trace SOURCE --out DIR} through
 *       the CLI's entry point: trace checks, the reader thread and packet ring, the engine,
 *       histograms, timelines, journal, report.json, report.html and the register files.</li>
 * </ul>
 * One operation is one packet, so both scores are packets per second.
 */
@Warmup(iterations = 2, time = 4)
@Measurement(iterations = 5, time = 4)
public class CliReplayBenchmark extends EngineBenchmark {
    /** Packets per invocation: an invocation is about a second of work, so a run's fixed costs show as they do to a user. */
    static final int PACKETS = 1 << 22;
    static final String PROGRAM = "counter";
    static final String TRACE_QUERY = "seed=1&gbps=100&load=1";
    static final String TRACE = "gen:isp?packets=" + PACKETS + "&" + TRACE_QUERY;

    @Param({"gen", "pcap", "store"})
    public String source;

    private Path dir;
    private String spec;
    private PackedRecords trace;
    private TargetProfile profile;
    private StageProgram program;
    private SwitchEngine engine;
    private final PacketRecord view = new PacketRecord();

    @Setup(Level.Trial)
    public void traces() throws IOException {
        dir = Files.createTempDirectory("rmtemu-cli-bench");
        spec = switch (source) {
            case "gen" -> TRACE;
            case "pcap" -> convert(dir.resolve("isp.pcap"), "--snaplen", "" + windowBytes());
            case "store" -> convert(dir.resolve("isp.cq"));
            default -> throw new IllegalArgumentException("source " + source + ": gen, pcap or store");
        };
        profile = TargetProfiles.builtIn("tofino1");
        program = ProgramPlugins.registry().build(PROGRAM, Map.of());
        trace = load(TraceSpec.open(spec), profile.parser().windowBytes());
    }

    private static int windowBytes() {
        return TargetProfiles.builtIn("tofino1").parser().windowBytes();
    }

    /** {@code rmtemu trace convert TRACE out [extra...]}; returns {@code out} as a trace spec. */
    private static String convert(Path out, String... extra) {
        String[] args = Stream.concat(Stream.of("trace", "convert", TRACE, out.toString()), Stream.of(extra))
                .toArray(String[]::new);
        cli(args);
        return out.toString();
    }

    /** The whole trace in memory, each record with at most {@code snap} frame bytes (what the CLI's ring carries). */
    private static PackedRecords load(PacketSource source, int snap) {
        PackedRecords records = new PackedRecords(PACKETS);
        PacketRecord r = PacketRecord.allocate(snap);
        try (source) {
            while (records.size() < PACKETS && source.next(r)) {
                records.add(r);
            }
        }
        return records;
    }

    @Setup(Level.Invocation)
    public void freshSwitch() {
        engine = new SwitchEngine(new SwitchConfig(profile, program, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(ReplayOptions.DEFAULT_PORT_GBPS), true), profile.parser().windowBytes());
    }

    @TearDown(Level.Trial)
    public void deleteTraces() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        ArrivalTiming timing = ArrivalTiming.parse(ReplayOptions.DEFAULT_TIMING, engine.clock(),
                ReplayOptions.DEFAULT_PORT_GBPS);
        int ports = SwitchConfig.defaultPorts(profile);
        for (int i = 0; i < trace.size(); i++) {
            PacketRecord r = trace.get(i, view);
            engine.arrive(timing.next(r.timestampNs(), r.wireLength()), r.ingressPort() % ports, r);
        }
        engine.drain();
        return engine.counters().packetsOut();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public int cli() {
        // a rerun into the same directory, as a user repeats a run: it replaces exactly the last run's files
        return cli("replay", "--program", PROGRAM, "--trace", spec, "--out", dir.resolve("run").toString(),
                "--no-progress");
    }

    private static int cli(String... args) {
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(Writer.nullWriter()), new PrintWriter(err, true));
        if (code != 0) {
            throw new IllegalStateException("rmtemu " + String.join(" ", args) + " exited " + code + ": " + err);
        }
        return code;
    }
}

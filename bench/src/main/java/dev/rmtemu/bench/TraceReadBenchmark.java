package dev.rmtemu.bench;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.gen.GeneratorConfig;
import dev.rmtemu.traces.gen.GeneratorKind;
import dev.rmtemu.traces.gen.SyntheticSource;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureWriter;
import dev.rmtemu.traces.store.TraceStoreSource;
import dev.rmtemu.traces.store.TraceStoreWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Records per second from each kind of packet source: pcap and pcapng readers (decode
 * every frame), the Chronicle Queue trace store (copy 64-byte records), and the ISP
 * generator. One operation = one record; each invocation reads the whole trace of
 * {@link #PACKETS} records, created once in a temp directory by {@link #setUp}.
 * Run: {@code java -jar bench/target/benchmarks.jar TraceRead -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class TraceReadBenchmark extends ForkedJvm {
    /** Trace size: 1 M packets (≈ 70 MB of pcap), enough that each invocation streams the files. */
    static final int PACKETS = 1_000_000;
    static final int FLOWS = 40_000;

    private Path dir;
    private Path pcap;
    private Path pcapng;
    private Path store;
    private GeneratorConfig config;
    private final PacketRecord record = PacketRecord.allocate();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("rmtemu-bench");
        pcap = dir.resolve("t.pcap");
        pcapng = dir.resolve("t.pcapng");
        store = dir.resolve("t.cq");
        config = GeneratorConfig.preset(GeneratorKind.ISP).with("packets", Integer.toString(PACKETS))
                .with("flows", Integer.toString(FLOWS)).with("seed", "1");
        write(pcap, CaptureFiles.Format.PCAP);
        write(pcapng, CaptureFiles.Format.PCAPNG);
        TraceStoreWriter.write(new SyntheticSource(config), store, null);
    }

    private void write(Path file, CaptureFiles.Format format) {
        try (SyntheticSource src = new SyntheticSource(config); CaptureWriter w = CaptureWriter.create(file, format)) {
            while (src.next(record)) {
                w.write(record);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private long drain(PacketSource src) {
        long sum = 0;
        try (src) {
            while (src.next(record)) {
                sum += record.wireLength();
            }
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long readPcap() {
        return drain(CaptureFiles.open(pcap, false));
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long readPcapng() {
        return drain(CaptureFiles.open(pcapng, false));
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long readStore() {
        return drain(new TraceStoreSource(store));
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long generateIsp() {
        return drain(new SyntheticSource(config));
    }
}

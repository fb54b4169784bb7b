package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.reference.MidstReference;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.experiment.MidstTraffic;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.PackedRecords;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;


/**
 * MIDST end to end on tofino1: bursty incast (1.5× overload) into a congested 10 Gb/s
 * port (1,000-cell queue), S_in/S_out of 2 × 32,768 counters (256 KB each), probes every
 * 2 µs for reactive monitoring and cleaning, collector on the wire. One operation = one
 * trace packet (probes are extra work, not counted), so the score is packets per second.
 * {@code reference} is the plain-Java {@link MidstReference}: S_in and S_out update and the
 * min-of-differences estimate for every packet, no pipeline, no traffic manager.
 * {@code stagePasses} is the MIDST program's own cost: parser, ingress pass and egress pass
 * of every packet on one PHV with monitoring on (every packet counted in S_in and S_out),
 * enforcement on, no traffic manager, no probes.
 * {@code engineHeldOn} is {@code engine} with monitoring held on by the control plane and no
 * probes: the same switch without the probes' extra packets and recirculations.
 */
public class MidstBenchmark extends EngineBenchmark {
    static final int PACKETS = 1 << 18;
    static final int FLOWS = 100_000;
    static final double GBPS = 10;
    static final int QUEUE_CELLS = 1_000;
    /** Probe interval in cycles: 2 µs at 1.22 GHz. */
    static final long PROBE_CYCLES = 2_440;
    static final int[] INPUTS = {3, 4, 5, 6, 7, 8, 9, 10};

    private PackedRecords trace;
    private final PacketRecord view = new PacketRecord();
    private MidstConfig cfg;
    private MidstSwitch sw;
    private MidstSwitch swHeldOn;
    private MidstReference ref;
    private long spanNs;
    private final int[] idx = new int[MidstConfig.MAX_ROWS];
    private final long[] u = new long[MidstConfig.MAX_ROWS];
    private MidstPipeline passPipeline;
    private PipelineState passState;
    private PassExecutor pass;
    private HeaderParser parser;
    private Phv passPhv;
    private Field egressPort;

    @Setup(Level.Trial)
    public void generate() {
        trace = new PackedRecords(PACKETS);
        MidstTraffic t = new MidstTraffic(new MidstTraffic.Spec(FLOWS, 1.0, 1000, GBPS, 1.5, PACKETS / 4, 4,
                50_000_000L, INPUTS, 7));
        PacketRecord r = PacketRecord.allocate(FrameSynthesizer.MAX_MIN_FRAME);
        while (trace.size() < PACKETS && t.next(r)) {
            FrameSynthesizer.attachFrame(r); // the headers' bytes, as a header capture keeps them
            trace.add(r);
        }
        spanNs = trace.get((PACKETS - 1), view).timestampNs() + 1_000_000;
        cfg = MidstConfig.defaults().withWaterMarks(250, 25);
    }

    @Setup(Level.Iteration)
    public void freshSwitch() {
        sw = new MidstSwitch(cfg, TargetProfiles.builtIn("tofino1"), GBPS, QUEUE_CELLS);
        swHeldOn = new MidstSwitch(cfg, TargetProfiles.builtIn("tofino1"), GBPS, QUEUE_CELLS);
        swHeldOn.monitorAlways();
        ref = new MidstReference(cfg);
        passPipeline = new MidstPipeline(cfg);
        passState = new PipelineState(passPipeline.program, 1);
        passState.writeRegister(0, MidstPipeline.MONITOR, 0, 1, 0);
        pass = new PassExecutor(passState, true);
        parser = new HeaderParser(passPipeline.program);
        passPhv = new Phv(passPipeline.program.fields().size());
        egressPort = passPipeline.program.intrinsic(Intrinsic.EGRESS_PORT);
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long stagePasses() {
        Phv phv = passPhv;
        long sum = 0;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            phv.clear();
            parser.parse(r, phv);
            pass.run(phv, 0, Gress.INGRESS, i);
            phv.set(egressPort, cfg.dataPort());
            pass.run(phv, 0, Gress.EGRESS, i);
            sum += phv.get(passPipeline.lossEstimate);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engine() {
        long base = sw.engine().now() + 1;
        long spanCycles = sw.engine().clock().nsToCycles(spanNs);
        sw.startProbes(base, PROBE_CYCLES, spanCycles / PROBE_CYCLES);
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            sw.engine().arrive(base + sw.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
        }
        sw.engine().drain();
        return sw.engine().counters().packetsOut();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long engineHeldOn() {
        long base = swHeldOn.engine().now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            swHeldOn.engine().arrive(base + swHeldOn.engine().clock().nsToCycles(r.timestampNs()), r.ingressPort(), r);
        }
        swHeldOn.engine().drain();
        return swHeldOn.engine().counters().packetsOut();
    }

    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long reference() {
        long sum = 0;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            ref.ingress(r, idx, u);
            sum += ref.egress(idx, u);
        }
        return sum;
    }
}

package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.PackedRecords;

/**
 * A generated trace held in memory, so benchmarks measure the engine and not
 * the generator, and the single-switch replay loop the engine benchmarks share.
 */
final class InMemoryTrace {
    /** Benchmarks' generator seed. */
    static final long SEED = 7;
    /** Line rate the in-memory trace is replayed at. */
    static final String TIMING = "rate:100G";
    /** Ports the trace's ingress ports are folded into (tofino1's 64). */
    static final int PORTS = 64;

    private InMemoryTrace() {
    }

    /** The first {@code packets} records of the ISP-like generator with {@code flows} flows. */
    static PackedRecords isp(int packets, int flows) {
        return load(TraceSpec.open("gen:isp?packets=" + packets + "&flows=" + flows + "&seed=" + SEED
                + "&dist=zipf&gbps=100&load=0.5"), packets);
    }

    /**
     * The first {@code packets} records of {@code source} (closed), each with its frame: a record
     * the source gives without bytes gets the frame its fields describe, cut after the headers
     * and the payload word ({@link FrameSynthesizer#MAX_MIN_FRAME} bytes, a header capture's snap
     * length), so the switch parses real bytes and the engine is not timed synthesising them.
     */
    static PackedRecords load(PacketSource source, int packets) {
        PackedRecords trace = new PackedRecords(packets);
        PacketRecord r = PacketRecord.allocate(FrameSynthesizer.MAX_MIN_FRAME);
        try (source) {
            while (trace.size() < packets && source.next(r)) {
                FrameSynthesizer.attachFrame(r);
                trace.add(r);
            }
        }
        return trace;
    }

    /** Replays the trace through one switch at 100 Gb/s after everything it already did; returns packets out. */
    static long replay(SwitchEngine engine, PackedRecords trace, int packets, PacketRecord view) {
        ArrivalTiming timing = ArrivalTiming.parse(TIMING, engine.clock());
        long base = engine.now() + 1;
        for (int i = 0; i < packets; i++) {
            PacketRecord r = trace.get(i, view);
            engine.arrive(base + timing.next(r.timestampNs(), r.wireLength()), r.ingressPort() % PORTS, r);
        }
        engine.drain();
        return engine.counters().packetsOut();
    }

    /**
     * The parser and ingress pass alone over the trace, as the engine runs them: each packet
     * parsed fresh into {@code phv} (its frame by the program's parse graph) and run through {@code pass} in the pipe
     * {@code pipeOfPort[ingressPort % PORTS]}. No arrival, traffic manager or egress.
     */
    static void ingressPasses(PackedRecords trace, int packets, PacketRecord view, HeaderParser parser,
                              FrameParser frames, Phv phv, PassExecutor pass, int[] pipeOfPort) {
        for (int i = 0; i < packets; i++) {
            PacketRecord r = trace.get(i, view);
            parser.fresh(phv);
            if (frames.parse(r.buffer().byteArray(), r.offset() + PacketRecord.FRAME_OFFSET, r.capturedLength(),
                    r.wireLength(), phv.values())) {
                pass.run(phv, pipeOfPort[r.ingressPort() % PORTS], Gress.INGRESS, i);
            }
        }
    }
}

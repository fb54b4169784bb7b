package dev.rmtemu.programs.lds.experiment;

import dev.rmtemu.programs.lds.control.LdsCollector;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsIntervals;
import dev.rmtemu.programs.lds.program.LdsPipeline;
import dev.rmtemu.programs.lds.program.LdsRole;

import dev.rmtemu.emulator.engine.FrameParser;
import dev.rmtemu.emulator.engine.HeaderParser;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.runtime.PassExecutor;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;

/**
 * The LDS stage program's two ends as the emulator runs them, for the experiment: the
 * sender is the ingress pass and the receiver the egress pass of the compiled program (the
 * generated class the engine runs, every run-time rule enforced), fed packet by packet
 * with the times the experiment's delay model gives, the interval id carried from sender to
 * receiver in the LDS shim ({@code LdsHeader}) the sender's deparser adds to the frame and the
 * receiver's parser reads. The program is compiled for tofino1 when the compiler accepts
 * it there, else for {@code unconstrained} (a C that is not a power of two, or larger than a
 * tofino1 stage holds); {@link #target()} says which. One interval of 2^{@value #SHIFT} ns
 * holds the whole trace, and the sketches are read back from both banks.
 * Nothing is allocated per packet.
 */
public final class LdsEmulatedPair {
    /** The longest interval: every trace the experiment makes lies within one. */
    static final int SHIFT = LdsIntervals.MAX_SHIFT;
    /** Candidate targets, the first that accepts the program runs it. */
    static final String[] TARGETS = {"tofino1", "unconstrained"};

    private final LdsConfig cfg;
    private final String target;
    private final PipelineState state;
    private final PassExecutor exec;
    private final HeaderParser parser;
    /** The sender's deparser, and the packet as it leaves the sender (its frame with the shim). */
    private final FrameParser frames;
    private final PacketRecord wire = PacketRecord.allocate(PacketRecord.DEFAULT_FRAME_CAPACITY);
    private final Phv phv;
    private final Field txTs;
    private final Field rxTs;
    private long packet;

    public LdsEmulatedPair(LdsConfig cfg) {
        this(cfg, new LdsIntervals(SHIFT), firstAccepting(cfg), Backend.COMPILED);
    }

    /**
     * The pair with {@code intervals}, compiled for {@code target} (refused: an
     * IllegalArgumentException with the compiler's lines) and run on {@code backend}.
     */
    public LdsEmulatedPair(LdsConfig cfg, LdsIntervals intervals, String target, Backend backend) {
        this.cfg = cfg;
        LdsPipeline pipeline = new LdsPipeline(cfg, LdsRole.BOTH, 0, 1, 0, intervals);
        Compilation c = ProgramCompiler.compile(pipeline.program, TargetProfiles.builtIn(target));
        if (!c.accepted()) {
            throw new IllegalArgumentException("lds refused by " + target + ": " + c.lines());
        }
        this.target = target;
        this.state = new PipelineState(pipeline.program, 1);
        this.exec = new PassExecutor(state, true, backend);
        this.parser = new HeaderParser(pipeline.program);
        this.frames = new FrameParser(pipeline.program, PacketRecord.DEFAULT_FRAME_CAPACITY);
        this.phv = new Phv(pipeline.program.fields().size());
        this.txTs = pipeline.program.intrinsic(Intrinsic.INGRESS_MAC_TSTAMP);
        this.rxTs = pipeline.program.intrinsic(Intrinsic.EGRESS_GLOBAL_TSTAMP);
    }

    /** The first of {@link #TARGETS} whose compiler accepts the program of {@code cfg}. */
    private static String firstAccepting(LdsConfig cfg) {
        LdsPipeline pipeline = new LdsPipeline(cfg, LdsRole.BOTH, 0, 1, 0, new LdsIntervals(SHIFT));
        for (String name : TARGETS) {
            if (ProgramCompiler.compile(pipeline.program, TargetProfiles.builtIn(name)).accepted()) {
                return name;
            }
        }
        throw new IllegalStateException("lds: no built-in target accepts " + cfg);
    }

    /** The registers of the switch's one pipe. */
    public PipelineState state() {
        return state;
    }

    /** The built-in target the program was compiled for. */
    public String target() {
        return target;
    }

    /**
     * One packet: the sender's ingress pass at {@code sendNs}, then (unless lost between the
     * two points) the receiver's egress pass at {@code receiveNs}.
     */
    public void packet(PacketRecord r, long sendNs, boolean lost, long receiveNs) {
        PacketRecord sent = send(r, sendNs);
        if (!lost) {
            receive(sent, receiveNs);
        }
    }

    /**
     * The sender's ingress pass at {@code ns}; returns the packet as the sender's deparser
     * emits it (the LDS shim with the interval id after Ethernet), valid until the next send.
     */
    public PacketRecord send(PacketRecord r, long ns) {
        wire.copyFrom(r);
        FrameSynthesizer.attachFrame(wire);
        phv.clear();
        parser.parse(wire, phv);
        phv.load(txTs, ns);
        exec.run(phv, 0, Gress.INGRESS, packet++);
        int caplen = wire.capturedLength();
        int n = frames.deparse(wire.buffer().byteArray(), wire.offset() + PacketRecord.FRAME_OFFSET, caplen,
                wire.wireLength(), phv.values());
        if (n >= 0) {
            wire.wireLength(wire.wireLength() + n - caplen);
            wire.putFrame(frames.deparsed(), 0, n);
        }
        return wire;
    }

    /** The receiver's egress pass at {@code ns} of a packet as it arrived ({@link #send}'s result, its interval id in the shim). */
    public void receive(PacketRecord onWire, long ns) {
        phv.clear();
        parser.parse(onWire, phv);
        phv.load(rxTs, ns);
        exec.run(phv, 0, Gress.EGRESS, packet++);
    }

    public LdsSketch senderSketch() {
        return LdsCollector.read(state, 0, cfg, true);
    }

    public LdsSketch receiverSketch() {
        return LdsCollector.read(state, 0, cfg, false);
    }
}

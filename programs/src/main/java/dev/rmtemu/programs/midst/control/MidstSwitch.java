package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstHeaders;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.traces.PacketRecord;

import java.util.List;

/**
 * One switch running MIDST with its collector on the wire: the engine, the pipeline's
 * field handles, and helpers for the control plane (force monitoring on, start the probe
 * generators). With one pipe ({@link MidstConfig#pipes()} = 1) the monitored port, the
 * collector port and the input ports share a pipe. With P pipes the input ports are in pipes
 * 0..P-1, pipe j's monitored port is {@link MidstConfig#dataPort(int)}, and every sketch row
 * is cut into P · Q partitions so that S_in (ingress pipe i, cell (j, q, h)) and S_out (egress
 * pipe j, cell (i, q, h)) subtract exactly the same packet stream; each ingress pipe runs its
 * own probe generator.
 */
public final class MidstSwitch {
    /** Probe frames are minimum-size Ethernet frames. */
    public static final int PROBE_BYTES = 64;
    /** Source address of generated probes (documentation range 192.0.2.0/24, never a data flow). */
    public static final int PROBE_SRC = 0xC0000201;

    private final MidstPipeline pipeline;
    private final SwitchEngine engine;
    private final MidstCollector collector;
    private final int pipe;
    private final MidstConfig cfg;
    private DepartureListener extra;

    /**
     * @param queueLimitCells tail-drop limit of the monitored port's queue (makes a congested port)
     */
    public MidstSwitch(MidstConfig cfg, TargetProfile profile, double portGbps, int queueLimitCells) {
        this(cfg, profile, portGbps, queueLimitCells, Backend.COMPILED);
    }

    /** The same switch whose stage code runs on {@code backend} (the interpreter is the reference). */
    public MidstSwitch(MidstConfig cfg, TargetProfile profile, double portGbps, int queueLimitCells, Backend backend) {
        this.cfg = cfg;
        checkFits(cfg, profile);
        this.pipeline = new MidstPipeline(cfg);
        PortConfig strict = PortConfig.strictPriority(portGbps);
        // each monitored queue has the limit; the port holds all of them (one queue: today's single limit)
        PortConfig port = new PortConfig(strict.rateBitsPerSecond(), Math.max(strict.queues(), cfg.queues()), strict.scheduler(),
                List.of(), queueLimitCells, queueLimitCells * cfg.queues());
        this.engine = new SwitchEngine(new SwitchConfig(profile, pipeline.program, SwitchConfig.defaultPorts(profile), port, true)
                .withBackend(backend));
        this.collector = new MidstCollector(pipeline);
        this.pipe = engine.config().pipeOf(cfg.dataPort());
        if (cfg.pipes() == 1 && engine.config().pipeOf(cfg.collectorPort()) != pipe) {
            throw new UserError("midst: collector port " + cfg.collectorPort() + " is not in the pipe of port "
                    + cfg.dataPort());
        }
        engine.onDeparture((c, p, s, pool) -> {
            collector.departed(c, p, s, pool);
            if (extra != null) {
                extra.departed(c, p, s, pool);
            }
        });
    }

    public MidstPipeline pipeline() {
        return pipeline;
    }

    public SwitchEngine engine() {
        return engine;
    }

    public MidstCollector collector() {
        return collector;
    }

    /** The pipe holding both sketches. */
    public int pipe() {
        return pipe;
    }

    /** Also tells {@code l} of every departure (after the collector). */
    public void onDeparture(DepartureListener l) {
        this.extra = l;
    }

    /**
     * The partitioned layout needs what the target has: P pipes, the ports per pipe the data
     * plane shifts by, and the monitored ports of pipes 1..P-1 (exit 2 otherwise).
     */
    static void checkFits(MidstConfig cfg, TargetProfile profile) {
        if (cfg.pipes() == 1) {
            return;
        }
        if (cfg.pipes() > profile.pipes()) {
            throw new UserError("midst: pipes=" + cfg.pipes() + " but target " + profile.name() + " has " + profile.pipes()
                    + " pipe(s)");
        }
        if (profile.portsPerPipe() != cfg.portsPerPipe()) {
            throw new UserError("midst: ports_per_pipe=" + cfg.portsPerPipe() + " but target " + profile.name() + " has "
                    + (profile.portsPerPipe() == TargetProfile.UNLIMITED ? "unlimited" : String.valueOf(profile.portsPerPipe()))
                    + " ports per pipe");
        }
    }

    /** Control plane: monitoring on from now, without probes (what a fixed-monitoring deployment does), for every queue. */
    public void monitorAlways() {
        for (int i = 0; i < cfg.pipes(); i++) {
            for (int part = 0; part < cfg.partitions(); part++) {
                engine.state().writeRegister(cfg.pipes() == 1 ? pipe : i, MidstPipeline.MONITOR, part, 1, 0);
            }
        }
    }

    /**
     * Starts the probe generators: a probe every {@code periodCycles} from {@code startCycle}; count 0 = while
     * traffic runs. With one partition the generator of the MIDST pipe sends today's probe; with P · Q
     * partitions every ingress pipe 0..P-1 has a generator whose probes ask about queue (j, q) in turn
     * (the probe's destination address names it, as Tofino's packet generator numbers its packets).
     */
    public void startProbes(long startCycle, long periodCycles, long count) {
        if (cfg.partitions() == 1) {
            engine.packetGenerator(pipe, startCycle, periodCycles, count, MidstSwitch::probeTemplate);
            return;
        }
        // one frame per partition, made now: the generator copies them (nothing is allocated per probe)
        PacketRecord[] frames = new PacketRecord[cfg.partitions()];
        for (int part = 0; part < frames.length; part++) {
            frames[part] = probeFrame(PROBE_TARGET_BASE | part);
        }
        for (int i = 0; i < cfg.pipes(); i++) {
            int[] next = {0};
            engine.packetGenerator(cfg.pipes() == 1 ? pipe : i, startCycle, periodCycles, count, r -> {
                copyFrame(frames[next[0]], r);
                next[0] = (next[0] + 1) % frames.length;
            });
        }
    }

    /** Probe destinations: 192.0.2.0 + the partition (j, q) the probe asks about. */
    public static final int PROBE_TARGET_BASE = 0xC0000200;

    /**
     * What the packet generator sends: a minimum-size frame from the probe address, Ethernet, a
     * fresh MIDST probe header (kind {@link MidstPipeline#KIND_NONE}), IPv4 and UDP. Tofino's
     * generator sends the packet its buffer holds, so the probe header is there from the start
     * and the frame keeps its {@value #PROBE_BYTES} bytes.
     */
    public static void probeTemplate(PacketRecord r) {
        copyFrame(PROBE_FRAME, r);
    }

    private static final PacketRecord PROBE_FRAME = probeFrame(PROBE_SRC);

    /** A probe's frame to {@code dst}: {@value #PROBE_BYTES} bytes with the probe header. */
    static PacketRecord probeFrame(int dst) {
        PacketRecord r = PacketRecord.allocate();
        r.wireLength(PROBE_BYTES - MidstHeaders.PROBE_HEADER_BYTES).ipVersion(4).protocol(PacketRecord.PROTO_UDP)
                .srcIpv4(PROBE_SRC).dstIpv4(dst);
        MidstHeaders.pushProbe(r);
        return r;
    }

    /** The generator's record becomes {@code frame}, keeping the timestamp the generator gave it. */
    private static void copyFrame(PacketRecord frame, PacketRecord r) {
        long ts = r.timestampNs();
        r.copyFrom(frame).timestampNs(ts);
    }

    /** Ingress clean pointer (words of each row cleaned in this off period, W when done). */
    public long ingressCleanPointer() {
        return engine.state().readRegister(pipe, MidstPipeline.IN_CLEAN, 0);
    }

    public long egressCleanPointer() {
        return engine.state().readRegister(pipe, MidstPipeline.OUT_CLEAN, 0);
    }

    public boolean monitoring() {
        return engine.state().readRegister(pipe, MidstPipeline.MONITOR, 0) != 0;
    }

    /** Whether ingress pipe {@code i} monitors the traffic to queue {@code q} of egress pipe {@code j}. */
    public boolean monitoring(int i, int j, int q) {
        return engine.state().readRegister(i, MidstPipeline.MONITOR, j * cfg.queues() + q) != 0;
    }

    /** Ingress pipe {@code i}'s clean pointer of S_in partition (j, q). */
    public long ingressCleanPointer(int i, int j, int q) {
        return engine.state().readRegister(i, MidstPipeline.IN_CLEAN, j * cfg.queues() + q);
    }

    /** Egress pipe {@code j}'s clean pointer of S_out partition (i, q). */
    public long egressCleanPointer(int j, int i, int q) {
        return engine.state().readRegister(j, MidstPipeline.OUT_CLEAN, i * cfg.queues() + q);
    }

    /** A destination address whose packets go to queue {@code q} of egress pipe {@code j}: {@code base} with those low bits. */
    public static int destination(MidstConfig cfg, int base, int j, int q) {
        return (base & ~(cfg.partitions() - 1)) | (j * cfg.queues() + q);
    }
}

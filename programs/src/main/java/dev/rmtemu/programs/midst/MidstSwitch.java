package dev.rmtemu.programs.midst;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;

/**
 * One switch running MIDST with its collector on the wire: the engine, the pipeline's
 * field handles, and helpers for the control plane (force monitoring on, start the probe
 * generator). The monitored port, the collector port and the input ports must share a
 * pipe: S_in lives in the ingress pipe of the input port and S_out in the egress pipe of
 * the monitored port, and MIDST subtracts sketches of the same pipe.
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
    private DepartureListener extra;

    /**
     * @param queueLimitCells tail-drop limit of the monitored port's queue (makes a congested port)
     */
    public MidstSwitch(MidstConfig cfg, TargetProfile profile, double portGbps, int queueLimitCells) {
        this.pipeline = new MidstPipeline(cfg);
        PortConfig port = PortConfig.strictPriority(portGbps).withLimits(queueLimitCells, queueLimitCells);
        this.engine = new SwitchEngine(new SwitchConfig(profile, pipeline.program, SwitchConfig.defaultPorts(profile), port, true));
        this.collector = new MidstCollector(pipeline);
        this.pipe = engine.config().pipeOf(cfg.dataPort());
        if (engine.config().pipeOf(cfg.collectorPort()) != pipe) {
            throw new dev.rmtemu.model.UserError("midst: collector port " + cfg.collectorPort() + " is not in the pipe of port "
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

    /** Control plane: monitoring on from now, without probes (what a fixed-monitoring deployment does). */
    public void monitorAlways() {
        engine.state().writeRegister(pipe, MidstPipeline.MONITOR, 0, 1, 0);
    }

    /** Starts the probe generator: a probe every {@code periodCycles} from {@code startCycle}; count 0 = while traffic runs. */
    public void startProbes(long startCycle, long periodCycles, long count) {
        engine.packetGenerator(pipe, startCycle, periodCycles, count, MidstSwitch::probeTemplate);
    }

    /** What the packet generator sends: a minimum-size UDP frame from the probe address. */
    public static void probeTemplate(PacketRecord r) {
        r.wireLength(PROBE_BYTES).ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4(PROBE_SRC).dstIpv4(PROBE_SRC);
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
}

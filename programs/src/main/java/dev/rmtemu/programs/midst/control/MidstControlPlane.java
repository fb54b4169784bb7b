package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstParams;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.program.MidstProgram;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.model.UserError;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * MIDST's control plane in {@code rmtemu replay --program midst} (and on every switch running
 * {@code midst} in a {@code --topology} replay): what the
 * experiments set up in code ({@link MidstSwitch}). The packet generator of the monitored
 * port's pipe sends a probe every {@code probe_ns} from cycle 0, so egress's queue depth
 * reaches ingress and reactive monitoring starts at h and stops (and cleans) below l; a
 * {@link MidstCollector} on the wire keeps the per-packet reports and the monitoring
 * events, written to the run's export journal after the drain, with the monitored port's
 * departures per flow as ground truth for the report ({@link DepartureTally}).
 *
 * <p>The probes stop when the trace is over: the monitoring state at the last arrival holds
 * through the drain (the queue's tail is still counted) and no cleaning erases the last
 * epoch before the end-of-run S_loss query reads the sketches. A {@code --control} script
 * that holds monitoring on ({@code register_write midst_monitor 0 1}) overrides: no probes
 * run (a returning probe would turn monitoring off below l), the collector still reports.
 *
 * <p>Only the monitored port's pipe gets probes: a probe reads the depth that egress
 * recorded in its own pipe, and only the data port's egress pipe records one, so packets
 * arriving on ports of other pipes are never counted (MIDST subtracts sketches of one
 * pipe; {@link MidstReport} says how many arrived elsewhere).
 */
public final class MidstControlPlane implements ProgramControlPlane {
    /** Journal kind saying how the run was monitored: probe period in ns (8 B, 0 = no probes), pipe (4 B), held (1 B). */
    static final String KIND_PROBES = "midst.probes";
    static final int PROBES_PAYLOAD_BYTES = 13;

    @Override
    public String program() {
        return MidstProgram.NAME;
    }

    @Override
    public void registerKinds(JournalKinds kinds) {
        MidstCollector.registerKinds(kinds);
        kinds.register(DepartureTally.KIND);
        kinds.register(KIND_PROBES);
    }

    /** True when some pipe's monitor flag is already on before any packet (a control script holds it). */
    static boolean held(SwitchEngine engine) {
        for (int pipe = 0; pipe < engine.config().profile().pipes(); pipe++) {
            if (engine.state().readRegister(pipe, MidstPipeline.MONITOR, 0) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
        return setUp(engine, MidstParams.of(engine.state().program()), journal, 0, "");
    }

    /**
     * A network replay: the same on every switch running {@code midst} (its reports and
     * events carry the switch's ordinal as switch id); the collector and the departure
     * tally see each departure before the network forwards it.
     */
    @Override
    public Session startNetwork(NetworkEngine net, ReplayOptions options, ExportJournal journal) {
        List<Session> sessions = new ArrayList<>();
        for (int s = 0; s < net.switchCount(); s++) {
            if (!MidstProgram.NAME.equals(net.switchProgram(s))) {
                continue;
            }
            sessions.add(setUp(net.switchEngine(s), MidstParams.of(net.switchEngine(s).state().program()), journal, s,
                    "switch " + net.switchNode(s).name() + ": "));
        }
        return Session.all(sessions);
    }

    @Override
    public void check(SwitchEngine engine, ReplayOptions options) {
        checkSwitch(engine, MidstParams.of(engine.state().program()), "");
    }

    @Override
    public void checkNetwork(NetworkEngine net, ReplayOptions options) {
        for (int s = 0; s < net.switchCount(); s++) {
            if (MidstProgram.NAME.equals(net.switchProgram(s))) {
                checkSwitch(net.switchEngine(s), MidstParams.of(net.switchEngine(s).state().program()),
                        "switch " + net.switchNode(s).name() + ": ");
            }
        }
    }

    /** What the replay's MIDST set-up needs of a switch; returns the pipe holding both sketches. */
    private static int checkSwitch(SwitchEngine engine, MidstParams p, String where) {
        MidstConfig cfg = p.config();
        int ports = engine.config().frontPanelPorts();
        if (cfg.dataPort() >= ports || cfg.collectorPort() >= ports) {
            throw new UserError("midst: " + where + "port=" + cfg.dataPort() + " and collector=" + cfg.collectorPort()
                    + " must be front-panel ports below " + ports);
        }
        if (cfg.partitions() > 1) {
            // the replay report queries one pipe's unpartitioned sketches; the partitioned layout runs in the experiment
            throw new UserError("midst: " + where + "replay runs pipes=1 queues=1; pipes=" + cfg.pipes() + " queues="
                    + cfg.queues() + " run in `rmtemu experiment midst --opt part=e`");
        }
        int pipe = engine.config().pipeOf(cfg.dataPort());
        if (engine.config().pipeOf(cfg.collectorPort()) != pipe) {
            throw new UserError("midst: " + where + "collector port " + cfg.collectorPort() + " is not in the pipe of port "
                    + cfg.dataPort());
        }
        return pipe;
    }

    private static Session setUp(SwitchEngine engine, MidstParams p, ExportJournal journal, int switchId, String where) {
        int pipe = checkSwitch(engine, p, where);
        // same parameters, same declaration order: the handles address the engine's PHV slots
        MidstPipeline pipeline = new MidstPipeline(p.config());
        MidstCollector collector = new MidstCollector(pipeline);
        DepartureTally tally = new DepartureTally(pipeline);
        DepartureListener next = engine.departureListener();
        engine.onDeparture((c, port, slot, pool) -> {
            collector.departed(c, port, slot, pool);
            tally.departed(port, slot, pool);
            next.departed(c, port, slot, pool);
        });
        long probeNs = p.probeNs();
        boolean held = held(engine);
        int generator = -1;
        if (probeNs > 0 && !held) {
            generator = engine.packetGenerator(pipe, 0, Math.max(1, engine.clock().nsToCycles(probeNs)), 0,
                    MidstSwitch::probeTemplate);
        }
        if (journal != null) {
            UnsafeBuffer buf = new UnsafeBuffer(new byte[PROBES_PAYLOAD_BYTES]);
            buf.putLong(0, generator >= 0 ? probeNs : 0);
            buf.putInt(8, pipe);
            buf.putByte(12, (byte) (held ? 1 : 0));
            journal.append(journal.kinds().id(KIND_PROBES), 0, switchId, pipe, buf, 0, PROBES_PAYLOAD_BYTES);
        }
        final int probes = generator;
        return new Session() {
            @Override
            public void inputDone(long lastArrivalCycle) {
                if (probes >= 0) {
                    engine.stopPacketGenerator(probes);
                }
            }

            @Override
            public void finish(long cycle) {
                if (journal != null) {
                    collector.writeTo(journal, cycle, switchId);
                    tally.writeTo(journal, cycle, switchId);
                }
            }
        };
    }
}

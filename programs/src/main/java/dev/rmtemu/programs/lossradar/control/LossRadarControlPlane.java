package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarParams;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;

import java.util.Arrays;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.topology.Endpoint;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;

/**
 * LossRadar's control plane in {@code rmtemu replay --topology ... --program lossradar}:
 * on every switch running {@code lossradar} it installs the {@code route=1} ECMP table
 * from the topology's routing ({@link LossRadarFatTree#installRoutes}) and polls the
 * meters {@link LossRadarLine#TICKS_PER_BATCH} times per batch, at fixed cycles, closing
 * batches into the run's export journal ({@link LossRadarExport}); when the trace is
 * over the polls stop and, after the drain, every open batch is flushed.
 * {@link LossRadarReport} decodes the journal after the run.
 */
public final class LossRadarControlPlane implements ProgramControlPlane {
    static final String PROGRAM = LossRadarProgram.programName(LossRadarProgram.Role.BOTH);

    @Override
    public String program() {
        return PROGRAM;
    }

    @Override
    public void registerKinds(JournalKinds kinds) {
        LossRadarExport.registerKinds(kinds);
    }

    /** The configuration switch {@code s}'s {@code lossradar} program was built with. */
    static LossRadarConfig config(StageProgram p) {
        return LossRadarParams.of(p).config();
    }

    static boolean routes(StageProgram p) {
        return LossRadarParams.of(p).route();
    }

    /** Ordinals of the switches running {@code lossradar}, in ordinal order. */
    static List<Integer> meteredSwitches(NetworkEngine net) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < net.switchCount(); s++) {
            if (PROGRAM.equals(net.switchProgram(s))) {
                out.add(s);
            }
        }
        return out;
    }

    /** A monitored link direction: the collector's pairing and the link's id and direction. */
    record Monitored(LossRadarCollector.MeterLink meters, int linkId, int direction) {
    }

    /**
     * Every link direction between two switches running {@code lossradar}, in link then
     * direction order: the UM at the sender's egress port, the DM at the receiver's ingress port.
     */
    static List<Monitored> monitoredLinks(NetworkEngine net) {
        Topology t = net.topology();
        int[] ordinal = new int[t.nodes().size()];
        Arrays.fill(ordinal, -1);
        for (int s : meteredSwitches(net)) {
            ordinal[net.switchNode(s).index()] = s;
        }
        List<Monitored> out = new ArrayList<>();
        for (Link l : t.links()) {
            for (int dir = 0; dir < (l.bidirectional() ? 2 : 1); dir++) {
                Endpoint from = dir == 0 ? l.a() : l.b();
                Endpoint to = dir == 0 ? l.b() : l.a();
                if (ordinal[from.node()] < 0 || ordinal[to.node()] < 0) {
                    continue;
                }
                out.add(new Monitored(new LossRadarCollector.MeterLink(from.name() + ":" + from.port() + "->" + to.name() + ":" + to.port(),
                        ordinal[from.node()], from.port() - 1, ordinal[to.node()], to.port() - 1), l.id(), dir));
            }
        }
        return out;
    }

    @Override
    public Session startNetwork(NetworkEngine net, ReplayOptions options, ExportJournal journal) {
        List<Poller> pollers = new ArrayList<>();
        for (int s : meteredSwitches(net)) {
            SwitchEngine sw = net.switchEngine(s);
            Node node = net.switchNode(s);
            LossRadarConfig c = config(sw.state().program());
            if (node.ports() > c.ports()) {
                throw new UserError("lossradar: switch " + node.name() + " has " + node.ports() + " ports but the meters cover ports="
                        + c.ports() + " (pass --param ports=" + node.ports() + ")");
            }
            if (routes(sw.state().program())) {
                LossRadarFatTree.installRoutes(net, s);
            }
            if (journal != null) {
                Poller p = new Poller(sw, new LossRadarExport(sw, c, LossRadarProgram.Role.BOTH, journal, s),
                        sw.clock().nsToCycles(Math.max(1, c.batchNs() / LossRadarLine.TICKS_PER_BATCH)));
                p.schedule(p.period);
                pollers.add(p);
            }
        }
        return new Session() {
            @Override
            public void inputDone(long lastArrivalCycle) {
                for (Poller p : pollers) {
                    p.inputDone = true;
                }
            }

            @Override
            public void finish(long cycle) {
                for (Poller p : pollers) {
                    p.export.flush(p.sw.state(), cycle);
                }
            }
        };
    }

    /** One switch's periodic batch closing: each poll schedules the next until the trace is over. */
    private static final class Poller {
        final SwitchEngine sw;
        final LossRadarExport export;
        final long period;
        boolean inputDone;

        Poller(SwitchEngine sw, LossRadarExport export, long period) {
            this.sw = sw;
            this.export = export;
            this.period = Math.max(1, period);
        }

        void schedule(long cycle) {
            sw.scheduleControl(cycle, (state, at) -> {
                export.tick(state, at);
                if (!inputDone) {
                    schedule(at + period);
                }
            });
        }
    }
}

package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;

import dev.rmtemu.emulator.topology.BuiltinTopologies;
import dev.rmtemu.model.UserError;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Routing;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.traces.PacketRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LossRadar deployed on every switch of a k-ary fat tree (the layout of
 * {@code builtin:fattree}: Al-Fares et al.), each switch running {@code lossradar}
 * (DM on every ingress port, UM on every egress port) with its own routing table
 * ({@code route=1}: the control plane installs the topology's ECMP groups, so the UM
 * knows the egress port in ingress). Fabric links are slower than host links, so
 * incast congests switch-to-switch queues, and they drop randomly as well. The
 * collector pairs every switch-to-switch link direction's UM and DM.
 */
public final class LossRadarFatTree {
    /** Results of one run. */
    public record Result(long injected, long lost, long decoded, int batches, int batchesComplete) {
    }

    private final int k;
    private final double fabricGbps;
    private final double hostGbps;
    private final double fabricLoss;

    public LossRadarFatTree(int k, double fabricGbps, double hostGbps, double fabricLoss) {
        this.k = k;
        this.fabricGbps = fabricGbps;
        this.hostGbps = hostGbps;
        this.fabricLoss = fabricLoss;
    }

    /** The fat tree with every switch running {@code lossradar} under {@code params}. */
    Topology topology(Map<String, String> params) {
        int half = k / 2;
        KeyValues p = KeyValues.of(params);
        TopologyBuilder b = new TopologyBuilder("lossradar:fattree?k=" + k);
        String target = "tofino1";
        String program = LossRadarProgram.programName(LossRadarProgram.Role.BOTH);
        for (int i = 0; i < half * half; i++) {
            b.programmableSwitch("core" + i, target, k, program, p);
        }
        for (int pod = 0; pod < k; pod++) {
            for (int j = 0; j < half; j++) {
                b.programmableSwitch("agg" + pod + "_" + j, target, k, program, p);
            }
            for (int i = 0; i < half; i++) {
                b.programmableSwitch("edge" + pod + "_" + i, target, k, program, p);
            }
        }
        KeyValues lossy = fabricLoss > 0 ? KeyValues.of(Map.of("loss", "bernoulli:" + fabricLoss)) : KeyValues.EMPTY;
        long latency = BuiltinTopologies.DC_LINK_LATENCY_NS;
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                for (int x = 0; x < half; x++) {
                    String h = "h" + pod + "_" + i + "_" + x;
                    b.host(h, new Ipv4Prefix((10 << 24) | (pod << 16) | (i << 8) | (x + 2), 32), HostRole.BOTH);
                    b.link(h, Node.HOST_PORT, "edge" + pod + "_" + i, x + 1, true, latency, hostGbps, KeyValues.EMPTY, KeyValues.EMPTY);
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                for (int j = 0; j < half; j++) {
                    b.link("edge" + pod + "_" + i, half + 1 + j, "agg" + pod + "_" + j, i + 1, true, latency, fabricGbps, lossy, lossy);
                }
            }
            for (int j = 0; j < half; j++) {
                for (int c = 0; c < half; c++) {
                    b.link("agg" + pod + "_" + j, half + 1 + c, "core" + (j * half + c), pod + 1, true, latency, fabricGbps, lossy, lossy);
                }
            }
        }
        return b.build();
    }

    /**
     * The control plane's routing for switch {@code ordinal} ({@code route=1}): the
     * {@link LossRadarProgram#ROUTE_TABLE} entries of every destination host, spreading
     * the topology's ECMP group (engine ports) over the select bits.
     */
    static void installRoutes(NetworkEngine net, int ordinal) {
        Topology t = net.topology();
        Routing routing = net.routing();
        SwitchEngine sw = net.switchEngine(ordinal);
        int node = net.switchNode(ordinal).index();
        for (int d = 0; d < routing.destinationCount(); d++) {
            int[] group = routing.group(node, d);
            if (group.length == 0) {
                continue;
            }
            if (group.length > LossRadarProgram.ROUTE_MAX_MEMBERS) {
                throw new UserError("lossradar: switch " + net.switchNode(ordinal).name() + " has an ECMP group of "
                        + group.length + " ports; lr_route holds at most " + LossRadarProgram.ROUTE_MAX_MEMBERS);
            }
            int[] ports = new int[group.length];
            for (int i = 0; i < group.length; i++) {
                ports[i] = group[i] - 1;
            }
            Node host = t.node(routing.destinationHost(d));
            LossRadarProgram.installRoute(sw.state(), host.address().address(), host.address().length(), ports);
        }
    }

    /** Runs {@code trace} (timestamps from 0) with digests of {@code cfg}; the journal goes to {@code runDir}. */
    public Result run(LossRadarConfig cfg, RecordBuffer trace, long seed, Path runDir) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("hashes", Integer.toString(cfg.hashes()));
        params.put("cells", Integer.toString(cfg.cells()));
        params.put("ports", Integer.toString(k));
        params.put("batch_shift", Integer.toString(cfg.batchShift()));
        params.put("timeout_us", Long.toString(cfg.timeoutNs() / 1000));
        params.put("route", "1");
        Topology t = topology(params);
        NetworkEngine net = NetworkEngine.build(t, NetworkOptions.of(seed), ProgramPlugins.registry());
        LossRadarConfig c = cfg.withPorts(k);
        int switches = net.switchCount();
        for (int s = 0; s < switches; s++) {
            installRoutes(net, s);
        }
        JournalKinds kinds = new JournalKinds();
        LossRadarExport.registerKinds(kinds);
        long lastNs = trace.size() == 0 ? 0 : trace.get(trace.size() - 1).timestampNs();
        long untilNs = lastNs + 3 * c.batchNs() + c.timeoutNs();
        long tickNs = Math.max(1, c.batchNs() / LossRadarLine.TICKS_PER_BATCH);
        try (ExportJournal journal = ExportJournal.create(runDir, kinds)) {
            List<LossRadarExport> exports = new ArrayList<>();
            for (int s = 0; s < switches; s++) {
                LossRadarExport e = new LossRadarExport(net.switchEngine(s), c, LossRadarProgram.Role.BOTH, journal, s);
                e.scheduleTicks(tickNs, untilNs);
                exports.add(e);
            }
            for (int i = 0; i < trace.size(); i++) {
                PacketRecord r = trace.get(i);
                net.inject(net.clock().nsToCycles(r.timestampNs()), r);
            }
            net.drain();
            for (int s = 0; s < switches; s++) {
                SwitchEngine sw = net.switchEngine(s);
                exports.get(s).flush(sw.state(), sw.clock().nsToCycles(untilNs) + 1);
            }
        }
        // every switch-to-switch link direction: UM at the sender's egress port, DM at the receiver's ingress port
        List<LossRadarCollector.MeterLink> links = new ArrayList<>();
        long lost = 0;
        int[] ordinal = new int[t.nodes().size()];
        for (int s = 0; s < switches; s++) {
            ordinal[net.switchNode(s).index()] = s;
        }
        for (Link l : t.links()) {
            if (!t.node(l.a().node()).isSwitch() || !t.node(l.b().node()).isSwitch()) {
                continue;
            }
            for (int dir = 0; dir < 2; dir++) {
                var from = dir == 0 ? l.a() : l.b();
                var to = dir == 0 ? l.b() : l.a();
                int us = ordinal[from.node()];
                links.add(new LossRadarCollector.MeterLink(from.name() + ":" + from.port() + "->" + to.name() + ":" + to.port(),
                        us, from.port() - 1, ordinal[to.node()], to.port() - 1));
                lost += net.lost(l.id(), dir);
                for (DropCause cause : DropCause.values()) {
                    lost += net.switchEngine(us).trafficManager().droppedPackets(from.port() - 1, cause);
                }
            }
        }
        List<LossRadarCollector.BatchReport> reports = new LossRadarCollector(links).decode(LossRadarCollector.read(runDir.resolve("journal")));
        int complete = 0;
        for (LossRadarCollector.BatchReport r : reports) {
            complete += r.result().complete() ? 1 : 0;
        }
        return new Result(trace.size(), lost, LossRadarCollector.lost(reports).size(), reports.size(), complete);
    }
}

package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;

import dev.rmtemu.emulator.network.HostMap;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.FlowPath;
import dev.rmtemu.emulator.topology.Routing;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.emulator.topology.Neighborhood;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * What WBMon's control plane installs on a topology's m-switches (every
 * programmable switch): on the upstream of vconn id (position in
 * {@link VConns#vconns}) an outgoing-port entry port → id; on its downstream an
 * incoming-port entry; on every m-switch the tables of constants (own bit, popcount). The same entries are
 * installed in-process ({@link #install}) or written as a {@code --control} script
 * for {@code rmtemu replay --topology T --program wbmon} ({@link #script}).
 *
 * <p>The upstream numbers a vconn by its egress port where one vconn starts there. Where
 * regular switches split a port's traffic over several vconns (ECMP inside a neighbourhood)
 * the port is marked ECMP and each flow needs a flow-table entry naming its vconn
 * ({@link #withFlows}); packets of flows not listed leave unnumbered. Hosts must hang off m-switches:
 * packets an m-switch numbers on a vconn towards a host behind a regular switch
 * would leave the vconn and be counted as drops by its downstream.
 */
public final class WbmonControlPlane {
    /** One exact-match entry; {@code port} and keys are engine (0-based) port numbers. */
    public record Entry(String switchName, String table, List<Long> keys, int action, long data) {
        public Entry {
            keys = List.copyOf(keys);
        }

        /** The action's name in control scripts: the vconn numbering action, or the port tables' flag actions. */
        public String actionName() {
            if (action == WbmonPipeline.ACTION_ECMP) {
                return WbmonPipeline.ECMP;
            }
            return table.equals(WbmonPipeline.PORTS_IN) ? WbmonPipeline.TRACK : WbmonPipeline.SET_VCONN;
        }

        Entry(String switchName, String table, long key, int action, long data) {
            this(switchName, table, List.of(key), action, data);
        }
    }

    private final Topology topology;
    private final WbmonConfig config;
    private final List<VConn> vconns;
    private final List<Entry> entries;
    /** Ports (node << 32 | topology port) where several vconns start: their flows need flow-table entries. */
    private final TreeMap<Long, Integer> ecmpPorts;

    private WbmonControlPlane(Topology topology, WbmonConfig config, List<VConn> vconns, List<Entry> entries,
                              TreeMap<Long, Integer> ecmpPorts) {
        this.topology = topology;
        this.config = config;
        this.vconns = vconns;
        this.entries = entries;
        this.ecmpPorts = ecmpPorts;
    }

    /** The entries for {@code t}; refuses topologies WBMon cannot number (one clear line). */
    public static WbmonControlPlane of(Topology t, WbmonConfig c) {
        List<VConn> vc = VConns.vconns(t);
        if (vc.isEmpty()) {
            throw new UserError(t.source() + ": no vconns (WBMon needs two programmable switches with only regular ones between)");
        }
        if (vc.size() > c.vconns()) {
            throw new UserError(t.source() + ": " + vc.size() + " vconns but wbmon tracks " + c.vconns() + " (raise vconns)");
        }
        for (Neighborhood h : VConns.neighborhoods(t)) {
            if (!h.hosts().isEmpty() && !h.programmable().isEmpty()) {
                throw new UserError(t.source() + ": host " + t.node(h.hosts().get(0)).name()
                        + " is linked to a regular switch: packets numbered on a vconn towards it would leave the vconn"
                        + " and count as drops (hosts must hang off m-switches)");
            }
        }
        TreeMap<Long, Integer> startedAt = new TreeMap<>(); // port → vconns starting there
        for (VConn v : vc) {
            startedAt.merge(((long) v.from() << 32) | v.fromPort(), 1, Integer::sum);
        }
        // the own-bit and popcount tables are const entries of the program: nothing to install
        List<Entry> out = new ArrayList<>();
        TreeMap<Long, Boolean> inPorts = new TreeMap<>();
        TreeMap<Long, Integer> ecmp = new TreeMap<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            long start = ((long) v.from() << 32) | v.fromPort();
            if (startedAt.get(start) == 1) {
                out.add(new Entry(t.node(v.from()).name(), WbmonPipeline.PORTS_OUT, v.fromPort() - 1, WbmonPipeline.ACTION_VALID, id));
            } else if (ecmp.putIfAbsent(start, startedAt.get(start)) == null) {
                out.add(new Entry(t.node(v.from()).name(), WbmonPipeline.PORTS_OUT, v.fromPort() - 1, WbmonPipeline.ACTION_ECMP, 0));
            }
            if (inPorts.putIfAbsent(((long) v.to() << 32) | v.toPort(), Boolean.TRUE) == null) {
                out.add(new Entry(t.node(v.to()).name(), WbmonPipeline.PORTS_IN, v.toPort() - 1, WbmonPipeline.ACTION_VALID, 0));
            }
        }
        return new WbmonControlPlane(t, c, vc, List.copyOf(out), ecmp);
    }

    /** True when regular switches split some port's traffic over several vconns (flows must be listed: {@link #withFlows}). */
    public boolean hasEcmpPorts() {
        return !ecmpPorts.isEmpty();
    }

    /**
     * The entries plus, for every flow of {@code records} that leaves an m-switch on a port
     * where several vconns start, a flow-table entry (port, fingerprint of its 5-tuple) → the
     * vconn its path takes. The path is the one the network forwards it on: hosts and addresses
     * as the network assigns them ({@link HostMap}), ECMP members by its flow hash
     * ({@link FlowKey#hash}), as the controller knows the forwarding rules. Refused: more flows on
     * one m-switch than its flow table holds, or two flows with one fingerprint on one port that
     * take different vconns.
     */
    public WbmonControlPlane withFlows(Iterable<PacketRecord> records) {
        if (ecmpPorts.isEmpty()) {
            return this;
        }
        HostMap hosts = new HostMap(topology);
        Routing routing = Routing.of(topology);
        WbmonPipeline pipeline = new WbmonPipeline(config);
        TreeMap<String, Integer> ids = new TreeMap<>();
        for (int id = 0; id < vconns.size(); id++) {
            ids.put(key(vconns.get(id)), id);
        }
        TreeMap<String, Entry> flows = new TreeMap<>(); // switch, port, fingerprint → entry
        TreeMap<String, Integer> perSwitch = new TreeMap<>();
        PacketRecord r = PacketRecord.allocate();
        for (PacketRecord given : records) {
            r.copyFrom(given);
            int src = hosts.assign(r);
            int d = routing.lookup(r.dstIpv4());
            if (d < 0) {
                continue;
            }
            FlowPath path = routing.path(src, routing.destinationHost(d), FlowKey.hash(r));
            if (path == null) {
                continue;
            }
            long fp = pipeline.fingerprint(r.srcIpv4(), r.dstIpv4(), r.protocol(), r.srcPort(), r.dstPort());
            for (VConn v : VConns.segments(topology, path)) {
                if (!ecmpPorts.containsKey(((long) v.from() << 32) | v.fromPort())) {
                    continue;
                }
                Integer id = ids.get(key(v));
                String sw = topology.node(v.from()).name();
                Entry e = new Entry(sw, WbmonPipeline.FLOWS_OUT, List.of((long) v.fromPort() - 1, fp), WbmonPipeline.ACTION_VALID, id);
                Entry before = flows.putIfAbsent(sw + "\t" + v.fromPort() + "\t" + fp, e);
                if (before == null) {
                    if (perSwitch.merge(sw, 1, Integer::sum) > WbmonPipeline.ECMP_FLOW_ENTRIES) {
                        throw new UserError(topology.source() + ": more than " + WbmonPipeline.ECMP_FLOW_ENTRIES
                                + " flows leave " + sw + " on ports where regular switches split the traffic (its flow table is full)");
                    }
                } else if (before.data() != id) {
                    throw new UserError(topology.source() + ": two flows leaving " + sw + ":" + v.fromPort() + " on vconns "
                            + before.data() + " and " + id + " share the fingerprint " + fp + " (a CRC-32 collision)");
                }
            }
        }
        List<Entry> all = new ArrayList<>(entries);
        all.addAll(flows.values());
        return new WbmonControlPlane(topology, config, vconns, List.copyOf(all), ecmpPorts);
    }

    private static String key(VConn v) {
        return v.from() + ":" + v.fromPort() + ":" + v.links();
    }

    public List<VConn> vconns() {
        return vconns;
    }

    public List<Entry> entries() {
        return entries;
    }

    /** Installs every entry on the network's switches (which run {@code wbmon}). */
    public void install(NetworkEngine net) {
        for (Entry e : entries) {
            long[] keys = new long[e.keys().size()];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = e.keys().get(i);
            }
            net.switchEngine(e.switchName()).state().addExact(e.table(), keys, e.action(), e.data());
        }
    }

    /** The entries as a {@code replay --control} script: one {@code on SWITCH table ...} line each, vconns listed first. */
    public String script(Topology t, WbmonConfig c) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "# wbmon control plane for %s: vconns=%d registers=%d bits=%d tolerance=%d%n",
                t.source(), c.vconns(), c.registers(), c.bitsPerRegister(), c.tolerance()));
        b.append("# replay with --program wbmon and the same --param values\n");
        for (int id = 0; id < vconns.size(); id++) {
            b.append("# vconn ").append(id).append(": ").append(describe(t, vconns.get(id))).append('\n');
        }
        for (Entry e : entries) {
            b.append("on ").append(e.switchName()).append(" table_add ").append(e.table()).append(' ').append(e.actionName());
            for (long k : e.keys()) {
                b.append(' ').append(k);
            }
            b.append(" =>");
            if (e.actionName().equals(WbmonPipeline.SET_VCONN)) {
                b.append(' ').append(e.data());
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** {@code m1:3 -> m2:2 via r1,r2} (topology ports, 1-based). */
    public static String describe(Topology t, VConn v) {
        StringBuilder b = new StringBuilder();
        b.append(t.node(v.from()).name()).append(':').append(v.fromPort()).append(" -> ")
                .append(t.node(v.to()).name()).append(':').append(v.toPort());
        List<String> via = new ArrayList<>();
        for (int n : v.nodes()) {
            if (n != v.from() && n != v.to()) {
                via.add(t.node(n).name());
            }
        }
        if (!via.isEmpty()) {
            b.append(" via ").append(String.join(",", via));
        }
        return b.toString();
    }
}

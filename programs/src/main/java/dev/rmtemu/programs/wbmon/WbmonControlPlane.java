package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.Neighborhood;
import dev.rmtemu.emulator.topology.Node;
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
 * <p>The upstream numbers a vconn by its egress port, so a port must start one
 * vconn: topologies whose regular switches split a port's traffic over several
 * paths (ECMP inside a neighbourhood) are refused. Hosts must hang off m-switches:
 * packets an m-switch numbers on a vconn towards a host behind a regular switch
 * would leave the vconn and be counted as drops by its downstream.
 */
public final class WbmonControlPlane {
    /** One exact-match entry; {@code port} and keys are engine (0-based) port numbers. */
    public record Entry(String switchName, String table, long key, int action, long data) {
    }

    private final List<VConn> vconns;
    private final List<Entry> entries;

    private WbmonControlPlane(List<VConn> vconns, List<Entry> entries) {
        this.vconns = vconns;
        this.entries = entries;
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
        TreeMap<Long, Integer> startedAt = new TreeMap<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            Integer other = startedAt.putIfAbsent(((long) v.from() << 32) | v.fromPort(), id);
            if (other != null) {
                throw new UserError(t.source() + ": port " + t.node(v.from()).name() + ":" + v.fromPort()
                        + " starts vconns " + other + " and " + id + " (regular switches split its traffic);"
                        + " wbmon numbers one vconn per egress port");
            }
        }
        List<Entry> out = new ArrayList<>();
        for (Node n : t.nodes()) {
            if (n.isProgrammable()) {
                for (WbmonPipeline.ConstantEntry e : WbmonPipeline.constantEntries(c)) {
                    out.add(new Entry(n.name(), e.table(), e.key(), e.action(), e.data()));
                }
            }
        }
        TreeMap<Long, Boolean> inPorts = new TreeMap<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            out.add(new Entry(t.node(v.from()).name(), WbmonPipeline.PORTS_OUT, v.fromPort() - 1, WbmonPipeline.ACTION_VALID, id));
            if (inPorts.putIfAbsent(((long) v.to() << 32) | v.toPort(), Boolean.TRUE) == null) {
                out.add(new Entry(t.node(v.to()).name(), WbmonPipeline.PORTS_IN, v.toPort() - 1, WbmonPipeline.ACTION_VALID, 0));
            }
        }
        return new WbmonControlPlane(vc, List.copyOf(out));
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
            net.switchEngine(e.switchName()).state().addExact(e.table(), new long[] {e.key()}, e.action(), e.data());
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
            b.append("on ").append(e.switchName()).append(" table ").append(e.table()).append(" exact ").append(e.key())
                    .append(" action=").append(e.action()).append(" data=").append(e.data()).append('\n');
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

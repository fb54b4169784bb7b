package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Neighborhood;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.model.UserError;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * WBMon on a network: every programmable switch of the topology is an m-switch
 * running {@code wbmon}; vconn ids are positions in {@link VConns#vconns}; the
 * control plane installs the port tables (which egress port starts which vconn,
 * which ingress ports receive the WBMon header) and the popcount tables.
 *
 * <p>The upstream numbers a vconn by its egress port, so a port must start one
 * vconn: topologies whose regular switches split a port's traffic over several
 * paths (ECMP inside a neighbourhood) are refused here; the localisation
 * experiment runs those with the plain-Java reference. Hosts must hang off m-switches:
 * a host behind a regular switch would send packets into an m-switch's vconn port
 * without a WBMon header.
 */
public final class WbmonDeployment {
    private final NetworkEngine network;
    private final List<VConn> vconns;
    private final WbmonPipeline pipeline;

    private WbmonDeployment(NetworkEngine network, List<VConn> vconns, WbmonPipeline pipeline) {
        this.network = network;
        this.vconns = vconns;
        this.pipeline = pipeline;
    }

    /** Builds the network with {@code wbmon} on every programmable switch and installs the control plane. */
    public static WbmonDeployment build(Topology t, WbmonConfig c, long seed, boolean enforce) {
        List<VConn> vc = VConns.vconns(t);
        if (vc.size() > c.vconns()) {
            throw new UserError(t.source() + ": " + vc.size() + " vconns but wbmon tracks " + c.vconns() + " (raise vconns)");
        }
        for (Neighborhood h : VConns.neighborhoods(t)) {
            if (!h.hosts().isEmpty() && !h.programmable().isEmpty()) {
                throw new UserError(t.source() + ": host " + t.node(h.hosts().get(0)).name()
                        + " is linked to a regular switch: its packets would reach an m-switch without a WBMon header");
            }
        }
        Map<String, String> params = new TreeMap<>();
        params.put("vconns", String.valueOf(c.vconns()));
        params.put("registers", String.valueOf(c.registers()));
        params.put("bits", String.valueOf(c.bitsPerRegister()));
        params.put("tolerance", String.valueOf(c.tolerance()));
        TreeMap<Long, Integer> startedAt = new TreeMap<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            long key = ((long) v.from() << 32) | v.fromPort();
            Integer other = startedAt.putIfAbsent(key, id);
            if (other != null) {
                throw new UserError(t.source() + ": port " + t.node(v.from()).name() + ":" + v.fromPort()
                        + " starts vconns " + other + " and " + id + " (regular switches split its traffic);"
                        + " wbmon numbers one vconn per egress port");
            }
        }
        NetworkEngine net = NetworkEngine.build(t, new NetworkOptions(WbmonProgram.NAME, params, enforce, seed));
        WbmonPipeline pipeline = new WbmonPipeline(c);
        for (int s = 0; s < net.switchCount(); s++) {
            if (net.switchNode(s).isProgrammable()) {
                pipeline.installPopcount(net.switchEngine(s).state());
            }
        }
        TreeMap<Long, Boolean> inPorts = new TreeMap<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            SwitchEngine up = net.switchEngine(t.node(v.from()).name());
            WbmonPipeline.addOutgoingPort(up.state(), v.fromPort() - 1, id);
            if (inPorts.putIfAbsent(((long) v.to() << 32) | v.toPort(), Boolean.TRUE) == null) {
                WbmonPipeline.addIncomingPort(net.switchEngine(t.node(v.to()).name()).state(), v.toPort() - 1);
            }
        }
        return new WbmonDeployment(net, vc, pipeline);
    }

    public NetworkEngine network() {
        return network;
    }

    public List<VConn> vconns() {
        return vconns;
    }

    public WbmonPipeline pipeline() {
        return pipeline;
    }

    /** The downstream m-switch's engine of vconn {@code id}. */
    public SwitchEngine downstream(int id) {
        return network.switchEngine(network.topology().node(vconns.get(id).to()).name());
    }

    /** The upstream m-switch's engine of vconn {@code id}. */
    public SwitchEngine upstream(int id) {
        return network.switchEngine(network.topology().node(vconns.get(id).from()).name());
    }

    /** A register cell of vconn {@code id} summed over the switch's pipes (each pipe keeps its own copy). */
    public static long readAllPipes(SwitchEngine e, String array, int id) {
        long sum = 0;
        for (int p = 0; p < e.state().pipes(); p++) {
            sum += e.state().readRegister(p, array, id);
        }
        return sum;
    }
}

package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.programs.wbmon.program.WbmonProgram;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.traces.PacketRecord;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * WBMon on a network: every programmable switch of the topology is an m-switch
 * running {@code wbmon}; vconn ids are positions in {@link VConns#vconns}; the
 * control plane ({@link WbmonControlPlane}, which also says which topologies are
 * refused) installs the port tables and the tables of constants.
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
        return build(t, c, seed, enforce, List.of());
    }

    /**
     * As {@link #build(Topology, WbmonConfig, long, boolean)}, with flow-table entries for the flows of
     * {@code flows} that leave an m-switch where regular switches split the traffic (ECMP).
     */
    public static WbmonDeployment build(Topology t, WbmonConfig c, long seed, boolean enforce, Iterable<PacketRecord> flows) {
        WbmonControlPlane control = WbmonControlPlane.of(t, c).withFlows(flows);
        NetworkEngine net = NetworkEngine.build(t, new NetworkOptions(WbmonProgram.NAME, programParams(c), enforce, seed), ProgramPlugins.registry());
        control.install(net);
        return new WbmonDeployment(net, control.vconns(), new WbmonPipeline(c));
    }

    /** The {@code wbmon} program parameters of a configuration. */
    public static Map<String, String> programParams(WbmonConfig c) {
        Map<String, String> params = new TreeMap<>();
        params.put("vconns", String.valueOf(c.vconns()));
        params.put("registers", String.valueOf(c.registers()));
        params.put("bits", String.valueOf(c.bitsPerRegister()));
        params.put("tolerance", String.valueOf(c.tolerance()));
        return params;
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
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.tm.TrafficManagerConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.TablePlacer;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;

/**
 * One switch: a target, the program it runs, how many front-panel ports it has
 * and how they are configured, and whether the hardware rules are enforced.
 *
 * @param frontPanelPorts ports 0..N-1; port p belongs to pipe p / portsPerPipe
 * @param port            rate, queues, scheduler and limits of every front-panel port
 * @param enforce         check one access per register array per pass and the other per-packet rules
 * @param portRatesBps    per-port line rates in bit/s overriding {@code port}'s rate (one per
 *                        front-panel port; empty = every port at {@code port}'s rate). Topology
 *                        switches use it so that each port runs at its link's rate.
 * @param backend         how IR stage code runs: the generated class (default) or the interpreter
 */
public record SwitchConfig(TargetProfile profile, StageProgram program, int frontPanelPorts, PortConfig port, boolean enforce,
                           List<Long> portRatesBps, Backend backend) {
    /** Ports when the profile does not bound them (unconstrained). */
    public static final int DEFAULT_PORTS_WHEN_UNBOUNDED = 64;

    public SwitchConfig {
        backend = backend == null ? Backend.COMPILED : backend;
        // a program whose gresses are controls runs as the compiler places it for this target
        program = TablePlacer.placeIfNeeded(program, profile);
        int max = maxFrontPanelPorts(profile);
        if (frontPanelPorts < 1 || frontPanelPorts > max) {
            throw new UserError("switch: " + frontPanelPorts + " front-panel ports, " + profile.name() + " has 1.." + max);
        }
        portRatesBps = portRatesBps == null ? List.of() : List.copyOf(portRatesBps);
        if (!portRatesBps.isEmpty() && portRatesBps.size() != frontPanelPorts) {
            throw new UserError("switch: " + portRatesBps.size() + " port rates for " + frontPanelPorts + " front-panel ports");
        }
    }

    /** Every front-panel port configured as {@code port}. */
    public SwitchConfig(TargetProfile profile, StageProgram program, int frontPanelPorts, PortConfig port, boolean enforce) {
        this(profile, program, frontPanelPorts, port, enforce, List.of());
    }

    /** Stage code on the compiled back end. */
    public SwitchConfig(TargetProfile profile, StageProgram program, int frontPanelPorts, PortConfig port, boolean enforce,
                        List<Long> portRatesBps) {
        this(profile, program, frontPanelPorts, port, enforce, portRatesBps, Backend.COMPILED);
    }

    /** The same switch with IR stage code run by {@code b}. */
    public SwitchConfig withBackend(Backend b) {
        return new SwitchConfig(profile, program, frontPanelPorts, port, enforce, portRatesBps, b);
    }

    /** The configuration of front-panel port {@code p}: {@code port}, at its own rate if one is set. */
    public PortConfig portConfig(int p) {
        if (portRatesBps.isEmpty() || portRatesBps.get(p) == port.rateBitsPerSecond()) {
            return port;
        }
        return new PortConfig(portRatesBps.get(p), port.queues(), port.scheduler(), port.drrQuantumBytes(),
                port.queueLimitCells(), port.portLimitCells());
    }

    /** Default: every port of the target, at the given rate, strict priority. */
    public static SwitchConfig of(TargetProfile profile, StageProgram program, double portGbps) {
        return new SwitchConfig(profile, program, defaultPorts(profile), PortConfig.strictPriority(portGbps), true);
    }

    public static int defaultPorts(TargetProfile p) {
        return p.portsPerPipe() == TargetProfile.UNLIMITED ? DEFAULT_PORTS_WHEN_UNBOUNDED : p.portsPerPipe() * p.pipes();
    }

    private static int maxFrontPanelPorts(TargetProfile p) {
        long max = p.portsPerPipe() == TargetProfile.UNLIMITED ? PortNumbers.RECIRCULATION_BASE
                : (long) p.portsPerPipe() * p.pipes();
        return (int) Math.min(max, PortNumbers.RECIRCULATION_BASE);
    }

    public int pipes() {
        return profile.pipes();
    }

    public int pipeOf(int frontPanelPort) {
        return profile.portsPerPipe() == TargetProfile.UNLIMITED ? 0 : frontPanelPort / profile.portsPerPipe();
    }

    /** Traffic-manager ports: the front panel, then one recirculation port per pipe at the profile's rate. */
    public TrafficManagerConfig trafficManager() {
        List<PortConfig> ports = new ArrayList<>();
        for (int i = 0; i < frontPanelPorts; i++) {
            ports.add(portConfig(i));
        }
        PortConfig recirc = new PortConfig(PortConfig.gbps(profile.recirculationGbps()), port.queues(), port.scheduler(),
                port.drrQuantumBytes(), port.queueLimitCells(), port.portLimitCells());
        for (int p = 0; p < pipes(); p++) {
            ports.add(recirc);
        }
        long cells = Math.min(Integer.MAX_VALUE, profile.tmBufferBytes() / profile.tmCellBytes());
        return new TrafficManagerConfig(profile.clockHz(), profile.tmCellBytes(),
                TrafficManagerConfig.ETHERNET_OVERHEAD_BYTES, (int) cells, ports);
    }
}

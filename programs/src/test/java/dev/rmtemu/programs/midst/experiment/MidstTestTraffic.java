package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;

import dev.rmtemu.model.target.TargetProfiles;

/** Shared set-up: a tofino1 MIDST switch fed from {@link MidstTraffic} on ports 3..8 of pipe 0. */
public final class MidstTestTraffic {
    static final int[] INPUTS = {3, 4, 5, 6, 7, 8};
    static final double GBPS = 10;
    static final int PACKET_BYTES = 1000;

    private MidstTestTraffic() {
    }

    public static MidstSwitch newSwitch(MidstConfig cfg, int queueLimitCells) {
        return new MidstSwitch(cfg, TargetProfiles.builtIn("tofino1"), GBPS, queueLimitCells);
    }

    public static MidstTraffic.Spec spec(int flows, double overload, int perBurst, int bursts, long intervalNs, long seed) {
        return new MidstTraffic.Spec(flows, 1.0, PACKET_BYTES, GBPS, overload, perBurst, bursts, intervalNs, INPUTS, seed);
    }
}

package dev.rmtemu.programs.lossradar.program;

/**
 * One exported digest: which meter (switch, role, port) and batch it covers.
 *
 * @param switchId the switch of the meter
 * @param role     {@link #UM} or {@link #DM}
 * @param port     egress port (UM) or ingress port (DM)
 * @param batch    batch ID (wraps at 2^{@link LossRadarConfig#BATCH_BITS})
 * @param meter    black-box mode: the upstream meter ID a DM digest covers (a UM: its own ID); otherwise 0
 */
public record MeterDigest(int switchId, int role, int port, long batch, IbfDigest digest, int meter) {
    public MeterDigest(int switchId, int role, int port, long batch, IbfDigest digest) {
        this(switchId, role, port, batch, digest, 0);
    }

    public static final int UM = 0;
    public static final int DM = 1;

    public static String roleName(int role) {
        return role == UM ? "UM" : "DM";
    }
}

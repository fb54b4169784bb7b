package dev.rmtemu.programs.lossradar;

/**
 * One exported digest: which meter (switch, role, port) and batch it covers.
 *
 * @param switchId the switch of the meter
 * @param role     {@link #UM} or {@link #DM}
 * @param port     egress port (UM) or ingress port (DM)
 * @param batch    batch ID (wraps at 2^{@link LossRadarConfig#BATCH_BITS})
 */
public record MeterDigest(int switchId, int role, int port, long batch, IbfDigest digest) {
    public static final int UM = 0;
    public static final int DM = 1;

    public static String roleName(int role) {
        return role == UM ? "UM" : "DM";
    }
}

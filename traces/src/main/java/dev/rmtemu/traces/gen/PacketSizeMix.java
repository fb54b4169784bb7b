package dev.rmtemu.traces.gen;

import dev.rmtemu.model.UserError;

/**
 * Wire sizes of generated packets: {@code imix} (simple IMIX, 7:4:1 of 64/576/1500 B),
 * {@code fixed:N}, or {@code mean:N} (bimodal 64/1500 B with the 1500-B share chosen
 * so the mean is N, the shape of data-centre size distributions).
 */
public record PacketSizeMix(String spec, int[] sizes, double[] cumulative) {
    /** Smallest and largest Ethernet frame of the simple IMIX and the bimodal mix. */
    public static final int MIN_FRAME = 64;
    public static final int MTU_FRAME = 1500;
    public static final int IMIX_MEDIUM = 576;
    /** IMIX weights 7:4:1 (small:medium:large), the classic simple IMIX. */
    private static final double[] IMIX_WEIGHTS = {7, 4, 1};

    public static PacketSizeMix parse(String spec) {
        String s = spec.trim();
        try {
            if (s.equals("imix")) {
                double total = IMIX_WEIGHTS[0] + IMIX_WEIGHTS[1] + IMIX_WEIGHTS[2];
                return new PacketSizeMix(s, new int[] {MIN_FRAME, IMIX_MEDIUM, MTU_FRAME},
                        new double[] {IMIX_WEIGHTS[0] / total, (IMIX_WEIGHTS[0] + IMIX_WEIGHTS[1]) / total, 1.0});
            }
            if (s.startsWith("fixed:")) {
                int n = Integer.parseInt(s.substring(6));
                if (n < MIN_FRAME || n > 65_535) {
                    throw new UserError("packet size mix '" + spec + "': size must be in [" + MIN_FRAME + ", 65535]");
                }
                return new PacketSizeMix(s, new int[] {n}, new double[] {1.0});
            }
            if (s.startsWith("mean:")) {
                int n = Integer.parseInt(s.substring(5));
                if (n < MIN_FRAME || n > MTU_FRAME) {
                    throw new UserError("packet size mix '" + spec + "': mean must be in [" + MIN_FRAME + ", "
                            + MTU_FRAME + "]");
                }
                double large = (double) (n - MIN_FRAME) / (MTU_FRAME - MIN_FRAME);
                return new PacketSizeMix(s, new int[] {MIN_FRAME, MTU_FRAME}, new double[] {1.0 - large, 1.0});
            }
        } catch (NumberFormatException e) {
            throw new UserError("packet size mix '" + spec + "': not a number after the colon");
        }
        throw new UserError("unknown packet size mix '" + spec + "'; valid: imix, fixed:N, mean:N");
    }

    /** Draws a size with one uniform number in [0, 1). */
    public int draw(double u) {
        for (int i = 0; i < sizes.length - 1; i++) {
            if (u < cumulative[i]) {
                return sizes[i];
            }
        }
        return sizes[sizes.length - 1];
    }

    /** The mix's mean size in bytes. */
    public double mean() {
        double m = 0;
        double prev = 0;
        for (int i = 0; i < sizes.length; i++) {
            m += sizes[i] * (cumulative[i] - prev);
            prev = cumulative[i];
        }
        return m;
    }

    @Override
    public String toString() {
        return spec;
    }
}

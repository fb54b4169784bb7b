package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * The cells of one low-pass filter (TNA's {@code Lpf<T, I>} / {@code DirectLpf<T>}) in one pipe,
 * each computed from its defining equation in emulated time (nanoseconds of the engine's clock).
 * The parameters are bf-runtime's LPF spec fields ({@code $LPF_SPEC_TYPE},
 * {@code $LPF_SPEC_GAIN_TIME_CONSTANT_NS}, {@code $LPF_SPEC_DECAY_TIME_CONSTANT_NS},
 * {@code $LPF_SPEC_OUT_SCALE_DOWN_FACTOR}), whose meaning the SDE documents as follows (quoted in
 * users' bfrt scripts; the bf-runtime data field list of open-p4studio names the four fields). A
 * sample x arrives at time T[i]; dt = T[i] - T[i-1] since the cell's previous sample:
 * <ul>
 * <li>SAMPLE, an EWMA of x(t): {@code y[i] = y[i-1] + alpha * (x[i] - y[i-1])} with
 *     {@code alpha = 1 - e^(-dt / tau)}, tau the gain time constant when the signal rises
 *     ({@code x[i] > y[i-1]}) and the decay time constant otherwise.</li>
 * <li>RATE, an integrator that "approximates the sum of the values of x(t) over the time
 *     constant": {@code y[i] = y[i-1] * e^(-dt / tau_gain) + x[i]} (a steady x every d ns
 *     settles at x / (1 - e^(-d / tau)), about x * tau / d: the sum over tau). The decay time
 *     constant is not used.</li>
 * </ul>
 * The output is {@code floor(y[i]) >> N} (the scale-down factor N divides by 2^N), at most T's
 * largest value. A time constant of 0 makes alpha 1 (SAMPLE follows x) and the decay 0 (RATE
 * is x). The first sample after the parameters are set starts the cell at {@code y = x}; a cell
 * whose parameters were never set passes x through. Tofino's LPF unit computes the same
 * equations in fixed point; rmtemu uses doubles and {@link StrictMath#exp}, so every run and
 * machine gives the same bits.
 */
public final class LpfCells {
    /** The largest scale-down factor (bf-runtime takes 0..31). */
    public static final int MAX_SCALE_DOWN = 31;

    private final Meter lpf;
    private final long maxOut;
    private final boolean[] rate;
    private final double[] gainNs;
    private final double[] decayNs;
    private final int[] scaleDown;
    private final double[] y;
    private final long[] lastNs;
    private final boolean[] started;
    private final boolean[] set;

    public LpfCells(Meter lpf) {
        int n = lpf.cells();
        this.lpf = lpf;
        this.maxOut = lpf.maxOutput();
        rate = new boolean[n];
        gainNs = new double[n];
        decayNs = new double[n];
        scaleDown = new int[n];
        y = new double[n];
        lastNs = new long[n];
        started = new boolean[n];
        set = new boolean[n];
    }

    /** Sets a cell's spec and restarts it (its next sample starts the filter). */
    public void setParams(int index, LpfType type, double gainTimeConstantNs, double decayTimeConstantNs, int outScaleDown) {
        checkParams(lpf, index, gainTimeConstantNs, decayTimeConstantNs, outScaleDown);
        rate[index] = type == LpfType.RATE;
        gainNs[index] = gainTimeConstantNs;
        decayNs[index] = decayTimeConstantNs;
        scaleDown[index] = outScaleDown;
        y[index] = 0;
        started[index] = false;
        set[index] = true;
    }

    /** Refuses a spec the filter cannot have (the check {@link #setParams} makes), naming the cell. */
    public static void checkParams(Meter lpf, int index, double gainNs, double decayNs, int outScaleDown) {
        String where = "lpf " + lpf.name() + "[" + index + "]";
        if (!(gainNs >= 0) || !(decayNs >= 0) || Double.isInfinite(gainNs) || Double.isInfinite(decayNs)) {
            throw new UserError(where + ": time constants must be finite and not negative");
        }
        if (outScaleDown < 0 || outScaleDown > MAX_SCALE_DOWN) {
            throw new UserError(where + ": scale-down factor " + outScaleDown + " outside 0.." + MAX_SCALE_DOWN);
        }
    }

    public boolean configured(int index) {
        return set[index];
    }

    /** Filters sample {@code x} of cell {@code i} at {@code nowNs}; returns the output. */
    public long execute(int i, long x, long nowNs) {
        if (!set[i]) {
            return Math.min(x, maxOut);
        }
        double v = x;
        if (!started[i]) {
            started[i] = true;
            y[i] = v;
        } else {
            double dt = Math.max(0, nowNs - lastNs[i]);
            if (rate[i]) {
                y[i] = y[i] * decay(dt, gainNs[i]) + v;
            } else {
                double tau = v > y[i] ? gainNs[i] : decayNs[i];
                y[i] += (1 - decay(dt, tau)) * (v - y[i]);
            }
        }
        lastNs[i] = nowNs;
        long whole = y[i] >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.floor(y[i]);
        return Math.min(whole >> scaleDown[i], maxOut);
    }

    /** e^(-dt / tau); 0 for a time constant of 0. */
    private static double decay(double dt, double tau) {
        return tau == 0 ? 0 : StrictMath.exp(-dt / tau);
    }

    /** Forgets every cell's spec and state. */
    public void reset() {
        Arrays.fill(set, false);
        Arrays.fill(started, false);
        Arrays.fill(y, 0);
    }
}

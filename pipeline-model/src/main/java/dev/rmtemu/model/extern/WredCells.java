package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * The cells of one WRED (TNA's {@code Wred<T, I>} / {@code DirectWred<T>}) in one pipe: random
 * early detection as Floyd and Jacobson define it ("Random Early Detection Gateways for
 * Congestion Avoidance", IEEE/ACM ToN 1(4), 1993, section 4), on the value the program gives
 * (typically a queue depth in cells), with bf-runtime's WRED spec fields
 * ({@code $WRED_SPEC_TIME_CONSTANT_NS}, {@code $WRED_SPEC_MIN_THRESH_CELLS},
 * {@code $WRED_SPEC_MAX_THRESH_CELLS}, {@code $WRED_SPEC_MAX_PROBABILITY}):
 * <ul>
 * <li>the average: {@code avg = avg + w * (q - avg)}, the paper's EWMA, with the weight taken
 *     from the time since the cell's previous sample, {@code w = 1 - e^(-dt / tau)} (so an idle
 *     period decays the average, the paper's {@code m = f(time - q_time)}); the first sample
 *     after the spec is set starts {@code avg = q}; tau = 0 makes avg = q;</li>
 * <li>{@code avg < min}: no drop, {@code count = -1}; {@code avg >= max}: drop, {@code count = 0};</li>
 * <li>otherwise {@code count += 1}, {@code pb = maxp * (avg - min) / (max - min)},
 *     {@code pa = pb / (1 - count * pb)} (1 once {@code count * pb >= 1}); one uniform draw u
 *     in [0, 1) from the cells' generator, drop when {@code u < pa} (then {@code count = 0}).</li>
 * </ul>
 * A drop returns the WRED's {@code drop_value}, otherwise {@code no_drop_value}; a cell whose spec
 * was never set never drops. The generator is SplitMix64 (Steele, Lea and Flood, OOPSLA 2014)
 * seeded with {@link #SEED} plus the extern's id, one per extern, pipe and gress, drawn once
 * per decision between the thresholds, in packet order; {@code u} is its top 53 bits times
 * 2^-53. Same program and trace, same drops.
 */
public final class WredCells {
    /** The generator's seed before the extern's id is added ("WRED" in ASCII). */
    public static final long SEED = 0x57524544L;

    private final Meter wred;
    private final double[] tauNs;
    private final long[] minCells;
    private final long[] maxCells;
    private final double[] maxP;
    private final double[] avg;
    private final long[] count;
    private final long[] lastNs;
    private final boolean[] started;
    private final boolean[] set;
    private long state;

    public WredCells(Meter wred) {
        int n = wred.cells();
        this.wred = wred;
        tauNs = new double[n];
        minCells = new long[n];
        maxCells = new long[n];
        maxP = new double[n];
        avg = new double[n];
        count = new long[n];
        lastNs = new long[n];
        started = new boolean[n];
        set = new boolean[n];
        state = SEED + wred.id();
    }

    /** Sets a cell's spec and restarts it (average from its next sample, count -1). */
    public void setParams(int index, double timeConstantNs, long minThreshCells, long maxThreshCells, double maxProbability) {
        checkParams(wred, index, timeConstantNs, minThreshCells, maxThreshCells, maxProbability);
        tauNs[index] = timeConstantNs;
        minCells[index] = minThreshCells;
        maxCells[index] = maxThreshCells;
        maxP[index] = maxProbability;
        avg[index] = 0;
        count[index] = -1;
        started[index] = false;
        set[index] = true;
    }

    /** Refuses a spec RED cannot have (the check {@link #setParams} makes), naming the cell. */
    public static void checkParams(Meter wred, int index, double timeConstantNs, long minCells, long maxCells, double maxP) {
        String where = "wred " + wred.name() + "[" + index + "]";
        if (!(timeConstantNs >= 0) || Double.isInfinite(timeConstantNs)) {
            throw new UserError(where + ": the time constant must be finite and not negative");
        }
        if (minCells < 0 || maxCells < minCells) {
            throw new UserError(where + ": thresholds must satisfy 0 <= min <= max, got min " + minCells + ", max " + maxCells);
        }
        if (!(maxP >= 0 && maxP <= 1)) {
            throw new UserError(where + ": the max probability must be in 0..1, got " + maxP);
        }
    }

    public boolean configured(int index) {
        return set[index];
    }

    /** The cell's average now (tests and reports). */
    public double average(int index) {
        return avg[index];
    }

    /** Decides for sample {@code q} of cell {@code i} at {@code nowNs}: the drop value or the no-drop value. */
    public long execute(int i, long q, long nowNs) {
        if (!set[i]) {
            return wred.noDropValue();
        }
        if (!started[i]) {
            started[i] = true;
            avg[i] = q;
        } else {
            double dt = Math.max(0, nowNs - lastNs[i]);
            double w = tauNs[i] == 0 ? 1 : 1 - StrictMath.exp(-dt / tauNs[i]);
            avg[i] += w * (q - avg[i]);
        }
        lastNs[i] = nowNs;
        double a = avg[i];
        if (a < minCells[i]) {
            count[i] = -1;
            return wred.noDropValue();
        }
        if (a >= maxCells[i]) {
            count[i] = 0;
            return wred.dropValue();
        }
        count[i]++;
        double pb = maxP[i] * (a - minCells[i]) / (maxCells[i] - minCells[i]);
        double pa = count[i] * pb >= 1 ? 1 : pb / (1 - count[i] * pb);
        if (uniform() < pa) {
            count[i] = 0;
            return wred.dropValue();
        }
        return wred.noDropValue();
    }

    /** The next draw in [0, 1): SplitMix64's next output, top 53 bits. */
    private double uniform() {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }

    /** Forgets every cell's spec and state (the generator goes on). */
    public void reset() {
        Arrays.fill(set, false);
        Arrays.fill(started, false);
        Arrays.fill(avg, 0);
        Arrays.fill(count, -1);
    }
}

package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;

import java.util.Arrays;

/**
 * The cells of one meter in one pipe, each a pair of token buckets run by the defining
 * equations of its RFC in emulated time (nanoseconds of the engine's clock, never the wall
 * clock):
 * <ul>
 * <li>RFC 2698 trTCM: bucket C (size CBS) fills at CIR, bucket P (size PBS) at PIR. A packet of
 *     B units is RED if Tp &lt; B; else YELLOW if Tc &lt; B (Tp -= B); else GREEN (Tp and Tc -= B).
 *     Colour-aware, a RED pre-colour stays RED and a YELLOW one is at best YELLOW.</li>
 * <li>RFC 2697 srTCM: tokens arrive at CIR into C (size CBS), overflowing into E (size EBS). A
 *     packet is GREEN if Tc &gt;= B (Tc -= B); else YELLOW if Te &gt;= B (Te -= B); else RED.
 *     Colour-aware, only a GREEN pre-colour may be GREEN and only GREEN or YELLOW may be YELLOW.</li>
 * </ul>
 * Colour-blind is colour-aware with every packet GREEN, so one method serves both. Buckets
 * hold tokens times 10<sup>9</sup> so that a rate in units per second times nanoseconds adds
 * exactly: the colours are exact to the byte. Both buckets start full when the rates are set;
 * a cell whose rates were never set marks every packet GREEN (nothing limits it).
 */
public final class MeterCells {
    /** Nanoseconds per second: the buckets' scale. */
    public static final long NS_PER_S = 1_000_000_000L;
    /** The largest burst whose scaled bucket fits a long. */
    public static final long MAX_BURST = Long.MAX_VALUE / NS_PER_S;

    private final Meter meter;
    private final boolean srtcm;
    private final long[] cir;
    private final long[] pir;
    /** Bucket capacities, scaled: CBS and PBS (trTCM) or CBS and EBS (srTCM). */
    private final long[] capC;
    private final long[] capP;
    private final long[] tc;
    private final long[] tp;
    private final long[] lastNs;
    private final boolean[] set;
    /** An LPF's or a WRED's cells (the meter ALU runs them instead of the buckets); null for a meter. */
    private final LpfCells lpf;
    private final WredCells wred;

    public MeterCells(Meter meter) {
        int n = meter.cells();
        this.meter = meter;
        this.lpf = meter.algorithm() == Meter.Algorithm.LPF ? new LpfCells(meter) : null;
        this.wred = meter.algorithm() == Meter.Algorithm.WRED ? new WredCells(meter) : null;
        this.srtcm = meter.algorithm() == Meter.Algorithm.SRTCM;
        cir = new long[n];
        pir = new long[n];
        capC = new long[n];
        capP = new long[n];
        tc = new long[n];
        tp = new long[n];
        lastNs = new long[n];
        set = new boolean[n];
    }

    public Meter meter() {
        return meter;
    }

    public int size() {
        return set.length;
    }

    /**
     * Sets a cell's rates (units per second) and bursts (units) and fills both buckets (full
     * buckets make the time of the last update irrelevant). For an srTCM meter the second pair
     * is the same rate and the excess burst EBS.
     */
    public void setRates(int index, long committedRate, long committedBurst, long peakRate, long peakBurst) {
        checkRates(meter, index, committedRate, committedBurst, peakRate, peakBurst);
        cir[index] = committedRate;
        pir[index] = peakRate;
        capC[index] = committedBurst * NS_PER_S;
        capP[index] = peakBurst * NS_PER_S;
        tc[index] = capC[index];
        tp[index] = capP[index];
        lastNs[index] = 0;
        set[index] = true;
    }

    /** Refuses rates the meter's marker cannot have (the same check {@link #setRates} makes), naming the cell. */
    public static void checkRates(Meter meter, int index, long committedRate, long committedBurst, long peakRate, long peakBurst) {
        String where = "meter " + meter.name() + "[" + index + "]";
        if (meter.filtersValue()) {
            throw new UserError(meter.kind() + " " + meter.name() + " is no meter: its cells take "
                    + meter.kind() + "_set_params, not rates");
        }
        if (committedRate < 0 || peakRate < 0 || committedBurst < 0 || peakBurst < 0) {
            throw new UserError(where + ": rates and bursts must not be negative");
        }
        if (committedBurst > MAX_BURST || peakBurst > MAX_BURST) {
            throw new UserError(where + ": a burst above " + MAX_BURST + " units");
        }
        if (meter.algorithm() == Meter.Algorithm.SRTCM && peakRate != committedRate) {
            throw new UserError(where + " is an srTCM (RFC 2697): one rate, so the second rate must equal the first ("
                    + committedRate + "), got " + peakRate);
        }
        if (meter.algorithm() == Meter.Algorithm.TRTCM && peakRate < committedRate) {
            throw new UserError(where + " is a trTCM (RFC 2698): PIR " + peakRate + " must be >= CIR " + committedRate);
        }
    }

    /** The four numbers a cell was set with (CIR, CBS, PIR or CIR, PBS or EBS); zeros if never set. */
    public long[] rates(int index) {
        return new long[] {cir[index], capC[index] / NS_PER_S, pir[index], capP[index] / NS_PER_S};
    }

    public boolean configured(int index) {
        return set[index];
    }

    /** Tokens now in a cell's C and P (or E) buckets, scaled by {@link #NS_PER_S} (tests and reports). */
    public long scaledTokensC(int index) {
        return tc[index];
    }

    public long scaledTokensP(int index) {
        return tp[index];
    }

    /** An LPF's cells; null for any other meter-ALU extern. */
    public LpfCells lpf() {
        return lpf;
    }

    /** A WRED's cells; null for any other meter-ALU extern. */
    public WredCells wred() {
        return wred;
    }

    /** Forgets every cell's rates. */
    public void reset() {
        if (lpf != null) {
            lpf.reset();
        }
        if (wred != null) {
            wred.reset();
        }
        Arrays.fill(set, false);
        Arrays.fill(cir, 0);
        Arrays.fill(pir, 0);
        Arrays.fill(capC, 0);
        Arrays.fill(capP, 0);
        Arrays.fill(tc, 0);
        Arrays.fill(tp, 0);
        Arrays.fill(lastNs, 0);
    }

    /**
     * Marks a packet of {@code units} units (1 for a packet meter, the frame's bytes for a byte
     * meter) with pre-colour {@code preColor} at {@code nowNs}; returns its colour. A pre-colour
     * other than GREEN or YELLOW counts as RED.
     */
    public long execute(int i, long preColor, long units, long nowNs) {
        // an LPF or a WRED takes the value the program gives where a meter takes the pre-colour
        if (lpf != null) {
            return lpf.execute(i, preColor, nowNs);
        }
        if (wred != null) {
            return wred.execute(i, preColor, nowNs);
        }
        if (!set[i]) {
            return MeterColor.GREEN;
        }
        long dt = nowNs - lastNs[i];
        if (dt > 0) {
            lastNs[i] = nowNs;
            if (srtcm) {
                long add = product(cir[i], dt);
                long toC = Math.min(add, capC[i] - tc[i]);
                tc[i] += toC;
                tp[i] += Math.min(add - toC, capP[i] - tp[i]);
            } else {
                tc[i] += Math.min(product(cir[i], dt), capC[i] - tc[i]);
                tp[i] += Math.min(product(pir[i], dt), capP[i] - tp[i]);
            }
        }
        long b = product(Math.max(0, units), NS_PER_S);
        boolean green = preColor == MeterColor.GREEN;
        boolean notRed = green || preColor == MeterColor.YELLOW;
        if (srtcm) {
            if (green && tc[i] >= b) {
                tc[i] -= b;
                return MeterColor.GREEN;
            }
            if (notRed && tp[i] >= b) {
                tp[i] -= b;
                return MeterColor.YELLOW;
            }
            return MeterColor.RED;
        }
        if (!notRed || tp[i] < b) {
            return MeterColor.RED;
        }
        tp[i] -= b;
        if (!green || tc[i] < b) {
            return MeterColor.YELLOW;
        }
        tc[i] -= b;
        return MeterColor.GREEN;
    }

    /** a x b for non-negative a and b, saturating at Long.MAX_VALUE (a bucket is full long before). */
    private static long product(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }
}

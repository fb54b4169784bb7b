package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.UserError;

import java.util.Locale;

/**
 * Turns a trace's packets into arrival cycles, like tcpreplay's modes:
 * keep the trace's spacing ({@code original}), scale it ({@code scaled:X}),
 * pack packets back to back at a line rate ({@code rate:100G}), at a packet
 * rate ({@code pps:N}), or one per cycle ({@code topspeed}). Arrivals never go
 * backwards: an out-of-order timestamp arrives with its predecessor.
 * Integer arithmetic with carried remainders, so long runs do not drift.
 */
public final class ArrivalTiming {
    public enum Mode { ORIGINAL, SCALED, RATE, PPS, TOPSPEED }

    /** Preamble + inter-frame gap bytes a back-to-back packet also occupies on the wire. */
    public static final int WIRE_OVERHEAD_BYTES = 20;

    private final Mode mode;
    private final double scale;
    /** Highest line rate taken (1 Pb/s): far above any port, and finite (1e400G is not a rate). */
    public static final double MAX_RATE_BPS = 1e15;
    /** Highest packet rate taken (10^12/s): above one packet per cycle at any profile's clock. */
    public static final double MAX_PPS = 1e12;

    private final long rateBps;
    private final long pps;
    private final CycleClock clock;
    private final String spec;

    private boolean first = true;
    private long firstNs;
    private long last;
    private long cycles;
    private long remainder;

    private ArrivalTiming(String spec, Mode mode, double scale, long rateBps, long pps, CycleClock clock) {
        this.spec = spec;
        this.mode = mode;
        this.scale = scale;
        this.rateBps = rateBps;
        this.pps = pps;
        this.clock = clock;
    }

    /** Parses {@code original}, {@code scaled:X}, {@code rate:100G} (or {@code 100G}), {@code pps:N}, {@code topspeed}. */
    public static ArrivalTiming parse(String spec, CycleClock clock) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("original")) {
            return new ArrivalTiming(spec, Mode.ORIGINAL, 1, 0, 0, clock);
        }
        if (s.equals("topspeed")) {
            return new ArrivalTiming(spec, Mode.TOPSPEED, 1, 0, 0, clock);
        }
        if (s.startsWith("scaled:")) {
            double x = number(spec, s.substring(7));
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new UserError("timing '" + spec + "': scale must be positive");
            }
            return new ArrivalTiming(spec, Mode.SCALED, x, 0, 0, clock);
        }
        if (s.startsWith("pps:")) {
            double n = number(spec, s.substring(4));
            if (n < 1 || n != Math.rint(n) || n > MAX_PPS) {
                throw new UserError("timing '" + spec + "': packets per second must be a whole number in 1.." + (long) MAX_PPS);
            }
            return new ArrivalTiming(spec, Mode.PPS, 1, 0, (long) n, clock);
        }
        String r = s.startsWith("rate:") ? s.substring(5) : s;
        boolean unit = r.endsWith("g") || r.endsWith("m");
        if (unit || s.startsWith("rate:")) {
            double v = number(spec, unit ? r.substring(0, r.length() - 1) : r);
            if (!(v > 0)) {
                throw new UserError("timing '" + spec + "': rate must be positive");
            }
            if (!unit) {
                throw new UserError("timing '" + spec + "': a rate needs its unit, G or M (e.g. 100G)");
            }
            double bps = v * (r.endsWith("g") ? 1e9 : 1e6);
            if (bps > MAX_RATE_BPS) {
                throw new UserError("timing '" + spec + "': rate must be at most " + (long) (MAX_RATE_BPS / 1e9) + "G");
            }
            if (bps < 1) {
                throw new UserError("timing '" + spec + "': rate must be at least 1 b/s");
            }
            return new ArrivalTiming(spec, Mode.RATE, 1, Math.round(bps), 0, clock);
        }
        throw new UserError("timing '" + spec + "' not understood (original, scaled:X, rate:100G, pps:N, topspeed)");
    }

    private static double number(String spec, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UserError("timing '" + spec + "': '" + v + "' is not a number");
        }
    }

    /** The arrival cycle of the next packet, given its trace timestamp and wire length. */
    public long next(long timestampNs, int wireLength) {
        long at;
        switch (mode) {
            case ORIGINAL, SCALED -> {
                if (first) {
                    firstNs = timestampNs;
                }
                long rel = Math.max(0, timestampNs - firstNs);
                if (mode == Mode.SCALED) {
                    rel = (long) Math.floor(rel * scale);
                }
                at = Math.max(last, clock.nsToCycles(rel));
            }
            case RATE -> {
                at = cycles;
                // this packet occupies (len + overhead) * 8 bits at the line rate
                remainder += (long) (wireLength + WIRE_OVERHEAD_BYTES) * 8 * clock.hz();
                cycles += remainder / rateBps;
                remainder %= rateBps;
            }
            case PPS -> {
                at = cycles;
                remainder += clock.hz();
                cycles += remainder / pps;
                remainder %= pps;
            }
            case TOPSPEED -> at = first ? 0 : last + 1;
            default -> throw new IllegalStateException();
        }
        first = false;
        last = at;
        return at;
    }

    public Mode mode() {
        return mode;
    }

    public String spec() {
        return spec;
    }
}

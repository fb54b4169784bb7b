package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.UserError;

import java.util.Locale;

/**
 * Turns a trace's packets into arrival cycles, in the trace's order, with tcpreplay's modes
 * where tcpreplay has one:
 * <ul>
 * <li>{@code original}: the trace's spacing;</li>
 * <li>{@code multiplier:X}: tcpreplay's {@code --multiplier}, X times faster (every gap divided by X;
 *     2 is twice the speed, 0.5 half);</li>
 * <li>{@code scaled:X}: every gap multiplied by X (the inverse of {@code multiplier}; 2 is half the speed);</li>
 * <li>{@code rate:R}: back to back at line rate R (tcpreplay's {@code --mbps}, with units: 100G, 100Gbps,
 *     40gbit, 10M, 500k, 1T);</li>
 * <li>{@code pps:N}: one packet every 1/N s (tcpreplay's {@code --pps});</li>
 * <li>{@code topspeed}: tcpreplay's {@code --topspeed}, as fast as the ingress link carries them, i.e. back to
 *     back at the ports' line rate;</li>
 * <li>{@code back-to-back}: one packet per clock cycle, as fast as the parser takes them (faster than any
 *     port: a stress mode tcpreplay has no equivalent of).</li>
 * </ul>
 * Arrivals never go backwards: an out-of-order timestamp arrives with its predecessor.
 * Integer arithmetic with carried remainders, so long runs do not drift.
 */
public final class ArrivalTiming {
    public enum Mode { ORIGINAL, SCALED, MULTIPLIER, RATE, PPS, BACK_TO_BACK }

    /** Preamble + inter-frame gap bytes a back-to-back packet also occupies on the wire. */
    public static final int WIRE_OVERHEAD_BYTES = 20;
    /** The modes, as the refusal of an unknown one lists them. */
    public static final String MODES = "original, multiplier:X, scaled:X, rate:100G, pps:N, topspeed, back-to-back";

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

    /** As {@link #parse(String, CycleClock, double)} where no port line rate is known ({@code topspeed} is refused). */
    public static ArrivalTiming parse(String spec, CycleClock clock) {
        return parse(spec, clock, Double.NaN);
    }

    /**
     * Parses a timing mode (see the class comment); {@code portGbps} is the ports' line rate that
     * {@code topspeed} packs packets at, NaN where the ports have no one rate (a topology's links).
     */
    public static ArrivalTiming parse(String spec, CycleClock clock, double portGbps) {
        String s = spec.trim().toLowerCase(Locale.ROOT);
        if (s.equals("original")) {
            return new ArrivalTiming(spec, Mode.ORIGINAL, 1, 0, 0, clock);
        }
        if (s.equals("back-to-back")) {
            return new ArrivalTiming(spec, Mode.BACK_TO_BACK, 1, 0, 0, clock);
        }
        if (s.equals("topspeed")) {
            if (Double.isNaN(portGbps)) {
                throw new UserError("timing 'topspeed' packs packets at the ports' line rate, and a topology's links have "
                        + "their own rates: give --rate RATE (or --timing back-to-back)");
            }
            return new ArrivalTiming(spec, Mode.RATE, 1, Math.round(portGbps * 1e9), 0, clock);
        }
        if (s.startsWith("scaled:") || s.startsWith("multiplier:")) {
            boolean multiplier = s.startsWith("multiplier:");
            double x = number(spec, s.substring(s.indexOf(':') + 1));
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new UserError("timing '" + spec + "': " + (multiplier ? "multiplier" : "scale") + " must be positive");
            }
            return new ArrivalTiming(spec, multiplier ? Mode.MULTIPLIER : Mode.SCALED, x, 0, 0, clock);
        }
        if (s.startsWith("pps:")) {
            double n = number(spec, s.substring(4));
            if (n < 1 || n != Math.rint(n) || n > MAX_PPS) {
                throw new UserError("timing '" + spec + "': packets per second must be a whole number in 1.." + (long) MAX_PPS);
            }
            return new ArrivalTiming(spec, Mode.PPS, 1, 0, (long) n, clock);
        }
        boolean named = s.startsWith("rate:");
        String r = named ? s.substring(5) : s;
        int u = unitStart(r);
        if (named || (u > 0 && u < r.length())) {
            double v = number(spec, r.substring(0, u));
            if (!(v > 0)) {
                throw new UserError("timing '" + spec + "': rate must be positive");
            }
            double perUnit = unit(spec, r.substring(u));
            double bps = v * perUnit;
            if (bps > MAX_RATE_BPS) {
                throw new UserError("timing '" + spec + "': rate must be at most " + (long) (MAX_RATE_BPS / 1e9) + "G");
            }
            if (bps < 1) {
                throw new UserError("timing '" + spec + "': rate must be at least 1 b/s");
            }
            return new ArrivalTiming(spec, Mode.RATE, 1, Math.round(bps), 0, clock);
        }
        throw new UserError("timing '" + spec + "' not understood (" + MODES + ")");
    }

    /** Where a rate's unit begins: after the number's digits, point, sign and exponent. */
    private static int unitStart(String r) {
        int i = 0;
        while (i < r.length()) {
            char c = r.charAt(i);
            boolean exponent = c == 'e' && i > 0 && i + 1 < r.length()
                    && (Character.isDigit(r.charAt(i + 1)) || r.charAt(i + 1) == '-' || r.charAt(i + 1) == '+');
            if (!(Character.isDigit(c) || c == '.' || c == '-' || c == '+' || exponent)) {
                break;
            }
            i++;
        }
        return i;
    }

    /**
     * Bits per second of a rate unit as tcpreplay and iperf users write them (decimal prefixes, bits):
     * k, M, G, T, each alone or followed by bps, bit, bits, b/s or bit/s, any case.
     */
    private static double unit(String spec, String unit) {
        String u = unit.trim();
        for (String bits : new String[] {"bit/s", "bits", "bit", "bps", "b/s"}) {
            if (u.endsWith(bits) && u.length() > bits.length()) {
                u = u.substring(0, u.length() - bits.length());
                break;
            }
        }
        return switch (u) {
            case "k" -> 1e3;
            case "m" -> 1e6;
            case "g" -> 1e9;
            case "t" -> 1e12;
            default -> throw new UserError("timing '" + spec + "': a rate needs its unit, e.g. 100G, 100Gbps, 40gbit, 10M"
                    + (unit.isEmpty() ? "" : " ('" + unit + "' is not one)"));
        };
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
            case ORIGINAL, SCALED, MULTIPLIER -> {
                if (first) {
                    firstNs = timestampNs;
                }
                long rel = Math.max(0, timestampNs - firstNs);
                if (mode == Mode.SCALED) {
                    rel = (long) Math.floor(rel * scale);
                } else if (mode == Mode.MULTIPLIER) {
                    rel = (long) Math.floor(rel / scale);
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
            case BACK_TO_BACK -> at = first ? 0 : last + 1;
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

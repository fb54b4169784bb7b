package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds impairments from the key → spec strings of topology files
 * ({@code impair: {loss: "bernoulli:0.01", blackhole: "dst=10.0.2.0/24,from=1ms,to=5ms"}}).
 *
 * <pre>
 * loss       bernoulli:P
 *            gilbert:p=P,r=R[,good=LOSS_IN_GOOD][,bad=LOSS_IN_BAD]     (defaults good=0, bad=1)
 * blackhole  dst=PREFIX[,proto=N][,port=N][,from=TIME][,to=TIME]       (IPv4 or IPv6 prefix)
 * delay      normal:mean=TIME,sigma=TIME
 *            mixture:w=W,mean1=TIME,sigma1=TIME,mean2=TIME,sigma2=TIME
 *            exp:const=TIME,mean=TIME
 * dup        P  (or bernoulli:P)
 * reorder    [normal:]p=P,sigma=X[,max=N]                              (X and N in packets)
 * </pre>
 * TIME is a number with an optional unit ns (default), us, ms or s. Blackhole
 * windows are [from, to) of the packet timestamps the impairment sees. Errors are
 * one line naming the key and the spec.
 */
public final class Impairments {
    /** The keys understood, in the order they are documented. */
    public static final List<String> KEYS = List.of("loss", "blackhole", "delay", "dup", "reorder");

    private Impairments() {
    }

    /** One impairment for {@code key: value}, drawing its randomness from {@code seed}. */
    public static Impairment parse(String key, String value, long seed) {
        String v = value == null ? "" : value.trim();
        try {
            return switch (key) {
                case "loss" -> loss(v, seed);
                case "blackhole" -> blackhole(stripPrefix(v, "blackhole:"));
                case "delay" -> delay(v, seed);
                case "dup" -> new Duplication(probability(stripPrefix(v, "bernoulli:"), "probability"), seed);
                case "reorder" -> reorder(stripPrefix(v, "normal:"), seed);
                default -> throw new UserError("unknown impairment '" + key + "' (known: " + String.join(", ", KEYS) + ")");
            };
        } catch (UserError e) {
            if (e.getMessage().startsWith("impairment ") || e.getMessage().startsWith("unknown impairment")) {
                throw e;
            }
            throw new UserError("impairment " + key + "=\"" + value + "\": " + e.getMessage(), e);
        }
    }

    private static String stripPrefix(String v, String prefix) {
        return v.startsWith(prefix) ? v.substring(prefix.length()) : v;
    }

    private static Impairment loss(String v, long seed) {
        if (v.startsWith("bernoulli:")) {
            return new BernoulliLoss(probability(v.substring("bernoulli:".length()), "probability"), seed);
        }
        if (v.startsWith("gilbert:")) {
            Map<String, String> kv = keyValues(v.substring("gilbert:".length()), List.of("p", "r", "good", "bad"));
            return new GilbertElliottLoss(probability(required(kv, "p"), "p"), probability(required(kv, "r"), "r"),
                    probability(kv.getOrDefault("good", "0"), "good"), probability(kv.getOrDefault("bad", "1"), "bad"), seed);
        }
        throw new UserError("loss model must be bernoulli:P or gilbert:p=..,r=..");
    }

    private static Impairment blackhole(String v) {
        Map<String, String> kv = keyValues(v, List.of("dst", "proto", "port", "from", "to"));
        int proto = kv.containsKey("proto") ? (int) integer(kv.get("proto"), "proto", 0, 255) : Blackhole.ANY;
        int port = kv.containsKey("port") ? (int) integer(kv.get("port"), "port", 0, 65535) : Blackhole.ANY;
        long from = kv.containsKey("from") ? timeNs(kv.get("from"), "from") : Long.MIN_VALUE;
        long to = kv.containsKey("to") ? timeNs(kv.get("to"), "to") : Long.MAX_VALUE;
        return Blackhole.of(required(kv, "dst"), proto, port, from, to);
    }

    private static Impairment delay(String v, long seed) {
        int colon = v.indexOf(':');
        String model = colon < 0 ? "" : v.substring(0, colon);
        String rest = colon < 0 ? v : v.substring(colon + 1);
        switch (model) {
            case "normal": {
                Map<String, String> kv = keyValues(rest, List.of("mean", "sigma"));
                return DelayJitter.normal(timeNs(required(kv, "mean"), "mean"), timeNs(required(kv, "sigma"), "sigma"), seed);
            }
            case "mixture": {
                Map<String, String> kv = keyValues(rest, List.of("w", "mean1", "sigma1", "mean2", "sigma2"));
                return DelayJitter.mixture(probability(required(kv, "w"), "w"), timeNs(required(kv, "mean1"), "mean1"),
                        timeNs(required(kv, "sigma1"), "sigma1"), timeNs(required(kv, "mean2"), "mean2"),
                        timeNs(required(kv, "sigma2"), "sigma2"), seed);
            }
            case "exp": {
                Map<String, String> kv = keyValues(rest, List.of("const", "mean"));
                return DelayJitter.constantPlusExponential(timeNs(required(kv, "const"), "const"),
                        timeNs(required(kv, "mean"), "mean"), seed);
            }
            default:
                throw new UserError("delay model must be normal:, mixture: or exp:");
        }
    }

    private static Impairment reorder(String v, long seed) {
        Map<String, String> kv = keyValues(v, List.of("p", "sigma", "max"));
        int max = kv.containsKey("max") ? (int) integer(kv.get("max"), "max", 1, Integer.MAX_VALUE)
                : Reordering.DEFAULT_MAX_DISPLACEMENT;
        return new Reordering(probability(required(kv, "p"), "p"), number(required(kv, "sigma"), "sigma"), max, seed);
    }

    /** "a=1,b=2" → ordered map; rejects unknown or repeated keys. */
    static Map<String, String> keyValues(String s, List<String> allowed) {
        Map<String, String> out = new LinkedHashMap<>();
        if (s.isBlank()) {
            return out;
        }
        for (String part : s.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new UserError("'" + part.trim() + "' is not key=value");
            }
            String k = part.substring(0, eq).trim();
            if (!allowed.contains(k)) {
                throw new UserError("unknown parameter '" + k + "' (allowed: " + String.join(", ", allowed) + ")");
            }
            if (out.put(k, part.substring(eq + 1).trim()) != null) {
                throw new UserError("parameter '" + k + "' given twice");
            }
        }
        return out;
    }

    private static String required(Map<String, String> kv, String k) {
        String v = kv.get(k);
        if (v == null || v.isEmpty()) {
            throw new UserError("missing parameter '" + k + "'");
        }
        return v;
    }

    private static double number(String s, String what) {
        try {
            double d = Double.parseDouble(s);
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new UserError(what + " '" + s + "' is not a number");
        }
    }

    private static double probability(String s, String what) {
        double p = number(s.trim(), what);
        if (p < 0 || p > 1) {
            throw new UserError(what + " " + s + " is not in [0, 1]");
        }
        return p;
    }

    private static long integer(String s, String what, long min, long max) {
        long v;
        try {
            v = Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UserError(what + " '" + s + "' is not an integer");
        }
        if (v < min || v > max) {
            throw new UserError(what + " " + v + " outside " + min + ".." + max);
        }
        return v;
    }

    /** "250", "250ns", "3us", "1.5ms", "2s" → ns (rounded to the nearest ns). */
    public static long timeNs(String s, String what) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        double scale = 1;
        if (t.endsWith("ns")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us")) {
            t = t.substring(0, t.length() - 2);
            scale = 1e3;
        } else if (t.endsWith("ms")) {
            t = t.substring(0, t.length() - 2);
            scale = 1e6;
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
            scale = 1e9;
        }
        double v = number(t, what) * scale;
        if (v < 0 || v > Long.MAX_VALUE / 2.0) {
            throw new UserError(what + " '" + s + "' must be a non-negative time");
        }
        return Math.round(v);
    }
}

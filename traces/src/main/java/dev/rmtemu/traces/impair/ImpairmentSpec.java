package dev.rmtemu.traces.impair;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.gen.SplitMix64;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses an impairment chain from text, e.g.
 * {@code loss(p=0.01)+ge(p=0.001,r=0.3)+reorder(p=0.01,sigma=3)+dup(p=0.001)}.
 * Parts, joined by {@code +}, with their keys (times in ns):
 * <ul>
 *   <li>{@code loss(p)} — Bernoulli loss;</li>
 *   <li>{@code ge(p, r, good=0, bad=1)} — Gilbert–Elliott loss;</li>
 *   <li>{@code blackhole(prefix, proto=any, port=any, from, until)} — destination blackhole,
 *       permanent unless from/until are given;</li>
 *   <li>{@code reorder(p, sigma, max=64)} — reordering by a |N(0, σ)| displacement in packets;</li>
 *   <li>{@code dup(p)} — duplication;</li>
 *   <li>{@code delay(mean, sigma)}, {@code delay2(w, mean1, sigma1, mean2, sigma2)} (two-mode
 *       mixture), {@code delayexp(const, mean)} — delay models.</li>
 * </ul>
 * Each part's seed is derived from the chain seed and the part's position.
 */
public final class ImpairmentSpec {
    private static final Map<String, Set<String>> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("loss", Set.of("p"));
        KEYS.put("ge", Set.of("p", "r", "good", "bad"));
        KEYS.put("blackhole", Set.of("prefix", "proto", "port", "from", "until"));
        KEYS.put("reorder", Set.of("p", "sigma", "max"));
        KEYS.put("dup", Set.of("p"));
        KEYS.put("delay", Set.of("mean", "sigma"));
        KEYS.put("delay2", Set.of("w", "mean1", "sigma1", "mean2", "sigma2"));
        KEYS.put("delayexp", Set.of("const", "mean"));
    }

    private ImpairmentSpec() {
    }

    public static ImpairmentChain parse(String spec, long seed) {
        List<Impairment> parts = new ArrayList<>();
        if (spec.isBlank()) {
            return new ImpairmentChain();
        }
        for (String part : spec.split("\\+")) {
            String p = part.trim();
            int open = p.indexOf('(');
            if (open <= 0 || !p.endsWith(")")) {
                throw new UserError("impairment '" + p + "' is not NAME(key=value,...); names: "
                        + String.join(", ", KEYS.keySet()));
            }
            String name = p.substring(0, open);
            Set<String> allowed = KEYS.get(name);
            if (allowed == null) {
                throw new UserError("unknown impairment '" + name + "'; valid: " + String.join(", ", KEYS.keySet()));
            }
            Map<String, String> kv = new LinkedHashMap<>();
            String body = p.substring(open + 1, p.length() - 1).trim();
            if (!body.isEmpty()) {
                for (String item : body.split(",")) {
                    int eq = item.indexOf('=');
                    String k = eq < 0 ? item.trim() : item.substring(0, eq).trim();
                    if (eq < 0 || !allowed.contains(k)) {
                        throw new UserError("impairment " + name + ": bad parameter '" + item.trim() + "'; keys: "
                                + String.join(", ", allowed.stream().sorted().toList()));
                    }
                    kv.put(k, item.substring(eq + 1).trim());
                }
            }
            long s = SplitMix64.derive(seed, parts.size());
            parts.add(build(name, kv, s));
        }
        return new ImpairmentChain(parts.toArray(new Impairment[0]));
    }

    private static Impairment build(String name, Map<String, String> kv, long seed) {
        switch (name) {
            case "loss":
                return new BernoulliLoss(num(name, kv, "p", null), seed);
            case "ge":
                return new GilbertElliottLoss(num(name, kv, "p", null), num(name, kv, "r", null),
                        num(name, kv, "good", 0.0), num(name, kv, "bad", 1.0), seed);
            case "blackhole": {
                String prefix = kv.get("prefix");
                if (prefix == null) {
                    throw new UserError("impairment blackhole needs prefix=CIDR");
                }
                return Blackhole.of(prefix, (int) num(name, kv, "proto", -1.0), (int) num(name, kv, "port", -1.0),
                        lng(name, kv, "from", Long.MIN_VALUE), lng(name, kv, "until", Long.MAX_VALUE));
            }
            case "reorder":
                return new Reordering(num(name, kv, "p", null), num(name, kv, "sigma", null),
                        (int) num(name, kv, "max", (double) Reordering.DEFAULT_MAX_DISPLACEMENT), seed);
            case "dup":
                return new Duplication(num(name, kv, "p", null), seed);
            case "delay":
                return DelayJitter.normal(num(name, kv, "mean", null), num(name, kv, "sigma", 0.0), seed);
            case "delay2":
                return DelayJitter.mixture(num(name, kv, "w", null), num(name, kv, "mean1", null),
                        num(name, kv, "sigma1", 0.0), num(name, kv, "mean2", null), num(name, kv, "sigma2", 0.0), seed);
            default:
                return DelayJitter.constantPlusExponential(num(name, kv, "const", 0.0), num(name, kv, "mean", null), seed);
        }
    }

    private static double num(String name, Map<String, String> kv, String key, Double dflt) {
        String v = kv.get(key);
        if (v == null) {
            if (dflt == null) {
                throw new UserError("impairment " + name + " needs " + key + "=NUMBER");
            }
            return dflt;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UserError("impairment " + name + ": " + key + "='" + v + "' is not a number");
        }
    }

    private static long lng(String name, Map<String, String> kv, String key, long dflt) {
        String v = kv.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UserError("impairment " + name + ": " + key + "='" + v + "' is not an integer (ns)");
        }
    }
}

package dev.rmtemu.traces.gen;

import java.util.Locale;

/** The synthetic trace presets; each sets the defaults of {@link GeneratorConfig}. */
public enum GeneratorKind {
    /** ISP backbone: flows arriving and ending through the trace (dist=backbone), 10 M packets, ~400 K 5-tuples, IMIX. */
    ISP,
    /** Data centre: Pareto flow sizes (many mice, a few elephants), bimodal sizes. */
    DC,
    /** Incast: N senders to one receiver in synchronised bursts. */
    INCAST,
    /** TCP-only flows: SYN first, FIN last, consecutive IP IDs and sequence numbers. */
    TCP,
    /** Equal flow sizes, packets drawn uniformly among flows. */
    UNIFORM;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Kind by label, or null. */
    public static GeneratorKind byLabel(String s) {
        for (GeneratorKind k : values()) {
            if (k.label().equals(s)) {
                return k;
            }
        }
        return null;
    }

    public static String labels() {
        StringBuilder sb = new StringBuilder();
        for (GeneratorKind k : values()) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(k.label());
        }
        return sb.toString();
    }
}

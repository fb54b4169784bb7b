package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.table.AlgorithmicTcam;
import dev.rmtemu.model.table.IdleTimeout;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.TableOptions;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A table's idle timeout and algorithmic TCAM shape, from TNA: {@code idle_timeout = true}
 * (with p4c's {@code @idletime_precision(N)}, 1, 2, 3 or 6 bits, default 3) and
 * {@code implementation = a} naming an {@code Alpm(number_partitions, subtrees_per_partition)}
 * of the control (bf-p4c midend/alpm.cpp SplitAlpm::values_through_impl: arguments all named
 * or all positional; defaults 1024 and 2).
 */
final class TableOptionsLowering {
    private static final String IDLE_TIMEOUT = "idle_timeout";
    private static final String IMPLEMENTATION = "implementation";
    private static final String PRECISION = "idletime_precision";
    private static final List<String> ALPM_PARAMS = List.of("number_partitions", "subtrees_per_partition", "atcam_subset_width",
            "shift_granularity");

    private final Types types;
    private final Map<String, AlgorithmicTcam> alpms = new TreeMap<>();
    /** Every Alpm declared, refused ones too: a table naming a refused one is not refused again. */
    private final Set<String> declared = new TreeSet<>();

    TableOptionsLowering(Types types) {
        this.types = types;
    }

    /** Declares {@code in} when it is an Alpm; false for any other extern. */
    boolean declare(Declaration.Instantiation in) {
        if (!"Alpm".equals(Types.named(in.type()))) {
            return false;
        }
        declared.add(in.name());
        long[] values = {AlgorithmicTcam.ALPM_DEFAULT_PARTITIONS, AlgorithmicTcam.ALPM_DEFAULT_SUBTREES, -1, -1};
        List<Argument> args = in.arguments();
        if (args.size() > ALPM_PARAMS.size()) {
            throw new Refusal(in.position(), "Alpm " + in.name() + " takes at most " + ALPM_PARAMS.size() + " arguments");
        }
        for (int i = 0; i < args.size(); i++) {
            Argument a = args.get(i);
            int at = a.name() == null ? i : ALPM_PARAMS.indexOf(a.name());
            if (at < 0) {
                throw new Refusal(a.position(), "Alpm has no parameter " + a.name() + " (" + String.join(", ", ALPM_PARAMS) + ")");
            }
            values[at] = types.constant(a.value());
        }
        if (values[2] >= 0 || values[3] >= 0) {
            throw new Refusal(in.position(), "Alpm " + in.name() + ": atcam_subset_width and shift_granularity (the partition-key"
                    + " optimisation) are not supported by rmtemu");
        }
        try {
            alpms.put(in.name(), AlgorithmicTcam.alpm((int) values[0], (int) values[1]));
        } catch (IllegalArgumentException e) {
            throw new Refusal(in.position(), e.getMessage());
        }
        return true;
    }

    /** Whether {@code p} is a property this class reads ({@code idle_timeout}, or an {@code implementation} naming an Alpm). */
    boolean handles(TableProperty.Property p) {
        return p.name().equals(IDLE_TIMEOUT)
                || p.name().equals(IMPLEMENTATION) && p.value() instanceof Expression.Name n && declared.contains(n.name());
    }

    /** The options of table {@code t} (match kind {@code kind}) from the properties {@link #handles} accepted. */
    TableOptions options(Declaration.Table t, MatchKind kind, List<TableProperty.Property> properties) {
        TableOptions o = TableOptions.NONE;
        for (TableProperty.Property p : properties) {
            if (p.name().equals(IDLE_TIMEOUT)) {
                if (!(p.value() instanceof Expression.BooleanLiteral b)) {
                    throw new Refusal(p.position(), "table " + t.name() + ": idle_timeout is true or false");
                }
                if (b.value()) {
                    o = o.withIdleTimeout(idleTimeout(t));
                }
            } else {
                if (kind != MatchKind.LPM) {
                    throw new Refusal(p.position(), "table " + t.name() + ": an Alpm implementation needs exactly one lpm key"
                            + " (midend/alpm.cpp)");
                }
                AlgorithmicTcam a = alpms.get(((Expression.Name) p.value()).name());
                if (a != null) { // a refused Alpm was reported where it is declared
                    o = o.withAlgorithmic(a);
                }
            }
        }
        return o;
    }

    /** The idle counter's bits: {@code @idletime_precision(N)}, else p4c's default. */
    private static IdleTimeout idleTimeout(Declaration.Table t) {
        for (Annotation a : t.annotations()) {
            if (a.name().equals(PRECISION)) {
                String body = String.join("", a.body()).trim();
                try {
                    return new IdleTimeout(Integer.parseInt(body));
                } catch (NumberFormatException e) {
                    throw new Refusal(a.position(), "@" + PRECISION + " takes 1, 2, 3 or 6, got '" + body + "'");
                } catch (IllegalArgumentException e) {
                    throw new Refusal(a.position(), e.getMessage());
                }
            }
        }
        return IdleTimeout.DEFAULT;
    }
}

package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterColor;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

import static dev.rmtemu.model.ir.Ir.color;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.filterOutput;

/**
 * TNA's counters and meters in a control, lowered to the IR's (one place for the lowering's
 * externs): {@code Counter<W, I>(size, type)} and {@code Meter<I>(size, type)} are declared with
 * the control and placed with the statements that use them; {@code DirectCounter<W>(type)} and
 * {@code DirectMeter(type)} belong to the table whose {@code counters = x} or {@code meters = x}
 * property names them. {@code c.count(i[, adjust])}, {@code d.count([adjust])},
 * {@code f = m.execute(i[, colour][, adjust])} and {@code f = dm.execute([colour][, adjust])} are
 * the statements. A TNA meter is an RFC 2698 two-rate three-colour marker (Tofino's meter ALU).
 */
final class ExternLowering {
    /** A value of a P4 expression at a width (the control's expression lowering). */
    interface Values extends BiFunction<Expression, Integer, Expr> {
    }

    private final Types types;
    private final ProgramBuilder.ControlBuilder control;
    private final String controlName;
    private final Map<String, Declaration.Instantiation> directs = new TreeMap<>();
    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<String, Meter> meters = new HashMap<>();
    /** The control's Hash instances (an ActionSelector names one). */
    private final Map<String, Declaration.Instantiation> hashes = new HashMap<>();
    /** ActionProfile and ActionSelector instances, bound to a table by its implementation property. */
    private final Map<String, Declaration.Instantiation> profiles = new TreeMap<>();
    private final Map<String, Declaration.Instantiation> selectors = new TreeMap<>();
    /** Names of profiles and selectors that implement a table. */
    private final Set<String> implemented = new HashSet<>();
    /** Per table with key fields of match kind selector: the fields, and where the table is. */
    private final Map<String, List<Field>> selectorKeys = new TreeMap<>();
    private final Map<String, SourcePosition> selectorTables = new HashMap<>();
    /** ActionProfile and ActionSelector instances whose declaration was refused (already reported). */
    private final Set<String> refused = new HashSet<>();
    /** Tables whose implementation property was bound. */
    private final Set<String> indirectTables = new HashSet<>();
    /** The profile each bound implementation name made, and its first table (a second table naming it shares it). */
    private final Map<String, ActionProfile> boundProfiles = new HashMap<>();
    private final Map<String, MatchTable> firstTables = new HashMap<>();
    /** The value width (T) of each LPF and WRED, by name. */
    private final Map<String, Integer> filterInputs = new HashMap<>();

    ExternLowering(Types types, ProgramBuilder.ControlBuilder control, String controlName) {
        this.types = types;
        this.control = control;
        this.controlName = controlName;
    }

    /** Declares {@code in} when it is a counter or meter; false for any other extern. */
    boolean declare(Declaration.Instantiation in) {
        String type = Types.named(in.type());
        List<TypeRef> typeArgs = in.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        List<Argument> args = in.arguments();
        switch (type == null ? "" : type) {
            case "Counter" -> {
                if (typeArgs.size() != 2 || args.size() != 2) {
                    throw new Refusal(in.position(), "Counter " + in.name() + " needs Counter<bit<W>, I>(size, CounterType_t.TYPE)");
                }
                int size = (int) types.constant(args.get(0).value());
                counters.put(in.name(), control.counter(in.name(), counterType(args.get(1)), width(typeArgs.get(0), in), size));
                pin(in);
            }
            case "Meter" -> {
                if (args.size() != 2) {
                    throw new Refusal(in.position(), "Meter " + in.name() + " needs Meter<I>(size, MeterType_t.TYPE)"
                            + (args.size() == 5 ? " (the colour values red, yellow, green are not supported yet)" : ""));
                }
                int size = (int) types.constant(args.get(0).value());
                meters.put(in.name(), control.meter(in.name(), meterType(args.get(1)), Meter.Algorithm.TRTCM, size));
                pin(in);
            }
            case "DirectCounter" -> {
                if (typeArgs.size() != 1 || args.size() != 1) {
                    throw new Refusal(in.position(), "DirectCounter " + in.name() + " needs DirectCounter<bit<W>>(CounterType_t.TYPE)");
                }
                counterType(args.get(0));
                width(typeArgs.get(0), in);
                directs.put(in.name(), in);
            }
            case "ActionProfile" -> {
                refused.add(in.name()); // until it is declared: a table naming a refused profile adds no second line
                if (args.size() != 1) {
                    throw new Refusal(in.position(), "ActionProfile " + in.name() + " needs ActionProfile(size)");
                }
                types.constant(args.get(0).value());
                profiles.put(in.name(), in);
                refused.remove(in.name());
            }
            case "ActionSelector" -> {
                refused.add(in.name());
                declareSelector(in);
                selectors.put(in.name(), in);
                refused.remove(in.name());
            }
            case "DirectMeter" -> {
                if (args.size() != 1) {
                    throw new Refusal(in.position(), "DirectMeter " + in.name() + " needs DirectMeter(MeterType_t.TYPE)"
                            + (args.size() == 4 ? " (the colour values red, yellow, green are not supported yet)" : ""));
                }
                meterType(args.get(0));
                directs.put(in.name(), in);
            }
            case "Lpf", "Wred", "DirectLpf", "DirectWred" -> declareFilter(in, type, typeArgs, args);
            default -> {
                return false;
            }
        }
        return true;
    }

    /**
     * TNA's {@code Lpf<T, I>(size)}, {@code Wred<T, I>(size, drop_value, no_drop_value)} and their
     * direct forms: meter-ALU externs (p4c makes each an {@code IR::MAU::Meter} with
     * implementation lpf or wred, bf-p4c/mau/extract_maupipe.cpp {@code createAttached}). A
     * direct one belongs to the table whose {@code filters = x} property names it.
     */
    private void declareFilter(Declaration.Instantiation in, String type, List<TypeRef> typeArgs, List<Argument> args) {
        boolean direct = type.startsWith("Direct");
        boolean lpf = type.endsWith("Lpf");
        int ctorArgs = (direct ? 0 : 1) + (lpf ? 0 : 2);
        if (typeArgs.size() != (direct ? 1 : 2) || args.size() != ctorArgs) {
            String usage = lpf ? (direct ? "DirectLpf<bit<W>>()" : "Lpf<bit<W>, I>(size)")
                    : (direct ? "DirectWred<bit<W>>(drop_value, no_drop_value)" : "Wred<bit<W>, I>(size, drop_value, no_drop_value)");
            throw new Refusal(in.position(), type + " " + in.name() + " needs " + usage);
        }
        int bits = filterWidth(typeArgs.get(0), in);
        filterInputs.put(in.name(), bits);
        if (direct) {
            if (!lpf) {
                wredValue(args.get(0), in);
                wredValue(args.get(1), in);
            }
            directs.put(in.name(), in);
            return;
        }
        int size = (int) types.constant(args.get(0).value());
        meters.put(in.name(), lpf ? control.lpf(in.name(), bits, size)
                : control.wred(in.name(), size, wredValue(args.get(1), in), wredValue(args.get(2), in)));
        pin(in);
    }

    private int filterWidth(TypeRef w, Declaration.Instantiation in) {
        if (w instanceof TypeRef.DontCare) {
            throw new Refusal(w.position(), Types.named(in.type()) + " " + in.name() + ": give the value's type as bit<W>"
                    + " (the lowering does not infer it)");
        }
        int bits = types.width(w);
        if (bits < 1 || bits > Meter.MAX_OUTPUT_BITS) {
            throw new Refusal(w.position(), Types.named(in.type()) + " " + in.name() + ": a value of " + bits
                    + " bits; the meter ALU filters at most " + Meter.MAX_OUTPUT_BITS);
        }
        return bits;
    }

    private int wredValue(Argument a, Declaration.Instantiation in) {
        long v = types.constant(a.value());
        if (v < 0 || v > 255) {
            throw new Refusal(a.position(), "Wred " + in.name() + ": drop_value and no_drop_value are bit<8>, got " + v);
        }
        return (int) v;
    }

    /** Lowers {@code f.execute(val[, index])} of an LPF or a WRED; returns its output. */
    private Expr executeFilter(Block code, Meter mt, Expression.Call call, Values values) {
        List<Argument> args = call.arguments();
        String kind = mt.algorithm() == Meter.Algorithm.LPF ? "Lpf" : "Wred";
        if (args.size() != (mt.direct() ? 1 : 2)) {
            throw new Refusal(call.position(), (mt.direct() ? "Direct" + kind + " " + mt.name() + ".execute takes (val)"
                    : kind + " " + mt.name() + ".execute takes (val, index)"));
        }
        Expr value = values.apply(args.get(0).value(), filterInputs.get(mt.name()));
        if (mt.direct()) {
            code.filterDirect(mt, value);
        } else {
            code.filter(mt, value, values.apply(args.get(1).value(), 32));
        }
        return filterOutput(mt);
    }

    /**
     * True for a table's {@code counters}, {@code meters}, {@code filters} or {@code implementation} property (bound
     * by {@link #bind} once the table exists).
     */
    static boolean isDirectProperty(TableProperty.Property p) {
        return p.name().equals("counters") || p.name().equals("meters") || p.name().equals("filters")
                || p.name().equals("implementation");
    }

    /** A Hash instance of the control, which an ActionSelector may name. */
    void noteHash(Declaration.Instantiation in) {
        hashes.put(in.name(), in);
    }

    /** The key fields of match kind {@code selector} of table {@code t} (what its ActionSelector hashes). */
    void selectorKey(Declaration.Table t, List<Field> fields) {
        if (!fields.isEmpty()) {
            selectorKeys.put(t.name(), List.copyOf(fields));
            selectorTables.put(t.name(), t.position());
        }
    }

    /**
     * Binds the direct counter or meter a table's {@code counters = x} / {@code meters = x} names
     * to it, or the ActionProfile or ActionSelector its {@code implementation = x} names.
     */
    void bind(TableProperty.Property p, MatchTable table) {
        if (p.name().equals("implementation")) {
            implementation(p, table);
            return;
        }
        String what = p.name().equals("counters") ? "DirectCounter" : p.name().equals("filters") ? "DirectLpf or DirectWred" : "DirectMeter";
        if (!(p.value() instanceof Expression.Name n) || !directs.containsKey(n.name())
                || !what.contains(Types.named(directs.get(n.name()).type()))) {
            throw new Refusal(p.position(), "table " + table.name() + ": " + p.name() + " must name a " + what
                    + " of control " + controlName);
        }
        if (counters.containsKey(n.name()) || meters.containsKey(n.name())) {
            throw new Refusal(p.position(), what + " " + n.name() + " already belongs to another table (a direct "
                    + "resource has one table)");
        }
        Declaration.Instantiation in = directs.get(n.name());
        List<Argument> args = in.arguments();
        if (p.name().equals("filters")) {
            int bits = filterInputs.get(n.name());
            meters.put(n.name(), Types.named(in.type()).equals("DirectLpf") ? control.directLpf(n.name(), bits, table)
                    : control.directWred(n.name(), wredValue(args.get(0), in), wredValue(args.get(1), in), table));
        } else if (what.equals("DirectCounter")) {
            TypeRef w = ((TypeRef.Named) in.type()).arguments().get(0);
            counters.put(n.name(), control.directCounter(n.name(), counterType(args.get(0)), width(w, in), table));
        } else {
            meters.put(n.name(), control.directMeter(n.name(), meterType(args.get(0)), Meter.Algorithm.TRTCM, table));
        }
    }

    /**
     * TNA's {@code ActionSelector(ActionProfile profile, Hash<W> hash, SelectorMode_t mode,
     * max_group_size, num_groups)}: the forms without an ActionProfile (deprecated in TNA) and with
     * a Register of member bits are refused.
     */
    private void declareSelector(Declaration.Instantiation in) {
        List<Argument> args = in.arguments();
        if (args.size() != 5 || !(args.get(0).value() instanceof Expression.Name ap)) {
            throw new Refusal(in.position(), "ActionSelector " + in.name() + " needs ActionSelector(action_profile, hash,"
                    + " SelectorMode_t.MODE, max_group_size, num_groups)" + (args.size() == 6
                    ? " (a Register of member bits is not supported by the lowering yet)" : ""));
        }
        if (!profiles.containsKey(ap.name())) {
            throw new Refusal(ap.position(), "ActionSelector " + in.name() + ": " + ap.name() + " is no ActionProfile of control "
                    + controlName + " (declare the profile first)");
        }
        if (!(args.get(1).value() instanceof Expression.Name h) || !hashes.containsKey(h.name())) {
            throw new Refusal(args.get(1).position(), "ActionSelector " + in.name() + ": the hash must name a Hash instance of control "
                    + controlName);
        }
        selectorMode(args.get(2));
        types.constant(args.get(3).value());
        types.constant(args.get(4).value());
    }

    /** Makes the ActionProfile or ActionSelector {@code implementation = x} names the table's implementation. */
    private void implementation(TableProperty.Property p, MatchTable table) {
        String name = p.value() instanceof Expression.Name n ? n.name() : "";
        if (refused.contains(name)) {
            indirectTables.add(table.name());
            return;
        }
        if (!profiles.containsKey(name) && !selectors.containsKey(name)) {
            throw new Refusal(p.position(), "table " + table.name() + ": implementation must name an ActionProfile or"
                    + " ActionSelector of control " + controlName);
        }
        Declaration.Instantiation sel = selectors.get(name);
        String profileName = sel == null ? name : ((Expression.Name) sel.arguments().get(0).value()).name();
        if (boundProfiles.containsKey(name)) {
            share(p, table, name);
            return;
        }
        if (implemented.contains(name) || implemented.contains(profileName)) {
            throw new Refusal(p.position(), "table " + table.name() + ": " + name + " already implements a table as "
                    + (sel == null ? "the profile of an ActionSelector" : "part of ActionProfile " + profileName)
                    + " (tables share one instance: name the same one in each implementation)");
        }
        // bound from here on, even if refused below: one mistake is one line, not also an unused profile
        implemented.add(name);
        implemented.add(profileName);
        indirectTables.add(table.name());
        List<Field> key = selectorKeys.getOrDefault(table.name(), List.of());
        int size = (int) types.constant(profiles.get(profileName).arguments().get(0).value());
        if (sel == null) {
            if (!key.isEmpty()) {
                throw new Refusal(p.position(), "table " + table.name() + " has selector key fields, but its implementation "
                        + name + " is an ActionProfile (an ActionSelector hashes them)");
            }
            boundProfiles.put(name, control.actionProfile(name, size, table));
            firstTables.put(name, table);
        } else {
            if (key.isEmpty()) {
                throw new Refusal(p.position(), "table " + table.name() + ": ActionSelector " + name + " needs key fields of"
                        + " match kind selector (the fields it hashes)");
            }
            List<Argument> args = sel.arguments();
            Declaration.Instantiation hash = hashes.get(((Expression.Name) args.get(1).value()).name());
            int maxGroup = (int) types.constant(args.get(3).value());
            int groups = (int) types.constant(args.get(4).value());
            if (maxGroup < 1 || maxGroup > ActionProfile.MAX_GROUP_SIZE || groups < 1) {
                throw new Refusal(sel.position(), "ActionSelector " + name + ": max_group_size " + maxGroup + " outside 1.."
                        + ActionProfile.MAX_GROUP_SIZE + " (Tofino's largest group) or num_groups " + groups + " < 1");
            }
            boundProfiles.put(name, control.actionSelector(profileName, size, name, hashAlgorithm(hash), hashWidth(hash),
                    selectorMode(args.get(2)), maxGroup, groups, table, key.toArray(new Field[0])));
            firstTables.put(name, table);
        }
    }

    /**
     * A second table naming the same ActionProfile or ActionSelector instance: it shares the
     * first table's members and groups. A selector's tables must hash the same selector key
     * (p4c's backends/bmv2/common/sharedActionSelectorCheck.cpp refuses differing inputs: the
     * selector has one Hash), and the tables must declare the same actions (a member runs in
     * either table).
     */
    private void share(TableProperty.Property p, MatchTable table, String name) {
        indirectTables.add(table.name());
        MatchTable first = firstTables.get(name);
        List<Field> key = selectorKeys.getOrDefault(table.name(), List.of());
        List<Field> firstKey = selectorKeys.getOrDefault(first.name(), List.of());
        if (firstKey.isEmpty() && !key.isEmpty()) {
            throw new Refusal(p.position(), "table " + table.name() + " has selector key fields, but its implementation "
                    + name + " is an ActionProfile (an ActionSelector hashes them)");
        }
        if (!key.equals(firstKey)) {
            throw new Refusal(p.position(), "tables " + first.name() + " and " + table.name() + " share " + name
                    + " but their selector keys differ (" + fieldNames(firstKey) + " vs " + fieldNames(key)
                    + "): the selector's one Hash hashes one key");
        }
        if (!table.actions().actions().equals(first.actions().actions())) {
            throw new Refusal(p.position(), "tables " + first.name() + " and " + table.name() + " share " + name
                    + " but declare different actions (a member's action runs in either table)");
        }
        boundProfiles.put(name, control.shareActionProfile(boundProfiles.get(name), table, key.toArray(new Field[0])));
    }

    private static String fieldNames(List<Field> fields) {
        List<String> out = new ArrayList<>();
        for (Field f : fields) {
            out.add(f.name());
        }
        return out.isEmpty() ? "none" : String.join(", ", out);
    }

    /** Tofino's hash algorithms by their TNA name, as rmtemu's hash units name them. */
    private static final Map<String, String> SELECTOR_HASHES = Map.of(
            "IDENTITY", "identity", "CRC8", "crc8", "CRC16", "crc16", "CRC32", "crc32");

    private static HashAlgorithm hashAlgorithm(Declaration.Instantiation hash) {
        Expression algo = hash.arguments().isEmpty() ? null : hash.arguments().get(0).value();
        String named = algo instanceof Expression.Member m && m.target() instanceof Expression.Name t
                && t.name().equals("HashAlgorithm_t") ? SELECTOR_HASHES.get(m.member()) : null;
        if (named == null) {
            throw new Refusal(hash.position(), "Hash " + hash.name() + " of an ActionSelector: the lowering supports"
                    + " HashAlgorithm_t.IDENTITY, CRC8, CRC16 and CRC32 there");
        }
        for (Annotation a : hash.annotations()) {
            // symmetric pairs are lowered for Hash.get only: refused here rather than ignored
            if (a.name().equals("symmetric")) {
                throw new Refusal(a.position(), "Hash " + hash.name() + " of an ActionSelector: @symmetric is not supported"
                        + " by the lowering there (it is on a Hash read with get)");
            }
        }
        return HashAlgorithm.byName(named);
    }

    private int hashWidth(Declaration.Instantiation hash) {
        List<TypeRef> typeArgs = hash.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        return typeArgs.size() == 1 ? types.width(typeArgs.get(0)) : 0;
    }

    private static SelectorMode selectorMode(Argument a) {
        String v = enumMember(a.value(), "SelectorMode_t");
        return switch (v == null ? "" : v) {
            case "FAIR" -> SelectorMode.FAIR;
            case "RESILIENT" -> SelectorMode.RESILIENT;
            default -> throw new Refusal(a.position(), "an ActionSelector's mode is SelectorMode_t.FAIR or RESILIENT");
        };
    }

    /** Every direct counter and meter belongs to a table (p4c refuses one that is not attached). */
    void checkBound() {
        for (Declaration.Instantiation in : profiles.values()) {
            if (!implemented.contains(in.name())) {
                throw new Refusal(in.position(), "ActionProfile " + in.name() + " is the implementation of no table (name it in"
                        + " a table's implementation property or an ActionSelector's)");
            }
        }
        for (Declaration.Instantiation in : selectors.values()) {
            if (!implemented.contains(in.name())) {
                throw new Refusal(in.position(), "ActionSelector " + in.name() + " is the implementation of no table (name it in"
                        + " a table's implementation property)");
            }
        }
        for (Map.Entry<String, SourcePosition> e : selectorTables.entrySet()) {
            if (!indirectTables.contains(e.getKey())) {
                throw new Refusal(e.getValue(), "table " + e.getKey() + " has key fields of match kind selector but no"
                        + " ActionSelector (implementation = ...)");
            }
        }
        for (Declaration.Instantiation in : directs.values()) {
            if (!counters.containsKey(in.name()) && !meters.containsKey(in.name())) {
                throw new Refusal(in.position(), Types.named(in.type()) + " " + in.name() + " is attached to no table "
                        + "(name it in a table's " + (Types.named(in.type()).equals("DirectCounter") ? "counters"
                        : Types.named(in.type()).equals("DirectMeter") ? "meters" : "filters")
                        + " property)");
            }
        }
    }

    /** Lowers {@code x.count(...)} (or a meter's execute whose colour is not kept); false when the call is no counter or meter's. */
    boolean call(Block code, Expression.Call call, Values values) {
        if (!(call.callee() instanceof Expression.Member m) || !(m.target() instanceof Expression.Name n)) {
            return false;
        }
        Counter c = counters.get(n.name());
        if (c != null && m.member().equals("count")) {
            List<Argument> args = call.arguments();
            int indexes = c.direct() ? 0 : 1;
            if (args.size() != indexes && args.size() != indexes + 1) {
                throw new Refusal(call.position(), (c.direct() ? "DirectCounter " + c.name() + ".count takes [adjust_byte_count]"
                        : "Counter " + c.name() + ".count takes (index[, adjust_byte_count])"));
            }
            Expr adjust = args.size() > indexes ? values.apply(args.get(indexes).value(), 32) : constant(0);
            if (c.direct()) {
                code.countDirect(c, adjust);
            } else {
                code.count(c, values.apply(args.get(0).value(), 32), adjust);
            }
            return true;
        }
        if (meters.containsKey(n.name()) && m.member().equals("execute")) {
            execute(code, call, values);
            return true;
        }
        return false;
    }

    /** True when {@code call} runs a meter of this control ({@code m.execute(...)}). */
    boolean isMeterExecute(Expression.Call call) {
        return call.callee() instanceof Expression.Member m && m.member().equals("execute")
                && m.target() instanceof Expression.Name n && meters.containsKey(n.name());
    }

    /**
     * Lowers {@code m.execute(...)}; returns its colour (read in the same action, as the meter
     * ALU's output is). Arguments: an indirect meter's index, then an optional pre-colour (a
     * {@code MeterColor_t} value: colour-aware), then an optional adjust_byte_count.
     */
    Expr execute(Block code, Expression.Call call, Values values) {
        Meter mt = meters.get(((Expression.Name) ((Expression.Member) call.callee()).target()).name());
        if (mt.filtersValue()) {
            return executeFilter(code, mt, call, values);
        }
        List<Argument> args = call.arguments();
        int at = 0;
        Expr index = constant(0);
        if (!mt.direct()) {
            if (args.isEmpty()) {
                throw new Refusal(call.position(), "Meter " + mt.name() + ".execute takes (index[, colour][, adjust_byte_count])");
            }
            index = values.apply(args.get(at++).value(), 32);
        }
        Expr pre = constant(MeterColor.GREEN);
        Expr adjust = constant(0);
        int rest = args.size() - at;
        if (rest == 2) {
            pre = colour(args.get(at).value(), values);
            adjust = values.apply(args.get(at + 1).value(), 32);
        } else if (rest == 1) {
            // TNA's overloads execute(index, colour[, adjust]) and execute(index[, adjust]): a MeterColor_t value or a
            // field is the pre-colour, any other compile-time constant the byte adjustment
            Expression e = args.get(at).value();
            if (colourLiteral(e) >= 0 || !types.isConstant(e)) {
                pre = colour(e, values);
            } else {
                adjust = values.apply(e, 32);
            }
        } else if (rest != 0) {
            throw new Refusal(call.position(), "execute of " + mt.name() + " takes at most a colour and an adjust_byte_count"
                    + " after " + (mt.direct() ? "nothing" : "the index"));
        }
        if (mt.direct()) {
            code.meterDirect(mt, pre, adjust);
        } else {
            code.meter(mt, index, pre, adjust);
        }
        return color(mt);
    }

    private static Expr colour(Expression e, Values values) {
        long literal = colourLiteral(e);
        return literal >= 0 ? constant(literal) : values.apply(e, 8);
    }

    /** {@code MeterColor_t.GREEN / YELLOW / RED} as TNA encodes them (0, 1, 3); -1 for anything else. */
    private static long colourLiteral(Expression e) {
        String v = enumMember(e, "MeterColor_t");
        return switch (v == null ? "" : v) {
            case "GREEN" -> MeterColor.GREEN;
            case "YELLOW" -> MeterColor.YELLOW;
            case "RED" -> MeterColor.RED;
            default -> -1;
        };
    }

    private void pin(Declaration.Instantiation in) {
        for (Annotation a : in.annotations()) {
            if (a.name().equals("stage")) {
                control.pin(in.name(), Integer.parseInt(String.join("", a.body()).trim()));
            }
        }
    }

    private int width(TypeRef w, Declaration.Instantiation in) {
        if (w instanceof TypeRef.DontCare) {
            throw new Refusal(w.position(), Types.named(in.type()) + " " + in.name() + ": give the counter's width as bit<W>"
                    + " (the lowering does not infer it)");
        }
        int bits = types.width(w);
        if (bits < 1 || bits > Counter.MAX_WIDTH) {
            throw new Refusal(w.position(), Types.named(in.type()) + " " + in.name() + ": width " + bits
                    + " outside 1.." + Counter.MAX_WIDTH + " (p4c's CounterPerWord: a counter is at most 64 bits)");
        }
        return bits;
    }

    private static CounterType counterType(Argument a) {
        String v = enumMember(a.value(), "CounterType_t");
        return switch (v == null ? "" : v) {
            case "PACKETS" -> CounterType.PACKETS;
            case "BYTES" -> CounterType.BYTES;
            case "PACKETS_AND_BYTES" -> CounterType.PACKETS_AND_BYTES;
            default -> throw new Refusal(a.position(), "a counter's type is CounterType_t.PACKETS, BYTES or PACKETS_AND_BYTES");
        };
    }

    private static MeterType meterType(Argument a) {
        String v = enumMember(a.value(), "MeterType_t");
        return switch (v == null ? "" : v) {
            case "PACKETS" -> MeterType.PACKETS;
            case "BYTES" -> MeterType.BYTES;
            default -> throw new Refusal(a.position(), "a meter's type is MeterType_t.PACKETS or BYTES");
        };
    }

    private static String enumMember(Expression e, String enumName) {
        return e instanceof Expression.Member m && m.target() instanceof Expression.Name t && t.name().equals(enumName)
                ? m.member() : null;
    }
}

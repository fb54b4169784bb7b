package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.p4.ast.Annotation;
import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.max;
import static dev.rmtemu.model.ir.Ir.min;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shl;
import static dev.rmtemu.model.ir.Ir.shr;
import static dev.rmtemu.model.ir.Ir.sub;
import static dev.rmtemu.model.ir.Ir.xor;

/**
 * A TNA ingress control lowered to an unplaced IR control (the compiler's table placement
 * gives it stages; {@code @stage(N)} pins a table). Tables become match tables whose action
 * ids are the actions' positions in the table's {@code actions} list, from 1; an entry's
 * action data packs the action's parameters in declaration order, the last in the low bits.
 * The default action (NoAction when none is given) is the miss. TNA's intrinsic metadata
 * are the engine's intrinsics (see {@link #INTRINSICS}).
 */
final class ControlLowering {
    /**
     * TNA's intrinsic metadata members the engine has, by {@code TYPE.member}. Ports: a
     * {@code PortId_t} value is rmtemu's port number as it is (front-panel ports 0..N-1 of
     * the target, recirculation ports 448 + pipe, 511 = none chosen, which drops the packet as
     * no_egress_port); Tofino's device-port numbering (pipe = port >> 7) is not applied.
     */
    static final Map<String, Intrinsic> INTRINSICS = Map.of(
            "ingress_intrinsic_metadata_t.ingress_port", Intrinsic.INGRESS_PORT,
            "ingress_intrinsic_metadata_t.ingress_mac_tstamp", Intrinsic.INGRESS_MAC_TSTAMP,
            "ingress_intrinsic_metadata_for_tm_t.ucast_egress_port", Intrinsic.UCAST_EGRESS_PORT,
            "ingress_intrinsic_metadata_for_tm_t.qid", Intrinsic.QID,
            "ingress_intrinsic_metadata_for_tm_t.mcast_grp_a", Intrinsic.MCAST_GRP,
            "ingress_intrinsic_metadata_for_deparser_t.drop_ctl", Intrinsic.DROP_CTL);

    /**
     * An action parameter: its bits of the action data before ({@code raw}) and after
     * ({@code masked}) the other parameters' bits are masked off; a write of it to a field no
     * wider than it uses {@code raw}, since the PHV container keeps only the field's bits.
     */
    private record Param(Expr raw, Expr masked, int width) {
    }

    private final ProgramBuilder b;
    private final ProgramBuilder.ControlBuilder c;
    private final Types types;
    private final Headers headers;
    private final Declaration.Control control;
    private final Map<String, String> paramTypes = new HashMap<>();
    private final Map<String, Declaration.Action> actions = new HashMap<>();
    private final Map<String, Declaration.Table> tableDecls = new HashMap<>();
    private final Map<String, MatchTable> tables = new HashMap<>();
    private final Map<String, Field> fields;
    private final Map<String, RegisterArray> registers = new HashMap<>();
    private final Map<String, Declaration.Instantiation> registerActionDecls = new HashMap<>();
    private final Map<String, RegisterActionLowering.Lowered> registerActions = new HashMap<>();
    private final Map<String, Declaration.Instantiation> hashDecls = new HashMap<>();
    private final Map<String, HashUnit> hashUnits = new HashMap<>();
    private final Map<String, Declaration.Instantiation> polynomials = new HashMap<>();
    private final Map<String, Declaration.StructLike> pairCells = new HashMap<>();
    private String headersParam;
    private String metadataParam;
    private Declaration.StructLike metadataStruct;

    private ControlLowering(ProgramBuilder b, Types types, Headers headers, Declaration.Control control, Map<String, Field> fields) {
        this.b = b;
        this.c = b.control(Gress.INGRESS);
        this.types = types;
        this.headers = headers;
        this.control = control;
        this.fields = fields;
    }

    /** Lowers the ingress control {@code (inout H, inout M, in ig_intr_md, in prsr_md, inout dprsr_md, inout tm_md)}. */
    static void lower(ProgramBuilder b, Types types, Headers headers, Declaration.Control control, Map<String, Field> fields) {
        new ControlLowering(b, types, headers, control, fields).lower();
    }

    private void lower() {
        List<Parameter> ps = control.type().parameters();
        if (ps.size() != 6) {
            throw new Refusal(control.position(), "ingress control " + control.name() + " must have TNA's six parameters");
        }
        headersParam = ps.get(0).name();
        metadataParam = ps.get(1).name();
        metadataStruct = types.structLike(ps.get(1).type());
        for (Parameter p : ps.subList(2, 6)) {
            paramTypes.put(p.name(), Types.named(p.type()));
        }
        for (Declaration d : control.locals()) {
            if (d instanceof Declaration.Action a) {
                actions.put(a.name(), a);
            } else if (d instanceof Declaration.Table t) {
                tableDecls.put(t.name(), t);
            } else if (d instanceof Declaration.Instantiation in) {
                instance(in);
            } else {
                throw new Refusal(d.position(), "this declaration in control " + control.name()
                        + " is not supported by the lowering (actions and tables are)");
            }
        }
        for (Map.Entry<String, Declaration.Instantiation> e : new TreeMap<>(registerActionDecls).entrySet()) {
            Declaration.Instantiation in = e.getValue();
            Expression reg = in.arguments().isEmpty() ? null : in.arguments().get(0).value();
            RegisterArray array = reg instanceof Expression.Name n ? registers.get(n.name()) : null;
            if (array == null) {
                throw new Refusal(in.position(), "RegisterAction " + in.name() + " must name a Register of control " + control.name());
            }
            RegisterActionLowering.Lowered l = RegisterActionLowering.lower(types, array,
                    pairCells.get(((Expression.Name) reg).name()), in, this::isField);
            c.action(l.action());
            registerActions.put(e.getKey(), l);
        }
        for (Declaration d : control.locals()) {
            if (d instanceof Declaration.Table t) {
                tables.put(t.name(), table(t));
            }
        }
        List<Refusal> inBody = new ArrayList<>();
        c.apply(code -> {
            try {
                statements(code, control.apply().statements(), Map.of());
            } catch (Refusal r) {
                inBody.add(r);
            }
        });
        if (!inBody.isEmpty()) {
            throw inBody.get(0);
        }
    }

    // ---- externs

    private void instance(Declaration.Instantiation in) {
        String type = Types.named(in.type());
        List<TypeRef> typeArgs = in.type() instanceof TypeRef.Named n
                ? n.arguments() : List.of();
        switch (type == null ? "" : type) {
            case "Register" -> {
                if (typeArgs.size() != 2 || in.arguments().isEmpty() || in.arguments().size() > 2) {
                    throw new Refusal(in.position(), "Register " + in.name() + " needs Register<bit<W>, I>(size[, initial_value])");
                }
                Declaration.StructLike pair = pairCell(in, typeArgs.get(0));
                if (in.arguments().size() == 2 && (pair != null || types.constant(in.arguments().get(1).value()) != 0)) {
                    throw new Refusal(in.arguments().get(1).position(), "Register " + in.name()
                            + ": an initial_value other than 0 is not supported by the lowering yet");
                }
                int size = (int) types.constant(in.arguments().get(0).value());
                RegisterArray r = pair == null ? c.register(in.name(), types.width(typeArgs.get(0)), size)
                        : c.register(in.name(), types.width(pair.fields().get(0).type()), true, size);
                if (pair != null) {
                    pairCells.put(in.name(), pair);
                }
                registers.put(in.name(), r);
                pin(in.annotations(), in.name());
            }
            case "RegisterAction" -> registerActionDecls.put(in.name(), in);
            case "Hash" -> {
                if (typeArgs.size() != 1 || in.arguments().isEmpty() || in.arguments().size() > 2) {
                    throw new Refusal(in.position(), "Hash " + in.name()
                            + " needs Hash<bit<W>>(HashAlgorithm_t.ALGO) or Hash<bit<W>>(HashAlgorithm_t.CUSTOM, polynomial)");
                }
                hashDecls.put(in.name(), in);
            }
            case "CRCPolynomial" -> polynomials.put(in.name(), in);
            default -> throw new Refusal(in.position(), "extern " + type + " (" + in.name() + ") is not supported by the lowering yet");
        }
    }

    private void pin(List<Annotation> annotations, String element) {
        for (Annotation a : annotations) {
            if (a.name().equals("stage")) {
                c.pin(element, Integer.parseInt(String.join("", a.body()).trim()));
            }
        }
    }

    /** Tofino's hash algorithms by their TNA name, as rmtemu's hash units name them. */
    private static final Map<String, String> ALGORITHMS = Map.of(
            "IDENTITY", "identity", "CRC8", "crc8", "CRC16", "crc16", "CRC32", "crc32");

    /** The hash unit of {@code h.get({fields})}: one per Hash instance (a second field list is refused). */
    private Expr hashGet(Expression.Call call, String name) {
        Declaration.Instantiation in = hashDecls.get(name);
        if (call.arguments().size() != 1 || !(call.arguments().get(0).value() instanceof Expression.ListExpression list)) {
            throw new Refusal(call.position(), "Hash " + name + ".get takes one list of fields ({a, b, ...})");
        }
        List<Field> inputs = new ArrayList<>();
        for (Expression e : list.elements()) {
            inputs.add(field(e));
        }
        HashUnit h = hashUnits.get(name);
        if (h != null) {
            // the same fields again (two register actions on one index): the one unit's output
            if (h.inputs().equals(inputs)) {
                return hash(h);
            }
            throw new Refusal(call.position(), "Hash " + name + " is used with two field lists; the lowering gives each Hash"
                    + " instance one list of fields");
        }
        Expression algo = in.arguments().get(0).value();
        boolean custom = algo instanceof Expression.Member m && m.target() instanceof Expression.Name t
                && t.name().equals("HashAlgorithm_t") && m.member().equals("CUSTOM");
        String algorithm = algo instanceof Expression.Member m && m.target() instanceof Expression.Name t
                && t.name().equals("HashAlgorithm_t") ? ALGORITHMS.get(m.member()) : null;
        if (algorithm == null && !custom || custom != (in.arguments().size() == 2)) {
            throw new Refusal(algo.position(), "hash algorithm " + RegisterActionLowering.path(algo)
                    + " is not supported by the lowering yet (IDENTITY, CRC8, CRC16, CRC32, and CUSTOM with a CRCPolynomial are)");
        }
        int bits = types.width(((TypeRef.Named) in.type()).arguments().get(0));
        HashAlgorithm function = custom ? polynomial(in.arguments().get(1).value()) : HashAlgorithm.byName(algorithm);
        h = c.hash(name, function, bits, inputs.toArray(new Field[0]));
        pin(in.annotations(), name);
        hashUnits.put(name, h);
        return hash(h);
    }

    /**
     * The CRC a {@code CRCPolynomial<bit<W>>(coeff, reversed, msb, extended, init, xor)} instance
     * names, as TNA documents its arguments: the polynomial without its x^W term, whether input
     * and output are bit-reflected, the initial value and the final XOR. An msb-first or
     * extended polynomial changes where Tofino takes the hash bits from; the lowering supports
     * the plain form (msb and extended false).
     */
    private HashAlgorithm polynomial(Expression e) {
        Declaration.Instantiation p = e instanceof Expression.Name n ? polynomials.get(n.name()) : null;
        if (p == null) {
            throw new Refusal(e.position(), "a CUSTOM hash names a CRCPolynomial instance of control " + control.name());
        }
        List<TypeRef> typeArgs = p.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        if (typeArgs.size() != 1 || p.arguments().size() != 6) {
            throw new Refusal(p.position(), "CRCPolynomial " + p.name() + " needs CRCPolynomial<bit<W>>(coeff, reversed, msb, extended, init, xor)");
        }
        if (types.constant(p.arguments().get(2).value()) != 0 || types.constant(p.arguments().get(3).value()) != 0) {
            throw new Refusal(p.position(), "CRCPolynomial " + p.name() + ": msb or extended true is not supported by the lowering yet");
        }
        int width = types.width(typeArgs.get(0));
        boolean reversed = types.constant(p.arguments().get(1).value()) != 0;
        long mask = Types.longMask(width);
        return new Crc(p.name(), width, types.constant(p.arguments().get(0).value()) & mask,
                types.constant(p.arguments().get(4).value()) & mask, reversed, reversed,
                types.constant(p.arguments().get(5).value()) & mask);
    }

    /** The struct of a pair register's cell (two fields of one width, lo then hi), null for a scalar cell. */
    private Declaration.StructLike pairCell(Declaration.Instantiation in, TypeRef cell) {
        Declaration.StructLike s = types.structLike(cell);
        if (s == null) {
            return null;
        }
        if (s.kind() != Declaration.StructLike.Kind.STRUCT || s.fields().size() != 2
                || types.width(s.fields().get(0).type()) != types.width(s.fields().get(1).type())) {
            throw new Refusal(in.position(), "Register " + in.name() + ": a struct cell is a pair of two fields of one width (lo, hi)");
        }
        return s;
    }

    private boolean isField(Expression e) {
        try {
            field(e);
            return true;
        } catch (Refusal r) {
            return false;
        }
    }

    private RegisterActionLowering.Lowered registerAction(Expression callee) {
        if (callee instanceof Expression.Member m && m.member().equals("execute") && m.target() instanceof Expression.Name n) {
            return registerActions.get(n.name());
        }
        return null;
    }

    private void execute(Block code, Expression.Call call, RegisterActionLowering.Lowered ra, Map<String, Param> params) {
        if (call.arguments().size() != 1) {
            throw new Refusal(call.position(), "execute takes the cell's index");
        }
        Expr index = value(call.arguments().get(0).value(), params, 32);
        List<Expression> inputs = ra.inputs();
        Expr lo = inputs.isEmpty() ? constant(0) : read(field(inputs.get(0)));
        if (inputs.size() < 2) {
            code.execute(ra.action(), index, lo);
        } else {
            code.execute(ra.action(), index, lo, read(field(inputs.get(1))));
        }
    }

    // ---- tables

    private MatchTable table(Declaration.Table t) {
        List<Field> key = new ArrayList<>();
        // the control plane's view: ids are positions in the actions list (as applyTable numbers them), P4's names
        List<TableAction> named = new ArrayList<>();
        String defaultName = "NoAction";
        boolean defaultConst = false;
        MatchKind kind = null;
        int size = 512;
        int dataBits = 0;
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Key k) {
                for (TableProperty.KeyElement e : k.elements()) {
                    MatchKind mk = switch (e.matchKind()) {
                        case "exact" -> MatchKind.EXACT;
                        case "ternary" -> MatchKind.TERNARY;
                        case "lpm" -> MatchKind.LPM;
                        default -> throw new Refusal(e.position(), "match kind " + e.matchKind() + " is not supported by the lowering yet");
                    };
                    if (kind != null && kind != mk) {
                        throw new Refusal(e.position(), "table " + t.name() + " mixes match kinds; the lowering supports one kind per table");
                    }
                    kind = mk;
                    key.add(field(e.expression()));
                }
            } else if (p instanceof TableProperty.Actions as) {
                for (TableProperty.ActionRef r : as.actions()) {
                    Declaration.Action a = action(r.name(), r.position());
                    dataBits = Math.max(dataBits, paramBits(a));
                    named.add(namedAction(named.size() + 1, r.name(), a));
                }
            } else if (p instanceof TableProperty.Property pr) {
                switch (pr.name()) {
                    case "size" -> size = (int) types.constant(pr.value());
                    case "default_action" -> {
                        if (pr.value() instanceof Expression.Call call && call.callee() instanceof Expression.Name n) {
                            defaultName = n.name();
                        }
                        defaultConst = pr.constant();
                    }
                    default -> throw new Refusal(pr.position(), "table property " + pr.name() + " is not supported by the lowering yet");
                }
            } else if (p instanceof TableProperty.Entries en) {
                throw new Refusal(en.position(), "entries of table " + t.name() + " are not supported by the lowering yet");
            }
        }
        if (key.isEmpty()) {
            throw new Refusal(t.position(), "table " + t.name() + " has no key; keyless tables are not supported by the lowering yet");
        }
        if (dataBits > 64) {
            throw new Refusal(t.position(), "table " + t.name() + ": action parameters of " + dataBits + " bits; the lowering carries at most 64");
        }
        MatchTable m = c.table(t.name(), kind, size, dataBits, new TableActions(named, defaultName, defaultConst),
                key.toArray(new Field[0]));
        pin(t.annotations(), t.name());
        return m;
    }

    private Declaration.Action action(String name, SourcePosition at) {
        if (name.equals("NoAction")) {
            return null;
        }
        Declaration.Action a = actions.get(name);
        if (a == null) {
            throw new Refusal(at, "action " + name + " is not declared in control " + control.name());
        }
        return a;
    }

    /** Action {@code name} as control scripts name it: its parameters' names and widths, in declaration order. */
    private TableAction namedAction(int id, String name, Declaration.Action a) {
        List<Object> pairs = new ArrayList<>();
        if (a != null) {
            for (Parameter p : a.parameters()) {
                pairs.add(p.name());
                pairs.add(types.width(p.type()));
            }
        }
        return TableAction.of(id, name, pairs.toArray());
    }

    private int paramBits(Declaration.Action a) {
        int bits = 0;
        if (a != null) {
            for (Parameter p : a.parameters()) {
                bits += types.width(p.type());
            }
        }
        return bits;
    }

    /** What runs after a table's action: per action name, or for a hit or a miss ({@code .hit}, {@code .miss}, {@code action_run}). */
    private interface After {
        /** Statements after action {@code action} ran, on a hit ({@code hit}) or as the default action on a miss. */
        Consumer<Block> after(String action, boolean hit);
    }

    private static final After NOTHING = (action, hit) -> x -> { };

    private void applyTable(Block code, Statement at, String name, After after) {
        MatchTable m = tables.get(name);
        Declaration.Table t = tableDecls.get(name);
        if (m == null) {
            throw new Refusal(at.position(), "table " + name + " is not declared in control " + control.name());
        }
        Block.TableApply apply = code.apply(m);
        int id = 0;
        TableProperty.ActionRef defaultAction = null;
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Actions as) {
                for (TableProperty.ActionRef r : as.actions()) {
                    id++;
                    Declaration.Action a = action(r.name(), r.position());
                    Map<String, Param> params = actionDataParams(a, m);
                    Consumer<Block> then = after.after(r.name(), true);
                    apply.on(id, blk -> {
                        body(blk, a, params);
                        then.accept(blk);
                    });
                }
            } else if (p instanceof TableProperty.Property pr && pr.name().equals("default_action")) {
                if (!(pr.value() instanceof Expression.Call call) || !(call.callee() instanceof Expression.Name n)) {
                    throw new Refusal(pr.position(), "default_action must be an action call");
                }
                defaultAction = new TableProperty.ActionRef(pr.position(), List.of(), n.name(), call.arguments());
            }
        }
        Declaration.Action a = defaultAction == null ? null : action(defaultAction.name(), defaultAction.position());
        Map<String, Param> params = defaultAction == null ? Map.of()
                : constantParams(a, defaultAction.arguments(), defaultAction.position());
        Consumer<Block> then = after.after(defaultAction == null ? "NoAction" : defaultAction.name(), false);
        apply.miss(blk -> {
            body(blk, a, params);
            then.accept(blk);
        });
    }

    /** {@code switch (t.apply().action_run) { a: {...} b: c: {...} default: {...} }}: each case runs after its actions. */
    private void switchOnAction(Block code, Statement.Switch sw, String table, Map<String, Param> params) {
        Map<String, Statement.Block> cases = new HashMap<>();
        Statement.Block otherwise = null;
        List<String> pending = new ArrayList<>();
        for (Statement.SwitchCase sc : sw.cases()) {
            if (sc.label() == null || sc.label() instanceof Expression.Default) {
                otherwise = sc.body();
                continue;
            }
            if (!(sc.label() instanceof Expression.Name n)) {
                throw new Refusal(sc.position(), "a case of switch (action_run) names an action");
            }
            pending.add(n.name());
            if (sc.body() != null) {
                for (String label : pending) {
                    cases.put(label, sc.body());
                }
                pending.clear();
            }
        }
        Statement.Block fallback = otherwise;
        applyTable(code, sw, table, (action, hit) -> {
            Statement.Block blk = cases.getOrDefault(action, fallback);
            return blk == null ? x -> { } : x -> statement(x, blk, params);
        });
    }

    /** The table of {@code t.apply().hit}, {@code .miss} or {@code .action_run}, or null. */
    private String appliedTable(Expression e, String member) {
        if (e instanceof Expression.Member m && m.member().equals(member) && m.target() instanceof Expression.Call call
                && call.arguments().isEmpty() && call.callee() instanceof Expression.Member ap && ap.member().equals("apply")
                && ap.target() instanceof Expression.Name n && tableDecls.containsKey(n.name())) {
            return n.name();
        }
        return null;
    }

    /** Each parameter as its bits of the entry's action data (the last parameter in the low bits). */
    private Map<String, Param> actionDataParams(Declaration.Action a, MatchTable m) {
        Map<String, Param> params = new HashMap<>();
        if (a == null) {
            return params;
        }
        int shift = 0;
        List<Parameter> ps = a.parameters();
        for (int i = ps.size() - 1; i >= 0; i--) {
            int w = types.width(ps.get(i).type());
            Expr e = shift == 0 ? actionData(m) : shr(actionData(m), constant(shift));
            params.put(ps.get(i).name(), new Param(e, shift + w >= m.actionDataBits() ? e : and(e, constant(Types.longMask(w))), w));
            shift += w;
        }
        return params;
    }

    private Map<String, Param> constantParams(Declaration.Action a, List<Argument> args, SourcePosition at) {
        Map<String, Param> params = new HashMap<>();
        int n = a == null ? 0 : a.parameters().size();
        if (args.size() != n) {
            throw new Refusal(at, "action " + (a == null ? "NoAction" : a.name()) + " takes " + n + " arguments, given " + args.size());
        }
        for (int i = 0; i < n; i++) {
            Parameter p = a.parameters().get(i);
            Expr v = constant(types.constant(args.get(i).value()) & Types.longMask(types.width(p.type())));
            params.put(p.name(), new Param(v, v, 64));
        }
        return params;
    }

    private void body(Block blk, Declaration.Action a, Map<String, Param> params) {
        if (a != null) {
            statements(blk, a.body().statements(), params);
        }
    }

    // ---- statements

    private void statements(Block code, List<Statement> stmts, Map<String, Param> params) {
        for (Statement s : stmts) {
            statement(code, s, params);
        }
    }

    private void statement(Block code, Statement s, Map<String, Param> params) {
        if (s instanceof Statement.Assignment a && a.value() instanceof Expression.Call call && registerAction(call.callee()) != null) {
            RegisterActionLowering.Lowered ra = registerAction(call.callee());
            execute(code, call, ra, params);
            code.set(field(a.target()), output(ra.action()));
        } else if (s instanceof Statement.Assignment a) {
            Field dest = field(a.target());
            code.set(dest, top(a.value(), params, dest.width()));
        } else if (s instanceof Statement.Block blk) {
            statements(code, blk.statements(), params);
        } else if (s instanceof Statement.Empty) {
            return;
        } else if (s instanceof Statement.If i && (appliedTable(i.condition(), "hit") != null
                || appliedTable(i.condition(), "miss") != null)) {
            boolean onHit = appliedTable(i.condition(), "hit") != null;
            String table = onHit ? appliedTable(i.condition(), "hit") : appliedTable(i.condition(), "miss");
            Consumer<Block> then = x -> statement(x, i.then(), params);
            Consumer<Block> otherwise = i.otherwise() == null ? x -> { } : x -> statement(x, i.otherwise(), params);
            applyTable(code, s, table, (action, hit) -> hit == onHit ? then : otherwise);
        } else if (s instanceof Statement.Switch sw && appliedTable(sw.selector(), "action_run") != null) {
            switchOnAction(code, sw, appliedTable(sw.selector(), "action_run"), params);
        } else if (s instanceof Statement.If i) {
            Consumer<Block> then = x -> statement(x, i.then(), params);
            Consumer<Block> otherwise = i.otherwise() == null ? x -> { } : x -> statement(x, i.otherwise(), params);
            branch(code, i.condition(), then, otherwise, params);
        } else if (s instanceof Statement.CallStatement cs) {
            call(code, cs, params);
        } else {
            throw new Refusal(s.position(), statementName(s) + " is not supported by the lowering yet");
        }
    }

    private static String statementName(Statement s) {
        if (s instanceof Statement.Exit) {
            return "exit";
        }
        if (s instanceof Statement.Switch) {
            return "switch";
        }
        if (s instanceof Statement.Return) {
            return "return";
        }
        if (s instanceof Statement.Local) {
            return "a local declaration";
        }
        return "this statement";
    }

    private void call(Block code, Statement.CallStatement cs, Map<String, Param> params) {
        Expression.Call call = cs.call();
        if (registerAction(call.callee()) != null) {
            execute(code, call, registerAction(call.callee()), params);
            return;
        }
        if (call.callee() instanceof Expression.Member m) {
            if (m.member().equals("apply") && m.target() instanceof Expression.Name n && tableDecls.containsKey(n.name())) {
                applyTable(code, cs, n.name(), NOTHING);
                return;
            }
            if ((m.member().equals("setValid") || m.member().equals("setInvalid")) && call.arguments().isEmpty()) {
                code.set(validBit(m.target()), m.member().equals("setValid") ? 1 : 0);
                return;
            }
        }
        if (call.callee() instanceof Expression.Name n && actions.containsKey(n.name())) {
            Declaration.Action a = actions.get(n.name());
            Map<String, Param> args = new HashMap<>();
            if (call.arguments().size() != a.parameters().size()) {
                throw new Refusal(cs.position(), "action " + a.name() + " takes " + a.parameters().size() + " arguments, given "
                        + call.arguments().size());
            }
            for (int i = 0; i < call.arguments().size(); i++) {
                Parameter p = a.parameters().get(i);
                int w = types.width(p.type());
                Expr v = value(call.arguments().get(i).value(), params, w);
                args.put(p.name(), new Param(v, v, w));
            }
            body(code, a, args);
            return;
        }
        throw new Refusal(cs.position(), "this call is not supported by the lowering yet (table apply, setValid,"
                + " setInvalid and action calls are)");
    }

    private void branch(Block code, Expression cond, Consumer<Block> then, Consumer<Block> otherwise, Map<String, Param> params) {
        if (cond instanceof Expression.Binary bin && bin.operator().equals("&&")) {
            branch(code, bin.left(), x -> branch(x, bin.right(), then, otherwise, params), otherwise, params);
        } else if (cond instanceof Expression.Binary bin && bin.operator().equals("||")) {
            branch(code, bin.left(), then, x -> branch(x, bin.right(), then, otherwise, params), params);
        } else if (cond instanceof Expression.Unary u && u.operator().equals("!")) {
            branch(code, u.operand(), otherwise, then, params);
        } else {
            code.when(condition(cond, params), then, otherwise);
        }
    }

    private Condition condition(Expression e, Map<String, Param> params) {
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("isValid")
                && call.arguments().isEmpty()) {
            return new Condition(read(validBit(m.target())), CmpOp.EQ, constant(1));
        }
        if (e instanceof Expression.Binary bin) {
            CmpOp op = switch (bin.operator()) {
                case "==" -> CmpOp.EQ;
                case "!=" -> CmpOp.NE;
                case "<" -> CmpOp.LT;
                case "<=" -> CmpOp.LE;
                case ">" -> CmpOp.GT;
                case ">=" -> CmpOp.GE;
                default -> null;
            };
            if (op != null) {
                int w = Math.max(width(bin.left(), params), width(bin.right(), params));
                return new Condition(value(bin.left(), params, w), op, value(bin.right(), params, w));
            }
        }
        throw new Refusal(e.position(), "this condition is not supported by the lowering yet (comparisons, isValid(), && || ! are)");
    }

    // ---- expressions

    /** An expression's width: a field's or parameter's, a cast's, a slice's; 0 for an unsized constant. */
    private int width(Expression e, Map<String, Param> params) {
        if (e instanceof Expression.Cast c) {
            return types.width(c.type());
        }
        if (e instanceof Expression.Slice s) {
            return (int) (types.constant(s.high()) - types.constant(s.low()) + 1);
        }
        if (e instanceof Expression.IntegerLiteral l) {
            return l.width() == null ? 0 : l.width();
        }
        if (e instanceof Expression.Binary bin) {
            return Math.max(width(bin.left(), params), width(bin.right(), params));
        }
        if (e instanceof Expression.Unary u) {
            return width(u.operand(), params);
        }
        if (types.isConstant(e)) {
            return 0;
        }
        if (e instanceof Expression.Name) {
            return 64;
        }
        return field(e).width();
    }

    /**
     * The value written to a field of {@code width} bits: the PHV container keeps only the
     * field's bits, so the outermost wrap-around masks of + - << and a parameter's mask are
     * left out (each would be one more ALU operation on Tofino).
     */
    private Expr top(Expression e, Map<String, Param> params, int width) {
        if (e instanceof Expression.Name n && params.containsKey(n.name())) {
            Param p = params.get(n.name());
            return width <= p.width() ? p.raw() : p.masked();
        }
        if (e instanceof Expression.Binary bin && !types.isConstant(e)) {
            Expr l = value(bin.left(), params, width);
            Expr r = value(bin.right(), params, width);
            switch (bin.operator()) {
                case "+": return add(l, r);
                case "-": return sub(l, r);
                case "<<": return shl(l, r);
                default: break;
            }
        }
        return value(e, params, width);
    }

    /** An expression's value at {@code width} bits (the specification's unsigned arithmetic modulo 2^width). */
    private Expr value(Expression e, Map<String, Param> params, int width) {
        long mask = Types.longMask(width == 0 ? 64 : width);
        if (types.isConstant(e)) {
            return constant(types.constant(e) & mask);
        }
        if (e instanceof Expression.Name n && params.containsKey(n.name())) {
            return params.get(n.name()).masked();
        }
        if (e instanceof Expression.Cast c) {
            int w = types.width(c.type());
            return and(value(c.operand(), params, w), constant(Types.longMask(w)));
        }
        if (e instanceof Expression.Slice s) {
            int lo = (int) types.constant(s.low());
            int hi = (int) types.constant(s.high());
            Expr v = value(s.target(), params, 64);
            return and(lo == 0 ? v : shr(v, constant(lo)), constant(Types.longMask(hi - lo + 1)));
        }
        if (e instanceof Expression.Unary u && u.operator().equals("~")) {
            return and(xor(value(u.operand(), params, width), constant(-1L)), constant(mask));
        }
        if (e instanceof Expression.Binary bin) {
            Expr l = value(bin.left(), params, width);
            Expr r = value(bin.right(), params, width);
            return switch (bin.operator()) {
                case "+" -> and(add(l, r), constant(mask));
                case "-" -> and(sub(l, r), constant(mask));
                case "&" -> and(l, r);
                case "|" -> or(l, r);
                case "^" -> xor(l, r);
                case "<<" -> and(shl(l, r), constant(mask));
                case ">>" -> shr(l, r);
                default -> throw new Refusal(bin.position(), "operator " + bin.operator() + " is not supported by the lowering yet");
            };
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("get")
                && m.target() instanceof Expression.Name n && hashDecls.containsKey(n.name())) {
            return hashGet(call, n.name());
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Name f
                && (f.name().equals("max") || f.name().equals("min")) && call.arguments().size() == 2) {
            // TNA's max/min: one ALU operation of the container ALU (unsigned)
            Expr l = value(call.arguments().get(0).value(), params, width);
            Expr r = value(call.arguments().get(1).value(), params, width);
            return f.name().equals("max") ? max(l, r) : min(l, r);
        }
        if (e instanceof Expression.Member || e instanceof Expression.Name) {
            return read(field(e));
        }
        throw new Refusal(e.position(), "this expression is not supported by the lowering yet");
    }

    /** The PHV field an l-value or a read names: a header field, a metadata field, an intrinsic. */
    private Field field(Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && n.name().equals(headersParam)) {
            Headers.Instance hi = headers.instance(h.member());
            if (hi == null || hi.width(m.member()) < 0) {
                throw new Refusal(e.position(), h.member() + "." + m.member() + " is not a field of the program's headers");
            }
            String wire = h.member() + "." + m.member();
            Field f = fields.get(wire);
            if (f == null) {
                f = b.header(wire);
                fields.put(wire, f);
            }
            return f;
        }
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n) {
            if (n.name().equals(metadataParam) && metadataStruct != null) {
                for (Declaration.Field mf : metadataStruct.fields()) {
                    if (mf.name().equals(m.member())) {
                        String name = n.name() + "." + m.member();
                        Field f = fields.get(name);
                        if (f == null) {
                            f = b.metadata(Gress.INGRESS, name, types.width(mf.type()));
                            fields.put(name, f);
                        }
                        return f;
                    }
                }
                throw new Refusal(e.position(), m.member() + " is not a field of " + metadataStruct.name());
            }
            String type = paramTypes.get(n.name());
            if (type != null) {
                Intrinsic i = INTRINSICS.get(type + "." + m.member());
                if (i == null) {
                    throw new Refusal(e.position(), "intrinsic metadata " + n.name() + "." + m.member()
                            + " is not supported by the lowering yet");
                }
                return b.intrinsic(i);
            }
        }
        throw new Refusal(e.position(), "this is not a field the lowering can read or write (header, metadata and"
                + " intrinsic metadata fields are)");
    }

    private Field validBit(Expression header) {
        if (header instanceof Expression.Member h && h.target() instanceof Expression.Name n && n.name().equals(headersParam)
                && headers.instance(h.member()) != null) {
            String name = h.member() + ProgramBuilder.VALID_SUFFIX;
            Field f = fields.get(name);
            if (f == null) {
                f = b.valid(h.member());
                fields.put(name, f);
            }
            return f;
        }
        throw new Refusal(header.position(), "not a header of the program's headers struct");
    }
}

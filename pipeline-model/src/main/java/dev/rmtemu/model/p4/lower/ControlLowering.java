package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.VliwOp;
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

import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.actionData;
import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.concat;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.max;
import static dev.rmtemu.model.ir.Ir.min;
import static dev.rmtemu.model.ir.Ir.op;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.saturatingAdd;
import static dev.rmtemu.model.ir.Ir.saturatingSub;
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
     * {@code PortId_t} value is TNA's number (pipe = port >> 7, the recirculation port pipe << 7
     * | 68, 511 = none chosen, which drops the packet as no_egress_port); the engine maps it to
     * and from rmtemu's ports at the intrinsics ({@link dev.rmtemu.model.phv.ProgramPorts}).
     */
    static final Map<String, Intrinsic> INTRINSICS = Map.ofEntries(
            Map.entry("ingress_intrinsic_metadata_t.ingress_port", Intrinsic.INGRESS_PORT),
            Map.entry("ingress_intrinsic_metadata_t.ingress_mac_tstamp", Intrinsic.INGRESS_MAC_TSTAMP),
            Map.entry("ingress_intrinsic_metadata_from_parser_t.global_tstamp", Intrinsic.INGRESS_GLOBAL_TSTAMP),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.ucast_egress_port", Intrinsic.UCAST_EGRESS_PORT),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.qid", Intrinsic.QID),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.mcast_grp_a", Intrinsic.MCAST_GRP),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.mcast_grp_b", Intrinsic.MCAST_GRP_B),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.level1_exclusion_id", Intrinsic.LEVEL1_EXCLUSION_ID),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.level2_exclusion_id", Intrinsic.LEVEL2_EXCLUSION_ID),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.rid", Intrinsic.RID),
            Map.entry("ingress_intrinsic_metadata_for_tm_t.bypass_egress", Intrinsic.BYPASS_EGRESS),
            Map.entry("ingress_intrinsic_metadata_for_deparser_t.drop_ctl", Intrinsic.DROP_CTL),
            Map.entry("ingress_intrinsic_metadata_for_deparser_t.digest_type", Intrinsic.DIGEST_TYPE),
            Map.entry("ingress_intrinsic_metadata_for_deparser_t.mirror_type", Intrinsic.MIRROR_TYPE),
            Map.entry("ingress_intrinsic_metadata_for_deparser_t.resubmit_type", Intrinsic.RESUBMIT),
            Map.entry("ingress_intrinsic_metadata_t.resubmit_flag", Intrinsic.RESUBMIT_FLAG),
            Map.entry("egress_intrinsic_metadata_t.egress_port", Intrinsic.EGRESS_PORT),
            Map.entry("egress_intrinsic_metadata_t.egress_qid", Intrinsic.EGRESS_QID),
            Map.entry("egress_intrinsic_metadata_t.egress_rid", Intrinsic.EGRESS_RID),
            Map.entry("egress_intrinsic_metadata_t.enq_qdepth", Intrinsic.ENQ_QDEPTH),
            Map.entry("egress_intrinsic_metadata_t.enq_tstamp", Intrinsic.ENQ_TSTAMP),
            Map.entry("egress_intrinsic_metadata_t.deq_qdepth", Intrinsic.DEQ_QDEPTH),
            Map.entry("egress_intrinsic_metadata_t.deq_timedelta", Intrinsic.DEQ_TIMEDELTA),
            Map.entry("egress_intrinsic_metadata_t.pkt_length", Intrinsic.PKT_LENGTH),
            Map.entry("egress_intrinsic_metadata_from_parser_t.global_tstamp", Intrinsic.EGRESS_GLOBAL_TSTAMP),
            Map.entry("egress_intrinsic_metadata_for_deparser_t.drop_ctl", Intrinsic.EGRESS_DROP_CTL),
            Map.entry("egress_intrinsic_metadata_for_deparser_t.mirror_type", Intrinsic.EGRESS_MIRROR_TYPE));

    /**
     * An action parameter: its bits of the action data before ({@code raw}) and after
     * ({@code masked}) the other parameters' bits are masked off; a write of it to a field no
     * wider than it uses {@code raw}, since the PHV container keeps only the field's bits.
     */
    private record Param(Expr raw, Expr masked, int width) {
    }

    private final ProgramBuilder b;
    private final Gress gress;
    /** The control that applies this one as a sub-control instance, or null for the gress's control. */
    private final ControlLowering parent;
    /** The instance path of a sub-control ({@code outer.inner}), or the control's name; names its locals and elements. */
    private final String scope;
    /** Prefix of this control's tables, registers, register actions and hashes: "" for the gress's control, else {@code scope.}. */
    private final String prefix;
    /** A sub-control's parameters, each bound to the expression its {@code apply} passed (in the parent's scope). */
    private final Map<String, Expression> bindings;
    /** Sub-control instances declared here, by instance name, and those applied already. */
    private final Map<String, Declaration.Instantiation> subControls = new HashMap<>();
    private final Set<String> appliedSubControls = new HashSet<>();
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
    /** The struct of each pair register (lo = its first field, hi = its second). */
    private final Map<String, Declaration.StructLike> pairs = new HashMap<>();
    private final Map<String, Declaration.Instantiation> registerActionDecls = new HashMap<>();
    private final Map<String, RegisterActionLowering.Lowered> registerActions = new HashMap<>();
    /** TNA RegisterParams of this control by P4 name. */
    private final Map<String, RegisterArray.Param> registerParams = new HashMap<>();
    /**
     * Per param, the array whose register actions read it, and per array its register-file rows in the
     * order the actions (by name) first read them: bf-p4c extract_maupipe.cpp
     * AttachTables::InitializeRegisterParams binds a param to one stateful ALU and gives it a regfile row.
     */
    private final Map<String, RegisterArray> paramArrays = new HashMap<>();
    private final Map<RegisterArray, List<RegisterArray.Param>> paramRows = new LinkedHashMap<>();
    private final Map<String, Declaration.Instantiation> hashDecls = new HashMap<>();
    /** TNA's Random instances, and the hash unit each one's {@code get()} reads. */
    private final Map<String, Declaration.Instantiation> randomDecls = new HashMap<>();
    private final Map<String, HashUnit> randomUnits = new HashMap<>();
    /** The run's seed, from which each Random instance's is derived. */
    private long randomSeed;
    private final Map<String, HashUnit> hashUnits = new HashMap<>();
    /** Counters and meters (ExternLowering). */
    private final ExternLowering externs;
    /** Idle timeouts and Alpm implementations of the control's tables. */
    private final TableOptionsLowering tableOptions;
    /** DirectRegisters and DirectRegisterActions (bound to a table by its registers property). */
    private final DirectRegisterLowering directRegisters;
    /** The tables whose action code is being lowered, innermost first: where a direct register's action may run. */
    private final Deque<MatchTable> applying = new ArrayDeque<>();
    private final Map<String, Declaration.Instantiation> polynomials = new HashMap<>();
    /** Local variables in scope (a block's declarations end with it), each a metadata field of the gress. */
    private Map<String, Field> locals = new HashMap<>();
    /**
     * Locals of a header or struct type (and their members of such types) by path ({@code copy},
     * {@code s.inner}): each scalar member is a metadata field in {@link #locals} under its path
     * ({@code copy.dst_addr}), a header's validity a 1-bit field under {@code copy.$valid}.
     */
    private Map<String, Declaration.StructLike> aggregateLocals = new HashMap<>();
    private final Map<String, Integer> localNames = new HashMap<>();
    /**
     * Fields that hold a register action's output ({@code f = ra.execute(i);} earlier in the
     * same straight-line code, {@code f} not written since). An assignment there that reads
     * {@code f} reads the output itself, as P4's sequential semantics say, so the instruction
     * stays in the action that runs the stateful ALU, in its stage (the output feeds only that
     * action's instructions: a branch of a gateway or a table's action is another, and reads
     * the field, in a later stage). A branch starts with nothing held, and so does the code
     * after a statement with branches.
     */
    private Map<Field, Expr> heldOutputs = new HashMap<>();
    /** True while an assignment's value is lowered: only there is a held output read in place of its field. */
    private boolean substituting;
    /**
     * Exit flags that an {@code exit} sets (p4c's RemoveExits): one per statement that may exit
     * and has statements after it, which run only while its flag is 0. Each flag is written
     * only before its test, so a gateway that spans stages reads the same value in each.
     */
    private final Deque<Field> exitListeners;
    private int exitFlags;
    /**
     * Fields of type {@code int<W>} (metadata and locals): two's complement in the PHV, so + - & | ^ <<
     * and == != are the unsigned operations; an ordering comparison with a constant becomes
     * unsigned comparisons around 2^(W-1).
     */
    private final Set<Field> signedFields = new HashSet<>();
    /** Declarations that were refused: a use of one is not reported again. */
    private final Set<String> refused = new HashSet<>();
    private final List<Refusal> errors;
    private String headersParam;
    private String metadataParam;
    private Declaration.StructLike metadataStruct;

    private ControlLowering(ProgramBuilder b, Gress gress, Types types, Headers headers, Declaration.Control control,
                            Map<String, Field> fields, List<Refusal> errors) {
        this.b = b;
        this.gress = gress;
        this.parent = null;
        this.scope = control.name();
        this.prefix = "";
        this.bindings = Map.of();
        this.c = b.control(gress);
        this.errors = errors;
        this.types = types;
        this.headers = headers;
        this.control = control;
        this.fields = fields;
        this.externs = new ExternLowering(types, c, control.name());
        this.tableOptions = new TableOptionsLowering(types);
        this.directRegisters = new DirectRegisterLowering(types, c, control.name(), prefix);
        this.exitListeners = new ArrayDeque<>();
    }

    /** A sub-control instance {@code instance} of {@code parent}, its parameters bound and its constructor's constants in {@code types}. */
    private ControlLowering(ControlLowering parent, Declaration.Control control, String instance, Map<String, Expression> bindings,
                            Types types) {
        this.b = parent.b;
        this.gress = parent.gress;
        this.parent = parent;
        this.scope = parent.scope + "." + instance;
        this.prefix = parent.prefix + instance + ".";
        this.bindings = bindings;
        this.c = parent.c;
        this.errors = parent.errors;
        this.types = types;
        this.headers = parent.headers;
        this.control = control;
        this.fields = parent.fields;
        this.externs = new ExternLowering(types, c, control.name());
        this.tableOptions = new TableOptionsLowering(types);
        this.directRegisters = new DirectRegisterLowering(types, c, control.name(), prefix);
        this.randomSeed = parent.randomSeed;
        // exit in a sub-control ends the whole control: it sets the flags its callers listen to
        this.exitListeners = parent.exitListeners;
    }

    /**
     * Lowers a TNA control of {@code gress}: ingress {@code (inout H, inout M, in ig_intr_md, in prsr_md, inout dprsr_md,
     * inout tm_md)}, egress {@code (inout H, inout M, in eg_intr_md, in prsr_md, inout dprsr_md, inout oport_md)}.
     * Every refusal found is added to {@code errors} (a refused declaration's uses are not reported again).
     */
    static void lower(ProgramBuilder b, Gress gress, Types types, Headers headers, Declaration.Control control,
                      Map<String, Field> fields, List<Refusal> errors, long randomSeed) {
        ControlLowering l = new ControlLowering(b, gress, types, headers, control, fields, errors);
        l.randomSeed = randomSeed;
        l.lower();
    }

    private void lower() {
        List<Parameter> ps = control.type().parameters();
        if (ps.size() != 6) {
            throw new Refusal(control.position(), gress.label() + " control " + control.name() + " must have TNA's six parameters");
        }
        headersParam = ps.get(0).name();
        metadataParam = ps.get(1).name();
        metadataStruct = types.structLike(ps.get(1).type());
        for (Parameter p : ps.subList(2, 6)) {
            paramTypes.put(p.name(), Types.named(p.type()));
        }
        List<Declaration.Variable> variables = declarations();
        Map<String, Field> controlScope = locals;
        c.apply(code -> {
            for (Declaration.Variable v : variables) {
                if (v.initializer() != null) {
                    guarded(null, () -> initialise(code, v.name(), v.initializer(), Map.of()));
                }
            }
            // each top-level statement on its own, so that every refusal is reported
            List<Statement> body = control.apply().statements();
            statements(code, body, 0, Map.of(), true);
        });
        locals = controlScope;
    }

    /**
     * A sub-control instance's body lowered where its {@code apply} is called: its tables,
     * registers and hashes are declared under the instance's name, and its statements run in
     * {@code code}. P4's {@code exit} in it ends the whole control (p4c's RemoveExits): it sets
     * the exit flags of the callers' statements, so what follows the {@code apply} does not run.
     */
    private void lowerInto(Block code) {
        List<Declaration.Variable> variables = declarations();
        for (Declaration.Variable v : variables) {
            if (v.initializer() != null) {
                guarded(null, () -> initialise(code, v.name(), v.initializer(), Map.of()));
            }
        }
        statements(code, control.apply().statements(), 0, Map.of(), true);
    }

    /** The control's local declarations: actions, tables, variables and externs; returns the variables. */
    private List<Declaration.Variable> declarations() {
        List<Declaration.Variable> variables = new ArrayList<>();
        for (Declaration d : control.locals()) {
            guarded(d.name(), () -> {
                if (d instanceof Declaration.Action a) {
                    actions.put(a.name(), a);
                } else if (d instanceof Declaration.Table t) {
                    tableDecls.put(t.name(), t);
                } else if (d instanceof Declaration.Instantiation in) {
                    instance(in);
                } else if (d instanceof Declaration.Variable v) {
                    declareLocal(v.name(), v.type(), v.position());
                    variables.add(v);
                } else {
                    throw new Refusal(d.position(), "this declaration in control " + control.name()
                            + " is not supported by the lowering (actions, tables, variables and externs are)");
                }
            });
        }
        for (Map.Entry<String, Declaration.Instantiation> e : new TreeMap<>(registerActionDecls).entrySet()) {
            Declaration.Instantiation in = e.getValue();
            guarded(in.name(), () -> {
                Expression reg = in.arguments().isEmpty() ? null : in.arguments().get(0).value();
                if (reg instanceof Expression.Name n && refused.contains(n.name())) {
                    throw new Refusal(in.position(), null);
                }
                RegisterArray array = reg instanceof Expression.Name n ? registers.get(n.name()) : null;
                if (array == null) {
                    throw new Refusal(in.position(), "RegisterAction " + in.name() + " must name a Register of control " + control.name());
                }
                RegisterActionLowering.Lowered l = RegisterActionLowering.lower(types, array, pairs.get(array.name()), in, prefix + in.name(),
                        x -> stateAluInput(x), (param, at) -> paramRow(param, at, array));
                registerActions.put(e.getKey(), l);
            });
        }
        // the arrays whose actions read RegisterParams get their register-file rows; their actions move onto them
        for (Map.Entry<RegisterArray, List<RegisterArray.Param>> e : paramRows.entrySet()) {
            RegisterArray bound = c.withParams(e.getKey(), e.getValue());
            registers.replaceAll((k, v) -> v == e.getKey() ? bound : v);
            registerActions.replaceAll((k, l) -> l.action().array() == e.getKey()
                    ? new RegisterActionLowering.Lowered(l.action().on(bound), l.inputs()) : l);
        }
        for (String name : new TreeMap<>(registerActions).keySet()) {
            c.action(registerActions.get(name).action());
        }
        for (Declaration d : control.locals()) {
            if (d instanceof Declaration.Table t && tableDecls.containsKey(t.name())) {
                guarded(t.name(), () -> tables.put(t.name(), table(t)));
            }
        }
        for (Map.Entry<String, Declaration.Instantiation> e : directRegisters.actions().entrySet()) {
            Declaration.Instantiation in = e.getValue();
            guarded(in.name(), () -> {
                String reg = directRegisters.registerOf(in);
                RegisterArray array = directRegisters.array(reg);
                if (array == null) {
                    throw new Refusal(in.position(), null); // the unbound DirectRegister is reported where it is declared
                }
                RegisterActionLowering.Lowered l = RegisterActionLowering.lower(types, array, directRegisters.pair(reg), in,
                        prefix + in.name(), x -> stateAluInput(x), (param, at) -> {
                            if (registerParams.containsKey(param)) {
                                throw new Refusal(at, "RegisterParam " + param + " in DirectRegisterAction " + in.name()
                                        + " is not supported by the lowering yet (in a RegisterAction it is)");
                            }
                            return -1;
                        });
                c.action(l.action());
                registerActions.put(e.getKey(), l);
            });
        }
        guarded(null, directRegisters::checkBound);
        guarded(null, externs::checkBound);
        return variables;
    }

    /** The register-file row of RegisterParam {@code param} in {@code array}'s stateful ALU, or -1 when it is none. */
    private int paramRow(String param, SourcePosition at, RegisterArray array) {
        RegisterArray.Param p = registerParams.get(param);
        if (p == null) {
            return -1;
        }
        RegisterArray first = paramArrays.putIfAbsent(param, array);
        if (first != null && first != array) {
            throw new Refusal(at, "RegisterParam " + param + " cannot be used with multiple Registers (" + first.name() + " and "
                    + array.name() + ")");
        }
        List<RegisterArray.Param> rows = paramRows.computeIfAbsent(array, k -> new ArrayList<>());
        if (!rows.contains(p)) {
            rows.add(p);
        }
        return rows.indexOf(p);
    }

    /** The param's name when {@code e} is {@code param.read()} of a RegisterParam of this control, else null. */
    private String paramRead(Expression e) {
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("read")
                && m.target() instanceof Expression.Name n && registerParams.containsKey(n.name())) {
            return n.name();
        }
        return null;
    }

    /** Runs one declaration's or statement's lowering; a refusal is recorded (and its name remembered), not thrown. */
    private void guarded(String name, Runnable r) {
        try {
            r.run();
        } catch (Refusal e) {
            if (name != null && !name.isEmpty()) {
                refused.add(name);
            }
            if (e.getMessage() != null) {
                errors.add(e);
            }
        }
    }

    /** A local variable: a metadata field of the gress named after the control and the variable. */
    private void declareLocal(String name, TypeRef type, SourcePosition at) {
        Declaration.StructLike aggregate = types.structLike(type);
        if (aggregate != null) {
            declareAggregate(name, aggregate, at);
            return;
        }
        int width = types.signedWidth(type);
        int n = localNames.merge(name, 1, Integer::sum);
        Field f = b.metadata(gress, scope + "." + name + (n == 1 ? "" : "$" + n), width);
        locals.put(name, f);
        if (types.signed(type)) {
            signedFields.add(f);
        }
    }

    /** The path of a header local's validity bit, after the local's path. */
    private static final String VALID = ".$valid";

    /**
     * A local of a header or struct type: a metadata field per scalar member (members of
     * header or struct type in turn), and for a header a 1-bit validity field, as p4c's
     * midend flattens such locals into scalars (midend/nestedStructs.h, flattenHeaders.h).
     */
    private void declareAggregate(String path, Declaration.StructLike type, SourcePosition at) {
        if (type.kind() == Declaration.StructLike.Kind.HEADER_UNION) {
            throw new Refusal(at, "local " + path + " of header union " + type.name() + " is not supported by the lowering");
        }
        aggregateLocals.put(path, type);
        for (Declaration.Field f : type.fields()) {
            Declaration.StructLike inner = types.structLike(f.type());
            if (inner != null) {
                declareAggregate(path + "." + f.name(), inner, f.position());
            } else {
                declareLocal(path + "." + f.name(), f.type(), f.position());
            }
        }
        if (type.kind() == Declaration.StructLike.Kind.HEADER) {
            int n = localNames.merge(path + VALID, 1, Integer::sum);
            locals.put(path + VALID, b.metadata(gress, scope + "." + path + VALID + (n == 1 ? "" : "$" + n), 1));
        }
    }

    /** {@code name.member...} when it starts at a local of a header or struct type, else null. */
    private String localPath(Expression e) {
        if (e instanceof Expression.Name n) {
            return aggregateLocals.containsKey(n.name()) ? n.name() : null;
        }
        if (e instanceof Expression.Member m) {
            String t = localPath(m.target());
            return t == null ? null : t + "." + m.member();
        }
        return null;
    }

    /**
     * The scalar members of a header or struct value, as paths below it ({@code dst_addr},
     * {@code inner.x}, {@code $valid} for a header's validity): a local of such a type or a
     * header of the headers struct; null for any other expression.
     */
    private List<String> aggregateMembers(Expression e) {
        String path = localPath(e);
        if (path != null && aggregateLocals.containsKey(path)) {
            List<String> out = new ArrayList<>();
            for (String k : new TreeMap<>(locals).keySet()) {
                if (k.startsWith(path + ".")) {
                    out.add(k.substring(path.length() + 1));
                }
            }
            return out;
        }
        if (rebase(e) == null && e instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && n.name().equals(headersParam) && headers.instance(h.member()) != null) {
            List<String> out = new ArrayList<>();
            for (var f : headers.instance(h.member()).type().fields()) {
                out.add(f.name());
            }
            out.add(VALID.substring(1));
            return out;
        }
        // a sub-control's parameter bound to a header (or a member of one)
        Expression bound = rebase(e);
        return bound != null ? parent.aggregateMembers(bound) : null;
    }

    /** The field of member {@code path} (dotted, {@code $valid} for validity) below {@code base}. */
    private Field member(Expression base, String path) {
        Expression e = base;
        String[] parts = path.split("\\.");
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].equals(VALID.substring(1)) && i == parts.length - 1) {
                return validBit(e);
            }
            e = new Expression.Member(base.position(), e, parts[i]);
        }
        return field(e);
    }

    /**
     * {@code dest = value} of a header or struct: member by member, a header's validity with
     * it (P4_16: assigning a header copies its validity). Each member is one VLIW
     * instruction, as p4c's midend copies them member by member (midend/copyStructures.h).
     */
    private void copyAggregate(Block code, Expression dest, Expression value, SourcePosition at) {
        List<String> to = aggregateMembers(dest);
        List<String> from = aggregateMembers(value);
        if (from == null || !new HashSet<>(from).containsAll(to) || !new HashSet<>(to).containsAll(from)) {
            throw new Refusal(at, "this assignment of a header or struct is not supported by the lowering (a header or struct"
                    + " of the same type, a local or a header of the headers struct, is)");
        }
        for (String m : to) {
            Field d = member(dest, m);
            code.set(d, read(member(value, m)));
            heldOutputs.remove(d);
        }
    }

    /** A local's initial value: a scalar's expression, or a header or struct copied member by member. */
    private void initialise(Block code, String name, Expression value, Map<String, Param> params) {
        if (aggregateLocals.containsKey(name)) {
            copyAggregate(code, new Expression.Name(value.position(), name, false), value, value.position());
            return;
        }
        Field f = locals.get(name);
        code.set(f, top(value, params, f.width()));
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
                Declaration.StructLike pair = types.structLike(typeArgs.get(0));
                if (pair != null && (pair.fields().size() != 2
                        || types.width(pair.fields().get(0).type()) != types.width(pair.fields().get(1).type()))) {
                    throw new Refusal(in.position(), "Register " + in.name() + " of " + pair.name()
                            + ": a register cell is one word or a struct of two words of one width (a lo/hi pair)");
                }
                int wordBits = types.width(pair == null ? typeArgs.get(0) : pair.fields().get(0).type());
                long[] initial = in.arguments().size() == 2 ? InitialValues.of(types, "Register", in, 1, pair) : new long[2];
                RegisterArray r = c.register(prefix + in.name(), wordBits, pair != null, (int) types.constant(in.arguments().get(0).value()),
                        initial[0], initial[1]);
                registers.put(in.name(), r);
                if (pair != null) {
                    pairs.put(r.name(), pair);
                }
                pin(in.annotations(), r.name());
            }
            case "RegisterAction" -> registerActionDecls.put(in.name(), in);
            case "RegisterParam" -> {
                if (typeArgs.size() != 1 || in.arguments().size() != 1) {
                    throw new Refusal(in.position(), "RegisterParam " + in.name() + " needs RegisterParam<bit<W>>(initial_value)");
                }
                // bf-p4c extract_maupipe.cpp InitializeRegisterParams::end_apply: a regfile row holds 8, 16 or 32 bits
                int bits = types.signedWidth(typeArgs.get(0));
                boolean signed = types.signed(typeArgs.get(0));
                if (bits != 8 && bits != 16 && bits != 32) {
                    throw new Refusal(in.position(), "RegisterParam " + in.name() + ": unsupported type " + (signed ? "int<" : "bit<")
                            + bits + "> (bit<8>, int<8>, bit<16>, int<16>, bit<32> and int<32> are supported)");
                }
                registerParams.put(in.name(), new RegisterArray.Param(prefix + in.name(), bits, signed,
                        types.constant(in.arguments().get(0).value())));
            }
            case "Hash" -> {
                if (typeArgs.size() != 1 || in.arguments().isEmpty() || in.arguments().size() > 2) {
                    throw new Refusal(in.position(), "Hash " + in.name() + " needs Hash<bit<W>>(HashAlgorithm_t.ALGO[, polynomial])");
                }
                hashDecls.put(in.name(), in);
                externs.noteHash(in);
            }
            case "CRCPolynomial" -> polynomials.put(in.name(), in);
            case "Random" -> {
                if (typeArgs.size() != 1 || !in.arguments().isEmpty()) {
                    throw new Refusal(in.position(), "Random " + in.name() + " needs Random<bit<W>>()");
                }
                randomDecls.put(in.name(), in);
            }
            default -> {
                if (types.declaration(type) instanceof Declaration.Control) {
                    subControls.put(in.name(), in);
                    return;
                }
                if (parent != null) {
                    throw new Refusal(in.position(), "extern " + type + " (" + in.name() + ") in sub-control " + control.name()
                            + " is not supported by the lowering yet (registers, register actions and hashes are)");
                }
                if (!externs.declare(in) && !tableOptions.declare(in) && !directRegisters.declare(in)) {
                    throw new Refusal(in.position(), "extern " + type + " (" + in.name() + ") is not supported by the lowering yet");
                }
            }
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
            "IDENTITY", "identity", "CRC8", "crc8", "CRC16", "crc16", "CRC32", "crc32", "CRC64", "crc64");
    /** CRC64 is rmtemu's {@link TnaCrc64}, not one of its named CRCs. */
    private static final String CRC64 = "crc64";

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
        boolean custom = algo instanceof Expression.Member m && m.member().equals("CUSTOM")
                && m.target() instanceof Expression.Name t && t.name().equals("HashAlgorithm_t");
        String named = algo instanceof Expression.Member m && m.target() instanceof Expression.Name t
                && t.name().equals("HashAlgorithm_t") ? ALGORITHMS.get(m.member()) : null;
        if (named == null && !custom) {
            throw new Refusal(algo.position(), "hash algorithm " + RegisterActionLowering.path(algo)
                    + " is not supported by the lowering yet (IDENTITY, CRC8, CRC16, CRC32, CRC64 and CUSTOM are)");
        }
        if (custom != (in.arguments().size() == 2)) {
            throw new Refusal(in.position(), "Hash " + name + ": a CRCPolynomial goes with HashAlgorithm_t.CUSTOM, and only with it");
        }
        HashAlgorithm algorithm = custom ? polynomial(in.arguments().get(1).value())
                : named.equals(CRC64) ? TnaCrc64.INSTANCE : HashAlgorithm.byName(named);
        int bits = types.width(((TypeRef.Named) in.type()).arguments().get(0));
        int[] partners = SymmetricPairs.of(name, in.annotations(), list.elements(), inputs, RegisterActionLowering.path(algo),
                custom || !named.equals("identity"));
        h = c.symmetricHash(prefix + name, algorithm, bits, partners, inputs.toArray(new Field[0]));
        pin(in.annotations(), prefix + name);
        hashUnits.put(name, h);
        return hash(h);
    }

    /**
     * {@code r.get()} of a {@code Random<bit<W>>}: deterministic, so that a run repeats. A hash
     * unit of rmtemu's seeded hash (SplitMix64's finaliser) over the packet's arrival timestamp
     * and port (in egress: the egress global timestamp and egress port), which no two packets of
     * a pass share; its seed is the run's seed mixed with the instance's name (FNV-1a), so two
     * instances give different numbers. Every {@code get()} of one instance in one pass reads the
     * same number. Tofino draws from a hardware generator instead, without hash bits.
     */
    private Expr randomGet(String name) {
        HashUnit h = randomUnits.get(name);
        if (h == null) {
            Declaration.Instantiation in = randomDecls.get(name);
            int bits = types.width(((TypeRef.Named) in.type()).arguments().get(0));
            Field time = b.intrinsic(gress == Gress.INGRESS ? Intrinsic.INGRESS_MAC_TSTAMP : Intrinsic.EGRESS_GLOBAL_TSTAMP);
            Field port = b.intrinsic(gress == Gress.INGRESS ? Intrinsic.INGRESS_PORT : Intrinsic.EGRESS_PORT);
            h = c.hash(prefix + name, HashAlgorithm.seeded(instanceSeed(randomSeed, prefix + name)), bits, time, port);
            pin(in.annotations(), h.name());
            randomUnits.put(name, h);
        }
        return hash(h);
    }

    /** The seed of Random instance {@code element}: FNV-1a over its name, from the run's seed. */
    static long instanceSeed(long runSeed, String element) {
        long h = runSeed ^ FNV_OFFSET;
        for (int i = 0; i < element.length(); i++) {
            h = (h ^ element.charAt(i)) * FNV_PRIME;
        }
        return h;
    }

    private static final long FNV_OFFSET = 0xCBF29CE484222325L;
    private static final long FNV_PRIME = 0x100000001B3L;

    /**
     * TNA's {@code CRCPolynomial<bit<W>>(coeff, reversed, msb, extended, init, xor)} as a CRC in
     * the Rocksoft model: coeff is the polynomial without its x^W term, reversed reflects input
     * and output. The msb and extended forms are refused (their encodings are not modelled).
     */
    private HashAlgorithm polynomial(Expression ref) {
        Declaration.Instantiation p = ref instanceof Expression.Name n ? polynomials.get(n.name()) : null;
        if (p == null) {
            throw new Refusal(ref.position(), "a CUSTOM hash's polynomial must name a CRCPolynomial instance of control " + control.name());
        }
        List<TypeRef> typeArgs = p.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        if (typeArgs.size() != 1 || p.arguments().size() != 6) {
            throw new Refusal(p.position(), "CRCPolynomial " + p.name() + " needs <bit<W>>(coeff, reversed, msb, extended, init, xor)");
        }
        int width = types.width(typeArgs.get(0));
        if (width < 8 || width > 32) {
            throw new Refusal(p.position(), "CRCPolynomial " + p.name() + " of " + width + " bits: rmtemu's CRCs are 8 to 32 bits wide");
        }
        List<Argument> a = p.arguments();
        if (types.constant(a.get(2).value()) != 0 || types.constant(a.get(3).value()) != 0) {
            throw new Refusal(p.position(), "CRCPolynomial " + p.name() + ": msb and extended polynomials are not supported by the lowering"
                    + " (msb = false, extended = false are)");
        }
        boolean reversed = types.constant(a.get(1).value()) != 0;
        return new Crc("crc" + width + "_custom", width, types.constant(a.get(0).value()), types.constant(a.get(4).value()),
                reversed, reversed, types.constant(a.get(5).value()));
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
        if (ra.action().array().direct()) {
            executeDirect(code, call, ra);
            return;
        }
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

    /**
     * {@code dra.execute()}: a DirectRegisterAction runs on the cell of the entry that hit, so only
     * in an action of the table whose registers property names its register: a direct attached
     * table is addressed by the match entry (bf-p4c mau/resource_estimate.cpp
     * StageUseEstimate::calculate_attached_rams gives it the match table's entries), on a miss by
     * the miss entry's cell; the IR's rule for direct counters and meters (DirectUse).
     */
    private void executeDirect(Block code, Expression.Call call, RegisterActionLowering.Lowered ra) {
        RegisterArray array = ra.action().array();
        if (!call.arguments().isEmpty()) {
            throw new Refusal(call.position(), "DirectRegisterAction " + ra.action().name() + ".execute takes no index (its cell is"
                    + " the entry that hit)");
        }
        if (!applying.contains(array.table())) {
            throw new Refusal(call.position(), "DirectRegisterAction " + ra.action().name() + " runs outside an action of table "
                    + array.table().name() + ", whose registers property names " + array.name() + " (a direct register's cell is"
                    + " the entry that hit)");
        }
        List<Expression> inputs = ra.inputs();
        code.executeDirect(ra.action(), inputs.isEmpty() ? constant(0) : read(field(inputs.get(0))),
                inputs.size() < 2 ? constant(0) : read(field(inputs.get(1))));
    }

    // ---- tables

    private MatchTable table(Declaration.Table t) {
        List<Field> key = new ArrayList<>();
        // the control plane's view: ids are positions in the actions list (as applyTable numbers them), P4's names
        List<TableAction> named = new ArrayList<>();
        String defaultName = "NoAction";
        boolean defaultConst = false;
        List<MatchKind> fieldKinds = new ArrayList<>();
        TableProperty.Entries entries = null;
        int size = 512;
        int dataBits = 0;
        List<TableProperty.Property> direct = new ArrayList<>();
        List<Field> selectorKey = new ArrayList<>();
        List<TableProperty.Property> optionProperties = new ArrayList<>();
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Key k) {
                for (TableProperty.KeyElement e : k.elements()) {
                    if (e.matchKind().equals("selector")) {
                        selectorKey.add(field(e.expression())); // what the table's ActionSelector hashes
                        continue;
                    }
                    MatchKind mk = switch (e.matchKind()) {
                        case "exact" -> MatchKind.EXACT;
                        case "ternary" -> MatchKind.TERNARY;
                        case "lpm" -> MatchKind.LPM;
                        case "range" -> MatchKind.RANGE;
                        default -> throw new Refusal(e.position(), "match kind " + e.matchKind() + " is not supported by the lowering yet");
                    };
                    if (mk == MatchKind.LPM && fieldKinds.contains(MatchKind.LPM)) {
                        // one prefix length orders an entry (P4_16 14.2.1.4.1; p4c's bmv2 back end refuses a second lpm key)
                        throw new Refusal(e.position(), "table " + t.name() + " has a second lpm key; a table matches at most one"
                                + " field by lpm");
                    }
                    fieldKinds.add(mk);
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
                        defaultName = ((Expression.Name) defaultCall(pr).callee()).name();
                        defaultConst = pr.constant();
                    }
                    default -> {
                        if (tableOptions.handles(pr)) {
                            optionProperties.add(pr);
                            continue;
                        }
                        if (!ExternLowering.isDirectProperty(pr) && !DirectRegisterLowering.isRegistersProperty(pr)) {
                            throw new Refusal(pr.position(), "table property " + pr.name() + " is not supported by the lowering yet");
                        }
                        direct.add(pr);
                    }
                }
            } else if (p instanceof TableProperty.Entries en) {
                entries = en;
            }
        }
        if (key.isEmpty() && entries != null) {
            throw new Refusal(entries.position(), "table " + t.name() + " has no key, so it cannot have entries");
        }
        // a keyless table is an exact one: every packet misses and runs the default action (no match memory, see MemoryLayout);
        // a key that mixes kinds makes a table of the widest (an exact and a range field: a range table, in TCAM)
        MatchKind kind = MatchTable.kindOf(fieldKinds);
        if (dataBits > 64) {
            throw new Refusal(t.position(), "table " + t.name() + ": action parameters of " + dataBits + " bits; the lowering carries at most 64");
        }
        List<MatchTable.ConstEntry> constEntries = entries == null ? List.of()
                : constEntries(t, entries, kind, fieldKinds, key, named);
        MatchTable m = c.table(prefix + t.name(), fieldKinds, Math.max(size, constEntries.size()), dataBits,
                new TableActions(named, defaultName, defaultConst), constEntries, tableOptions.options(t, kind, optionProperties),
                key.toArray(new Field[0]));
        pin(t.annotations(), m.name());
        externs.selectorKey(t, selectorKey);
        for (TableProperty.Property pr : direct) {
            if (DirectRegisterLowering.isRegistersProperty(pr)) {
                directRegisters.bind(pr, m);
                continue;
            }
            externs.bind(pr, m);
        }
        return m;
    }

    /**
     * P4's {@code const entries}: each a constant key (one value per key field) and an action
     * call with constant arguments, packed as the control plane would pack them (action id =
     * position in {@code actions}, parameters in declaration order, the last in the low bits).
     * Each field's value has its field's kind's form: exact a constant; ternary {@code v &&& m},
     * a constant or {@code _}; lpm {@code v &&& prefix-mask}, a constant (the whole field) or
     * {@code _}; range {@code lo .. hi}, a constant or {@code _} (an exact field beside a ternary
     * or range field may be {@code _} too: the spec's own exact + ternary example ends with
     * {@code _ : a}). A ternary or range table's entries match in program order, an lpm table's
     * by the longest prefix, so an entry names no priority (P4_16 14.2.1.4). The table is
     * fixed: control scripts cannot change it.
     */
    private List<MatchTable.ConstEntry> constEntries(Declaration.Table t, TableProperty.Entries en, MatchKind kind,
                                                     List<MatchKind> fieldKinds, List<Field> key, List<TableAction> named) {
        if (!en.constant()) {
            throw new Refusal(en.position(), "entries of table " + t.name() + " without const are not supported by the lowering"
                    + " (const entries are)");
        }
        List<MatchTable.ConstEntry> out = new ArrayList<>();
        for (TableProperty.Entry e : en.entries()) {
            if (e.priority() != null) {
                throw new Refusal(e.priority().position(), "an entry of const entries has no priority: they match in program"
                        + " order (P4_16 14.2.1.4)");
            }
            List<Expression> parts = e.keyset() instanceof Expression.Tuple tu ? tu.elements() : List.of(e.keyset());
            if (kind != MatchKind.EXACT && parts.size() == 1 && key.size() > 1
                    && (e.keyset() instanceof Expression.DontCare || e.keyset() instanceof Expression.Default)) {
                parts = Collections.nCopies(key.size(), e.keyset()); // one _ for every field
            }
            if (parts.size() != key.size()) {
                throw new Refusal(e.position(), "this entry of table " + t.name() + " has " + parts.size() + " key values for "
                        + key.size() + " key fields");
            }
            long[] values = new long[key.size()];
            long[] masks = kind == MatchKind.EXACT ? null : new long[key.size()];
            long[] highs = kind == MatchKind.RANGE ? new long[key.size()] : null;
            for (int i = 0; i < parts.size(); i++) {
                Expression v = parts.get(i);
                Field f = key.get(i);
                switch (fieldKinds.get(i)) {
                    case TERNARY -> ternaryKey(v, f, i, values, masks);
                    case LPM -> lpmKey(v, f, i, values, masks);
                    case RANGE -> rangeKey(v, f, i, values, highs);
                    case EXACT -> {
                        if (wildcard(v) && (kind == MatchKind.TERNARY || kind == MatchKind.RANGE)) {
                            values[i] = 0; // mask 0: any value, as the table's TCAM line can say
                            continue;
                        }
                        if (!types.isConstant(v)) {
                            throw new Refusal(v.position(), "a key of an exact const entry is a constant value");
                        }
                        values[i] = types.constant(v) & Types.longMask(f.width());
                        if (masks != null) {
                            masks[i] = f.mask();
                        }
                    }
                }
            }
            TableAction ta = null;
            for (TableAction x : named) {
                if (x.name().equals(e.action().name())) {
                    ta = x;
                }
            }
            if (ta == null) {
                throw new Refusal(e.action().position(), "action " + e.action().name() + " is not one of table " + t.name() + "'s actions");
            }
            Declaration.Action a = action(e.action().name(), e.action().position());
            List<Argument> args = e.action().arguments() == null ? List.of() : e.action().arguments();
            int n = a == null ? 0 : a.parameters().size();
            if (args.size() != n) {
                throw new Refusal(e.action().position(), "action " + e.action().name() + " takes " + n + " arguments, given " + args.size());
            }
            long data = 0;
            for (int i = 0; i < n; i++) {
                int w = types.width(a.parameters().get(i).type());
                data = (w >= 64 ? 0 : data << w) | (types.constant(args.get(i).value()) & Types.longMask(w));
            }
            out.add(new MatchTable.ConstEntry(values, ta.id(), data, masks, highs));
        }
        return out;
    }

    private static boolean wildcard(Expression v) {
        return v instanceof Expression.DontCare || v instanceof Expression.Default;
    }

    /**
     * One key value of a ternary const entry: {@code v &&& m}, {@code _} or {@code default}
     * (any value: mask 0), or a constant (every bit: the field's mask); the value is kept under
     * its mask, as the match compares only those bits.
     */
    private void ternaryKey(Expression v, Field f, int i, long[] values, long[] masks) {
        if (wildcard(v)) {
            values[i] = 0;
            masks[i] = 0;
            return;
        }
        Expression value = v instanceof Expression.Mask m ? m.value() : v;
        Expression mask = v instanceof Expression.Mask m ? m.mask() : null;
        if (!types.isConstant(value) || mask != null && !types.isConstant(mask)) {
            throw new Refusal(v.position(), "a key of a ternary const entry is a constant, a constant &&& mask, or _");
        }
        masks[i] = mask == null ? f.mask() : types.constant(mask) & f.mask();
        values[i] = types.constant(value) & masks[i];
    }

    /**
     * One key value of an lpm field in a const entry: {@code v &&& m} whose mask is a prefix
     * (ones, then zeros: P4_16 14.2.1.1's lpm), a constant (a prefix of the whole field), or
     * {@code _} (the empty prefix). P4 has no {@code v / len} keyset: {@code /} there divides,
     * so it is refused rather than read as a silent, wrong constant.
     */
    private void lpmKey(Expression v, Field f, int i, long[] values, long[] masks) {
        if (wildcard(v)) {
            values[i] = 0;
            masks[i] = 0;
            return;
        }
        if (v instanceof Expression.Binary b && b.operator().equals("/")) {
            throw new Refusal(v.position(), "/ in a key divides in P4_16; an lpm const entry gives its prefix as VALUE &&& MASK"
                    + " (10.0.0.0/8 is 0x0A000000 &&& 0xFF000000)");
        }
        Expression value = v instanceof Expression.Mask m ? m.value() : v;
        Expression mask = v instanceof Expression.Mask m ? m.mask() : null;
        if (!types.isConstant(value) || mask != null && !types.isConstant(mask)) {
            throw new Refusal(v.position(), "a key of an lpm const entry is a constant, a constant &&& prefix mask, or _");
        }
        long m = mask == null ? f.mask() : types.constant(mask) & f.mask();
        int len = Long.bitCount(m);
        long prefix = len == 0 ? 0 : f.mask() & (-1L << (f.width() - len));
        if (m != prefix) {
            throw new Refusal(mask.position(), "the mask 0x" + Long.toHexString(m) + " of an lpm key is not a prefix of "
                    + f.width() + " bits (ones, then zeros)");
        }
        masks[i] = m;
        values[i] = types.constant(value) & m;
    }

    /**
     * One key value of a range field in a const entry: {@code lo .. hi} (inclusive, lo <= hi),
     * a constant (that value alone), or {@code _} (every value).
     */
    private void rangeKey(Expression v, Field f, int i, long[] lows, long[] highs) {
        if (wildcard(v)) {
            lows[i] = 0;
            highs[i] = f.mask();
            return;
        }
        Expression lo = v instanceof Expression.Range r ? r.low() : v;
        Expression hi = v instanceof Expression.Range r ? r.high() : v;
        if (!types.isConstant(lo) || !types.isConstant(hi)) {
            throw new Refusal(v.position(), "a key of a range const entry is a constant, a constant .. constant, or _");
        }
        lows[i] = types.constant(lo) & f.mask();
        highs[i] = types.constant(hi) & f.mask();
        if (Long.compareUnsigned(lows[i], highs[i]) > 0) {
            throw new Refusal(v.position(), "the range " + Long.toUnsignedString(lows[i]) + " .. " + Long.toUnsignedString(highs[i])
                    + " of " + f.name() + " is empty (its low end is above its high end)");
        }
    }

    /** A table's {@code default_action}: {@code a(args)}, or {@code a} alone (as p4c reads it, {@code a()}). */
    private static Expression.Call defaultCall(TableProperty.Property pr) {
        if (pr.value() instanceof Expression.Call call && call.callee() instanceof Expression.Name) {
            return call;
        }
        if (pr.value() instanceof Expression.Name n) {
            return new Expression.Call(n.position(), n, List.of(), List.of());
        }
        throw new Refusal(pr.position(), "default_action must be an action call");
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

    /** Nothing runs after the table's action (a plain {@code t.apply();}, or a branch without statements). */
    private static final After NOTHING = (action, hit) -> null;

    private void applyTable(Block code, Statement at, String name, After after) {
        MatchTable m = tables.get(name);
        Declaration.Table t = tableDecls.get(name);
        if (refused.contains(name)) {
            throw new Refusal(at.position(), null); // reported where the table is declared
        }
        if (m == null) {
            throw new Refusal(at.position(), "table " + name + " is not declared in control " + control.name());
        }
        Block.TableApply apply = code.apply(m);
        applying.push(m);
        int id = 0;
        TableProperty.ActionRef defaultAction = null;
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Actions as) {
                for (TableProperty.ActionRef r : as.actions()) {
                    id++;
                    Declaration.Action a = action(r.name(), r.position());
                    Map<String, Param> params = actionDataParams(a, m);
                    Consumer<Block> then = after.after(r.name(), true);
                    apply.on(id, holdingNothing(blk -> {
                        body(blk, a, params);
                        afterAction(blk, a, then, at.position());
                    }));
                }
            } else if (p instanceof TableProperty.Property pr && pr.name().equals("default_action")) {
                Expression.Call call = defaultCall(pr);
                defaultAction = new TableProperty.ActionRef(pr.position(), List.of(), ((Expression.Name) call.callee()).name(),
                        call.arguments());
            }
        }
        Declaration.Action a = defaultAction == null ? null : action(defaultAction.name(), defaultAction.position());
        Map<String, Param> params = defaultAction == null ? Map.of()
                : constantParams(a, defaultAction.arguments(), defaultAction.position());
        Consumer<Block> then = after.after(defaultAction == null ? "NoAction" : defaultAction.name(), false);
        apply.miss(holdingNothing(blk -> {
            body(blk, a, params);
            afterAction(blk, a, then, at.position());
        }));
        applying.remove(m);
        heldOutputs = new HashMap<>();
    }

    /** {@code c}, a branch, lowered with no output held (see {@link #heldOutputs}). */
    private Consumer<Block> holdingNothing(Consumer<Block> c) {
        return blk -> {
            heldOutputs = new HashMap<>();
            c.accept(blk);
            heldOutputs = new HashMap<>();
        };
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
            return blk == null ? null : x -> statement(x, blk, params);
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
            params.put(p.name(), new Param(v, v, types.width(p.type())));
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
        statements(code, stmts, 0, params, false);
    }

    /**
     * Statements {@code from} on. {@code exit} sets the listening exit flags and ends the list;
     * a statement that may exit, with statements after it, gets a flag of its own, and the rest
     * runs under {@code if (flag == 0)}. {@code each}: every statement's refusal is recorded and
     * the next one is lowered (the apply body's top level).
     */
    private void statements(Block code, List<Statement> stmts, int from, Map<String, Param> params, boolean each) {
        Map<String, Field> scope = new HashMap<>(locals);
        Map<String, Declaration.StructLike> aggregateScope = new HashMap<>(aggregateLocals);
        for (int i = from; i < stmts.size(); i++) {
            Statement s = stmts.get(i);
            if (s instanceof Statement.Exit) {
                for (Field f : exitListeners) {
                    code.set(f, 1);
                }
                break;
            }
            Field flag = i + 1 < stmts.size() && mayExit(s) ? exitFlag() : null;
            if (flag != null) {
                exitListeners.push(flag);
            }
            try {
                if (each) {
                    guarded(null, () -> statement(code, s, params));
                } else {
                    statement(code, s, params);
                }
            } finally {
                if (flag != null) {
                    exitListeners.pop();
                }
            }
            if (flag != null) {
                int next = i + 1;
                code.when(new Condition(read(flag), CmpOp.EQ, constant(0)),
                        holdingNothing(x -> statements(x, stmts, next, params, each)));
                heldOutputs = new HashMap<>();
                break;
            }
        }
        locals = scope;
        aggregateLocals = aggregateScope;
    }

    private Field exitFlag() {
        exitFlags++;
        return b.metadata(gress, scope + ".$exited" + (exitFlags == 1 ? "" : "$" + exitFlags), 1);
    }

    /** Whether {@code exit} may run in {@code s}: in it, in an action it calls, or in an action of a table it applies. */
    private boolean mayExit(Statement s) {
        if (s instanceof Statement.Exit) {
            return true;
        }
        if (s instanceof Statement.Block blk) {
            return blk.statements().stream().anyMatch(this::mayExit);
        }
        if (s instanceof Statement.If i) {
            return mayExit(i.then()) || i.otherwise() != null && mayExit(i.otherwise())
                    || tableMayExit(appliedTable(i.condition(), "hit")) || tableMayExit(appliedTable(i.condition(), "miss"));
        }
        if (s instanceof Statement.Switch sw) {
            return tableMayExit(appliedTable(sw.selector(), "action_run"))
                    || sw.cases().stream().anyMatch(sc -> sc.body() != null && mayExit(sc.body()));
        }
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m
                && m.member().equals("apply") && m.target() instanceof Expression.Name n && subControls.containsKey(n.name())) {
            return subControlMayExit(n.name());
        }
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m
                && m.member().equals("apply") && m.target() instanceof Expression.Name n) {
            return tableMayExit(tableDecls.containsKey(n.name()) ? n.name() : null);
        }
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Name n) {
            return actionMayExit(actions.get(n.name()));
        }
        return false;
    }

    /** Whether {@code exit} may run in the body of sub-control instance {@code instance} (its actions, tables and instances). */
    private boolean subControlMayExit(String instance) {
        Declaration.Instantiation in = subControls.get(instance);
        if (!(types.declaration(Types.named(in.type())) instanceof Declaration.Control sub)) {
            return false;
        }
        ControlLowering scan = new ControlLowering(this, sub, instance, Map.of(), types);
        for (Declaration d : sub.locals()) {
            if (d instanceof Declaration.Action a) {
                scan.actions.put(a.name(), a);
            } else if (d instanceof Declaration.Table t) {
                scan.tableDecls.put(t.name(), t);
            } else if (d instanceof Declaration.Instantiation i && types.declaration(Types.named(i.type())) instanceof Declaration.Control) {
                scan.subControls.put(i.name(), i);
            }
        }
        return sub.apply().statements().stream().anyMatch(scan::mayExit);
    }

    private boolean actionMayExit(Declaration.Action a) {
        return a != null && mayExit(a.body());
    }

    private boolean tableMayExit(String table) {
        Declaration.Table t = table == null ? null : tableDecls.get(table);
        if (t == null) {
            return false;
        }
        for (TableProperty p : t.properties()) {
            if (p instanceof TableProperty.Actions as) {
                for (TableProperty.ActionRef r : as.actions()) {
                    if (actionMayExit(actions.get(r.name()))) {
                        return true;
                    }
                }
            } else if (p instanceof TableProperty.Property pr && pr.name().equals("default_action")
                    && actionMayExit(actions.get(((Expression.Name) defaultCall(pr).callee()).name()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * What follows a table's action on its hit/miss/action_run branch ({@code then}; null for
     * nothing). After an action that may exit, that branch would depend on the action's own
     * exit flag, in a later stage than the table, and rmtemu carries a table's result only
     * within its stage: refused.
     */
    private void afterAction(Block blk, Declaration.Action a, Consumer<Block> then, SourcePosition at) {
        if (then == null) {
            return;
        }
        if (actionMayExit(a)) {
            throw new Refusal(at, "action " + a.name() + " may exit, and statements follow it on the table's hit/miss/action_run"
                    + " branch; rmtemu carries a table's result only within its stage (apply the table alone, then test)");
        }
        then.accept(blk);
    }

    private void statement(Block code, Statement s, Map<String, Param> params) {
        if (!refused.isEmpty() && usesRefused(s)) {
            throw new Refusal(s.position(), null); // reported where the declaration is
        }
        if (s instanceof Statement.Assignment a && a.value() instanceof Expression.Call call && externs.isMeterExecute(call)) {
            Expr colour = externs.execute(code, call, (e, w) -> value(e, params, w));
            code.set(field(a.target()), colour);
            heldOutputs.remove(field(a.target()));
        } else if (s instanceof Statement.Assignment a && a.value() instanceof Expression.Call call && registerAction(call.callee()) != null) {
            RegisterActionLowering.Lowered ra = registerAction(call.callee());
            execute(code, call, ra, params);
            Field dest = field(a.target());
            code.set(dest, output(ra.action()));
            heldOutputs.put(dest, ra.action().array().wordBits() <= dest.width() ? output(ra.action())
                    : and(output(ra.action()), constant(Types.longMask(dest.width()))));
        } else if (s instanceof Statement.Assignment a && aggregateMembers(a.target()) != null) {
            copyAggregate(code, a.target(), a.value(), a.position());
        } else if (s instanceof Statement.Assignment a && a.value() instanceof Expression.Cast c && signExtends(c, params)
                && types.signedWidth(c.type()) == field(a.target()).width()) {
            signExtend(code, field(a.target()), c, params);
        } else if (s instanceof Statement.Assignment a) {
            Field dest = field(a.target());
            substituting = true;
            Expr v;
            try {
                v = top(a.value(), params, dest.width());
            } finally {
                substituting = false;
            }
            code.set(dest, v);
            heldOutputs.remove(dest);
        } else if (s instanceof Statement.Local l && l.declaration() instanceof Declaration.Variable v
                && types.structLike(v.type()) != null) {
            declareLocal(v.name(), v.type(), v.position());
            if (v.initializer() != null) {
                initialise(code, v.name(), v.initializer(), params);
            }
        } else if (s instanceof Statement.Local l && l.declaration() instanceof Declaration.Variable v) {
            declareLocal(v.name(), v.type(), v.position());
            heldOutputs.remove(locals.get(v.name()));
            if (v.initializer() != null) {
                Field f = locals.get(v.name());
                code.set(f, top(v.initializer(), params, f.width()));
            }
        } else if (s instanceof Statement.Local l && l.declaration() instanceof Declaration.Constant k) {
            // a local constant: a variable written once (its value is known, the PHV keeps it)
            declareLocal(k.name(), k.type(), k.position());
            Field f = locals.get(k.name());
            heldOutputs.remove(f);
            code.set(f, top(k.value(), params, f.width()));
        } else if (s instanceof Statement.Block blk) {
            statements(code, blk.statements(), params);
        } else if (s instanceof Statement.Empty) {
            return;
        } else if (s instanceof Statement.If i && (appliedTable(i.condition(), "hit") != null
                || appliedTable(i.condition(), "miss") != null)) {
            boolean onHit = appliedTable(i.condition(), "hit") != null;
            String table = onHit ? appliedTable(i.condition(), "hit") : appliedTable(i.condition(), "miss");
            Consumer<Block> then = x -> statement(x, i.then(), params);
            Consumer<Block> otherwise = i.otherwise() == null ? null : x -> statement(x, i.otherwise(), params);
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

    /** Whether a simple statement, or a condition or selector, names a declaration that was refused. */
    private boolean usesRefused(Statement s) {
        if (s instanceof Statement.Assignment a) {
            return usesRefused(a.target()) || usesRefused(a.value());
        }
        if (s instanceof Statement.CallStatement cs) {
            return usesRefused(cs.call());
        }
        if (s instanceof Statement.If i) {
            return usesRefused(i.condition());
        }
        if (s instanceof Statement.Switch sw) {
            return usesRefused(sw.selector());
        }
        return false;
    }

    private boolean usesRefused(Expression e) {
        if (e instanceof Expression.Name n) {
            return refused.contains(n.name());
        }
        if (e instanceof Expression.Member m) {
            return usesRefused(m.target());
        }
        if (e instanceof Expression.Call call) {
            return usesRefused(call.callee()) || call.arguments().stream().anyMatch(a -> usesRefused(a.value()));
        }
        if (e instanceof Expression.Binary bin) {
            return usesRefused(bin.left()) || usesRefused(bin.right());
        }
        if (e instanceof Expression.Unary u) {
            return usesRefused(u.operand());
        }
        if (e instanceof Expression.Cast c) {
            return usesRefused(c.operand());
        }
        if (e instanceof Expression.ListExpression l) {
            return l.elements().stream().anyMatch(this::usesRefused);
        }
        return false;
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
        if (externs.call(code, call, (e, w) -> value(e, params, w))) {
            return;
        }
        if (call.callee() instanceof Expression.Member m && m.member().equals("apply") && m.target() instanceof Expression.Name n
                && subControls.containsKey(n.name())) {
            applySubControl(code, call, n.name());
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

    /**
     * {@code inst.apply(args)} of a sub-control instance: its body inlined here, its parameters
     * bound to {@code args} and its constructor parameters to the instance's constant arguments
     * (so two instances of one control with different constants are two sets of tables and
     * registers, each with its own constants). An instance is applied once: a second apply would
     * apply its tables twice, which Tofino cannot.
     */
    private void applySubControl(Block code, Expression.Call call, String instance) {
        Declaration.Instantiation in = subControls.get(instance);
        Declaration.Control sub = (Declaration.Control) types.declaration(Types.named(in.type()));
        if (!appliedSubControls.add(instance)) {
            throw new Refusal(call.position(), "control instance " + instance + " is applied twice; each instance's tables are"
                    + " applied once (instantiate " + sub.name() + " again)");
        }
        List<Parameter> ps = sub.type().parameters();
        if (call.arguments().size() != ps.size()) {
            throw new Refusal(call.position(), "control " + sub.name() + " takes " + ps.size() + " arguments, given "
                    + call.arguments().size());
        }
        Map<String, Expression> bound = new HashMap<>();
        for (int i = 0; i < ps.size(); i++) {
            bound.put(ps.get(i).name(), call.arguments().get(i).value());
        }
        List<Parameter> cps = sub.constructorParameters() == null ? List.of() : sub.constructorParameters();
        if (in.arguments().size() != cps.size()) {
            throw new Refusal(in.position(), "control " + sub.name() + " takes " + cps.size() + " constructor arguments, given "
                    + in.arguments().size());
        }
        Map<String, BigInteger> constants = new HashMap<>();
        for (int i = 0; i < cps.size(); i++) {
            Expression v = in.arguments().get(i).value();
            if (!types.isConstant(v)) {
                throw new Refusal(v.position(), "constructor argument " + cps.get(i).name() + " of control " + sub.name()
                        + " must be a compile-time constant");
            }
            long k = types.constant(v) & Types.longMask(types.width(cps.get(i).type()));
            constants.put(cps.get(i).name(), new BigInteger(Long.toUnsignedString(k)));
        }
        new ControlLowering(this, sub, instance, bound, types.with(constants)).lowerInto(code);
    }

    /**
     * {@code e} in the parent's scope when it names a sub-control parameter ({@code p} or
     * {@code p.member...}, the parameter not shadowed by a local); null otherwise.
     */
    private Expression rebase(Expression e) {
        if (parent == null) {
            return null;
        }
        if (e instanceof Expression.Name n && bindings.containsKey(n.name()) && !locals.containsKey(n.name())
                && !aggregateLocals.containsKey(n.name())) {
            return bindings.get(n.name());
        }
        if (e instanceof Expression.Member m) {
            Expression t = rebase(m.target());
            return t == null ? null : new Expression.Member(m.position(), t, m.member());
        }
        return null;
    }

    private void branch(Block code, Expression cond, Consumer<Block> then, Consumer<Block> otherwise, Map<String, Param> params) {
        if (cond instanceof Expression.Binary bin && bin.operator().equals("&&")) {
            branch(code, bin.left(), x -> branch(x, bin.right(), then, otherwise, params), otherwise, params);
        } else if (cond instanceof Expression.Binary bin && bin.operator().equals("||")) {
            branch(code, bin.left(), then, x -> branch(x, bin.right(), then, otherwise, params), params);
        } else if (cond instanceof Expression.Unary u && u.operator().equals("!")) {
            branch(code, u.operand(), otherwise, then, params);
        } else if (cond instanceof Expression.Binary bin && ORDERINGS.contains(bin.operator())
                && (signed(bin.left()) || signed(bin.right()))) {
            signedOrder(code, bin, then, otherwise, params);
        } else {
            code.when(condition(cond, params), holdingNothing(then), holdingNothing(otherwise));
            heldOutputs = new HashMap<>();
        }
    }

    private static final Set<String> ORDERINGS = Set.of("<", "<=", ">", ">=");

    /**
     * {@code x OP k} on int<W> (two's complement), k a constant: unsigned gateways. With H =
     * 2^(W-1) the negative values are x >= H, so x < k is {@code x < k || x >= H} for k >= 0 and
     * {@code x >= H && x < k} for k < 0 (k as its W-bit pattern); <= likewise; > and >= are the
     * negations of <= and <. Two int<W> fields are refused: their order needs a subtraction.
     */
    private void signedOrder(Block code, Expression.Binary bin, Consumer<Block> then, Consumer<Block> otherwise,
                             Map<String, Param> params) {
        boolean constantRight = types.isConstant(bin.right());
        if (constantRight == types.isConstant(bin.left())) {
            throw new Refusal(bin.position(), "ordering comparison " + bin.operator() + " of two int<W> values is not supported by the"
                    + " lowering yet (an int<W> value and a constant is)");
        }
        Expression x = constantRight ? bin.left() : bin.right();
        Expression k = constantRight ? bin.right() : bin.left();
        // k OP x is x OP' k
        String op = constantRight ? bin.operator() : switch (bin.operator()) {
            case "<" -> ">";
            case "<=" -> ">=";
            case ">" -> "<";
            default -> "<=";
        };
        int w = width(x, params);
        long half = 1L << (w - 1);
        long kw = types.constant(k) & Types.longMask(w);
        Expr xv = value(x, params, w);
        boolean strict = op.equals("<") || op.equals(">=");
        Condition below = new Condition(xv, strict ? CmpOp.LT : CmpOp.LE, constant(kw));
        Condition negative = new Condition(xv, CmpOp.GE, constant(half));
        // x < k (strict) or x <= k; > and >= are their negations
        boolean negated = op.equals(">") || op.equals(">=");
        Consumer<Block> yes = negated ? otherwise : then;
        Consumer<Block> no = negated ? then : otherwise;
        if (kw < half) {
            code.when(below, holdingNothing(yes), holdingNothing(blk -> blk.when(negative, holdingNothing(yes), holdingNothing(no))));
        } else {
            code.when(negative, holdingNothing(blk -> blk.when(below, holdingNothing(yes), holdingNothing(no))), holdingNothing(no));
        }
        heldOutputs = new HashMap<>();
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
        Expression bound = rebase(e);
        if (bound != null) {
            return parent.width(bound, Map.of());
        }
        if (e instanceof Expression.Cast c) {
            return types.signedWidth(c.type());
        }
        if (e instanceof Expression.Slice s) {
            return (int) (types.constant(s.high()) - types.constant(s.low()) + 1);
        }
        if (e instanceof Expression.IntegerLiteral l) {
            return l.width() == null ? 0 : l.width();
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals("++")) {
            return width(bin.left(), params) + width(bin.right(), params);
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
        if (e instanceof Expression.Name n && !locals.containsKey(n.name())) {
            return 64;
        }
        if (e instanceof Expression.Call) {
            int own = ownWidth(e); // a hash unit's or a Random's output
            if (own > 0) {
                return own;
            }
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
        // bit<W> <-> int<W> of a slice as wide as the destination: the slice's bits, as the destination keeps them
        if (e instanceof Expression.Cast c && (types.signed(c.type()) || signed(c.operand())) && types.signedWidth(c.type()) == width
                && c.operand() instanceof Expression.Slice sl && types.constant(sl.high()) - types.constant(sl.low()) + 1 == width) {
            return top(sl, params, width);
        }
        if (e instanceof Expression.Cast c && (types.signed(c.type()) || signed(c.operand()))) {
            return value(e, params, width);
        }
        // the destination keeps its own width's bits: a cast to it, or a slice as wide, needs no mask
        // (a cast over + - << keeps it: the operand's own width wraps those)
        if (e instanceof Expression.Cast c && types.width(c.type()) == width && !wraps(c.operand())) {
            return value(c.operand(), params, width);
        }
        // a narrowing cast of one + - << of unwrapped operands: the destination's low bits are the same
        // whether the operation wraps at the operand's width or not
        if (e instanceof Expression.Cast c && types.width(c.type()) == width && c.operand() instanceof Expression.Binary bin
                && (bin.operator().equals("+") || bin.operator().equals("-") || bin.operator().equals("<<"))
                && !wraps(bin.left()) && !wraps(bin.right()) && width <= width(bin, params)) {
            return top(bin, params, width);
        }
        if (e instanceof Expression.Slice sl && types.constant(sl.high()) - types.constant(sl.low()) + 1 == width) {
            int lo = (int) types.constant(sl.low());
            Expr v = value(sl.target(), params, 64);
            return lo == 0 ? v : shr(v, constant(lo));
        }
        if (e instanceof Expression.Binary bin && !types.isConstant(e)
                && (bin.operator().equals("+") || bin.operator().equals("-") || bin.operator().equals("<<"))) {
            Expr l = value(bin.left(), params, width);
            return switch (bin.operator()) {
                case "+" -> add(l, value(bin.right(), params, width));
                case "-" -> sub(l, value(bin.right(), params, width));
                default -> shl(l, shiftAmount(bin, params));
            };
        }
        return value(e, params, width);
    }

    /** Whether {@code e}'s value may exceed its operands' width ({@code + - <<}: P4 wraps it). */
    private static boolean wraps(Expression e) {
        return e instanceof Expression.Binary bin && (bin.operator().equals("+") || bin.operator().equals("-")
                || bin.operator().equals("<<") || wraps(bin.left()) || wraps(bin.right()))
                || e instanceof Expression.Unary || e instanceof Expression.Cast;
    }

    /**
     * A shift's amount: its own value, never cut to the width of the shifted value's result (in
     * {@code (bit<2>) (port >> 7)} the 7 is 7, not 7 mod 4).
     */
    private Expr shiftAmount(Expression.Binary bin, Map<String, Param> params) {
        return value(bin.right(), params, 64);
    }

    /** An expression's value at {@code width} bits (the specification's unsigned arithmetic modulo 2^width). */
    private Expr value(Expression e, Map<String, Param> params, int width) {
        String param = paramRead(e);
        if (param != null) {
            // bf-p4c extract_maupipe.cpp InitializeRegisterParams::preorder: a param lives in a stateful ALU's register file
            throw new Refusal(e.position(), "RegisterParam " + param + " cannot be used outside a RegisterAction");
        }
        long mask = Types.longMask(width == 0 ? 64 : width);
        Expression bound = rebase(e);
        if (bound != null) {
            return parent.value(bound, Map.of(), width);
        }
        if (types.isConstant(e)) {
            return constant(types.constant(e) & mask);
        }
        if (e instanceof Expression.Name n && params.containsKey(n.name())) {
            return params.get(n.name()).masked();
        }
        if (e instanceof Expression.Cast c && (types.signed(c.type()) || signed(c.operand())) && !types.isConstant(e)) {
            // int<W> <-> bit<W> keeps the bits; a narrowing cast keeps the low bits; a widening one of a signed value extends its sign
            int w = types.signedWidth(c.type());
            int from = width(c.operand(), params);
            if (signed(c.operand()) && from > 0 && from < w) {
                throw new Refusal(c.position(), "sign extension of an int<" + from + "> to " + w + " bits is not supported by the"
                        + " lowering yet inside an expression (dest = (int<W>) x is)");
            }
            return from > 0 && from <= w ? value(c.operand(), params, w) : and(value(c.operand(), params, w), constant(Types.longMask(w)));
        }
        if (e instanceof Expression.Cast c) {
            int w = types.width(c.type());
            int from = ownWidth(c.operand());
            // a field or a hash output holds only its own bits: widening it needs no mask
            return from > 0 && from <= w ? value(c.operand(), params, w) : and(value(c.operand(), params, w), constant(Types.longMask(w)));
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
        if (e instanceof Expression.Binary bin && (bin.operator().equals("|+|") || bin.operator().equals("|-|"))) {
            return saturating(bin, params, width);
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals("++")) {
            return concatenation(bin, params);
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals(">>") && signed(bin.left())) {
            // int<W>'s >> is arithmetic: one shrs of the container ALU (bf-p4c DoInstructionSelection::postorder(IR::Shr))
            int w = operandWidth(bin.left(), params);
            return op(VliwOp.SHRS, value(bin.left(), params, w), value(bin.right(), params, 64), w == 0 ? 64 : w);
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals(">>")) {
            // the bits shifted down come from above the result's width: the shifted value keeps its own width
            int own = operandWidth(bin.left(), params);
            return shr(value(bin.left(), params, own == 0 ? 64 : own), shiftAmount(bin, params));
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals("<<")) {
            return and(shl(value(bin.left(), params, width), shiftAmount(bin, params)), constant(mask));
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
                default -> throw new Refusal(bin.position(), "operator " + bin.operator() + " is not supported by the lowering yet");
            };
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("get")
                && m.target() instanceof Expression.Name n && hashDecls.containsKey(n.name())) {
            return hashGet(call, n.name());
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("get")
                && m.target() instanceof Expression.Name n && randomDecls.containsKey(n.name()) && call.arguments().isEmpty()) {
            return randomGet(n.name());
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Name f
                && (f.name().equals("max") || f.name().equals("min")) && call.arguments().size() == 2) {
            // TNA's max/min: one ALU operation of the container ALU (unsigned)
            if (signed(call.arguments().get(0).value()) || signed(call.arguments().get(1).value())) {
                // mins/maxs of the container ALU (bf-p4c DoInstructionSelection, min/max of a signed type)
                int w = Math.max(operandWidth(call.arguments().get(0).value(), params), operandWidth(call.arguments().get(1).value(), params));
                w = w == 0 ? (width == 0 ? 64 : width) : w;
                return op(f.name().equals("max") ? VliwOp.MAXS : VliwOp.MINS, value(call.arguments().get(0).value(), params, w),
                        value(call.arguments().get(1).value(), params, w), w);
            }
            Expr l = value(call.arguments().get(0).value(), params, width);
            Expr r = value(call.arguments().get(1).value(), params, width);
            return f.name().equals("max") ? max(l, r) : min(l, r);
        }
        if (e instanceof Expression.Member || e instanceof Expression.Name) {
            Field f = field(e);
            Expr held = substituting ? heldOutputs.get(f) : null;
            return held != null ? held : read(f);
        }
        throw new Refusal(e.position(), "this expression is not supported by the lowering yet");
    }

    /**
     * {@code a |+| b} and {@code a |-| b}: one saturating instruction of the container ALU at
     * the operands' width W (bf-p4c mau/instruction_selection.cpp,
     * DoInstructionSelection::postorder(IR::AddSat / IR::SubSat): saddu/sadds, ssubu/ssubs),
     * unsigned on bit<W> and signed on int<W>.
     */
    private Expr saturating(Expression.Binary bin, Map<String, Param> params, int context) {
        int w = Math.max(operandWidth(bin.left(), params), operandWidth(bin.right(), params));
        if (w == 0) {
            w = context == 0 ? 64 : context;
        }
        Expr l = value(bin.left(), params, w);
        Expr r = value(bin.right(), params, w);
        boolean s = signed(bin.left()) || signed(bin.right());
        return bin.operator().equals("|+|") ? saturatingAdd(l, r, w, s) : saturatingSub(l, r, w, s);
    }

    /**
     * {@code a ++ b}: a's bits above b's (its width the sum). A constant 0 on the left is a
     * zero extension, b's value itself (bf-p4c leaves such a concat as it is,
     * DoInstructionSelection::preorder(IR::Concat)); another constant is or-ed in above b's
     * bits; two run-time values are one concatenating instruction (the ALU's deposit-field;
     * bf-p4c may instead take a concatenation of PHV fields through the hash distribution
     * unit's identity hash, HashGenSetup::CreateHashGenExprs::preorder(IR::Concat)).
     */
    private Expr concatenation(Expression.Binary bin, Map<String, Param> params) {
        int wl = operandWidth(bin.left(), params);
        int wr = operandWidth(bin.right(), params);
        if (wl == 0 || wr == 0) {
            throw new Refusal(bin.position(), "an operand of ++ has no width (give the constant one, as 8w5)");
        }
        if (wl + wr > 64) {
            throw new Refusal(bin.position(), "a concatenation of " + (wl + wr) + " bits; the lowering carries at most 64");
        }
        Expr r = value(bin.right(), params, wr);
        if (types.isConstant(bin.left())) {
            long k = types.constant(bin.left()) & Types.longMask(wl);
            return k == 0 ? r : or(r, constant(k << wr));
        }
        return concat(value(bin.left(), params, wl), r, wr);
    }

    /** Whether {@code c} widens an int<V> to an int<W>, W > V: the sign bit is copied into the new bits. */
    private boolean signExtends(Expression.Cast c, Map<String, Param> params) {
        if (!types.signed(c.type()) || !signed(c.operand())) {
            return false;
        }
        int from = operandWidth(c.operand(), params);
        return from > 0 && from < types.signedWidth(c.type());
    }

    /**
     * {@code dest = (int<W>) x}, x an int<V>: x shifted up to dest's top bits, then shifted back
     * arithmetically (shl, then shrs: two instructions, in two stages). bf-p4c takes a sign
     * extension through the hash distribution unit instead (IR::BFN::SignExtend as an identity
     * hash, HashGenSetup::CreateHashGenExprs), one stage.
     */
    private void signExtend(Block code, Field dest, Expression.Cast c, Map<String, Param> params) {
        int w = dest.width();
        int shift = w - operandWidth(c.operand(), params);
        code.set(dest, shl(value(c.operand(), params, w), constant(shift)));
        code.set(dest, op(VliwOp.SHRS, read(dest), constant(shift), w));
        heldOutputs.remove(dest);
    }

    /** An operand's width: an action parameter's declared width, else {@link #width}. */
    private int operandWidth(Expression e, Map<String, Param> params) {
        if (e instanceof Expression.Name n && params.containsKey(n.name()) && rebase(e) == null) {
            return params.get(n.name()).width();
        }
        return width(e, params);
    }

    /** The width of a PHV field a stateful ALU reads, 0 when {@code x} names none; an int<W> field is refused (the ALU compares unsigned). */
    private int stateAluInput(Expression x) {
        if (!isField(x)) {
            return 0;
        }
        Field f = field(x);
        if (signedFields.contains(f)) {
            throw new Refusal(x.position(), "int<W> field " + RegisterActionLowering.path(x) + " as a stateful ALU operand is not"
                    + " supported by the lowering yet (the ALU compares unsigned)");
        }
        return f.width();
    }

    /** Whether {@code e} is of an int<W> type: a signed field, a cast to int<W>, a signed literal, an operation on one. */
    private boolean signed(Expression e) {
        if (e instanceof Expression.Cast c) {
            return types.signed(c.type());
        }
        if (e instanceof Expression.IntegerLiteral l) {
            return l.signed();
        }
        if (e instanceof Expression.Binary bin && bin.operator().equals("++")) {
            return signed(bin.left());
        }
        if (e instanceof Expression.Binary bin) {
            return signed(bin.left()) || signed(bin.right());
        }
        if (e instanceof Expression.Unary u) {
            return signed(u.operand());
        }
        if ((e instanceof Expression.Member || e instanceof Expression.Name) && !types.isConstant(e) && isField(e)) {
            return signedFields.contains(field(e));
        }
        return false;
    }

    /** The bits a PHV field or a hash unit's output holds; 0 for any other expression. */
    private int ownWidth(Expression e) {
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("get")
                && m.target() instanceof Expression.Name n && hashDecls.containsKey(n.name())) {
            return types.width(((TypeRef.Named) hashDecls.get(n.name()).type()).arguments().get(0));
        }
        if (e instanceof Expression.Call call && call.callee() instanceof Expression.Member m && m.member().equals("get")
                && m.target() instanceof Expression.Name n && randomDecls.containsKey(n.name())) {
            return types.width(((TypeRef.Named) randomDecls.get(n.name()).type()).arguments().get(0));
        }
        if ((e instanceof Expression.Member || e instanceof Expression.Name) && !types.isConstant(e) && isField(e)) {
            return field(e).width();
        }
        return 0;
    }

    /** The PHV field an l-value or a read names: a header field, a metadata field, an intrinsic. */
    private Field field(Expression e) {
        if (e instanceof Expression.Name n && locals.containsKey(n.name())) {
            return locals.get(n.name());
        }
        String path = e instanceof Expression.Member ? localPath(e) : null;
        if (path != null && locals.containsKey(path)) {
            return locals.get(path);
        }
        Expression bound = rebase(e);
        if (bound != null) {
            return parent.field(bound);
        }
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
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && n.name().equals(metadataParam) && metadataStruct != null) {
            return metadataHeaderField(e, n.name(), h.member(), m.member());
        }
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n) {
            if (n.name().equals(metadataParam) && metadataStruct != null) {
                for (Declaration.Field mf : metadataStruct.fields()) {
                    if (mf.name().equals(m.member())) {
                        // each gress has its own metadata (an egress parameter named as ingress's gets the control's name)
                        String name = n.name() + "." + m.member();
                        String key = gress + ":" + name;
                        Field f = fields.get(key);
                        if (f == null) {
                            boolean taken = fields.containsKey(Gress.INGRESS + ":" + name) || fields.containsKey(Gress.EGRESS + ":" + name);
                            f = b.metadata(gress, taken ? control.name() + "." + name : name, types.signedWidth(mf.type()));
                            fields.put(key, f);
                        }
                        if (types.signed(mf.type())) {
                            signedFields.add(f);
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

    /**
     * A field of a header in the metadata struct ({@code meta.h.f}: a resubmit header the parser
     * extracts or the deparser emits): one metadata field of the gress, {@code meta.h.f}.
     */
    private Field metadataHeaderField(Expression e, String meta, String header, String member) {
        for (Declaration.Field mf : metadataStruct.fields()) {
            Declaration.StructLike h = mf.name().equals(header) ? types.structLike(mf.type()) : null;
            if (h != null && h.kind() == Declaration.StructLike.Kind.HEADER) {
                for (Declaration.Field hf : h.fields()) {
                    if (hf.name().equals(member)) {
                        String name = meta + "." + header + "." + member;
                        return fields.computeIfAbsent(gress + ":" + name, k -> b.metadata(gress, name, types.width(hf.type())));
                    }
                }
            }
        }
        throw new Refusal(e.position(), header + "." + member + " is not a field of a header in " + metadataStruct.name());
    }

    private Field validBit(Expression header) {
        String path = localPath(header);
        if (path != null && locals.containsKey(path + VALID)) {
            return locals.get(path + VALID);
        }
        Expression bound = rebase(header);
        if (bound != null) {
            return parent.validBit(bound);
        }
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

package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.ParserState;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.parse.KeySet;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseState;
import dev.rmtemu.model.parse.ParserChecksumOp;
import dev.rmtemu.model.parse.SelectKey;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A TNA ingress parser lowered to rmtemu's parse graph. Sub-parser instances are inlined
 * (their states prefixed with the instance's name, their {@code accept} continuing the
 * calling state). rmtemu's frames begin at the first header the program extracts: what TNA
 * prepends (the intrinsic metadata, PORT_METADATA_SIZE bits of port metadata) is the
 * engine's intrinsics, so extracting the intrinsic metadata and advancing over the port
 * metadata lower to nothing, and a select on {@code resubmit_flag} takes its 0 branch (a
 * resubmitted packet's frame is parsed as on its first pass, unless the 1 branch rejects).
 * Only the states reachable from {@code start} are kept.
 */
final class ParserLowering {
    static final String INGRESS_INTRINSIC = "ingress_intrinsic_metadata_t";
    static final String EGRESS_INTRINSIC = "egress_intrinsic_metadata_t";

    private enum Role { PACKET, HEADERS, METADATA, INTRINSIC }

    /** One parser (the top one or an inlined instance): its states, what its parameters are, where its accept goes. */
    private record Context(Declaration.Parser parser, String prefix, Map<String, Role> roles, String accept) {
        String state(String name) {
            return switch (name) {
                case "accept" -> accept;
                case "reject" -> "reject";
                default -> prefix + name;
            };
        }

        ParserState find(String name) {
            for (ParserState s : parser.states()) {
                if (s.name().equals(name)) {
                    return s;
                }
            }
            return null;
        }
    }

    /** A state being built: its operations and how it leaves. */
    private static final class Pending {
        final String name;
        final List<ParseState.Op> ops = new ArrayList<>();
        final List<SelectKey> keys = new ArrayList<>();
        final List<KeySet[]> sets = new ArrayList<>();
        final List<String> nexts = new ArrayList<>();

        Pending(String name) {
            this.name = name;
        }
    }

    private final Types types;
    private final Headers headers;
    private final List<Pending> built = new ArrayList<>();
    private final Set<String> done = new LinkedHashSet<>();
    private final Deque<Runnable> work = new ArrayDeque<>();
    private final Map<String, Integer> continuations = new HashMap<>();
    /** The parsers' value sets, by name, in declaration order (the control plane fills them: {@code pvs_add}). */
    private final Map<String, int[]> valueSets = new LinkedHashMap<>();

    private ParserLowering(Types types, Headers headers) {
        this.types = types;
        this.headers = headers;
    }

    /** The parse graph of a TNA parser {@code (packet_in, out H, out M, out ingress/egress_intrinsic_metadata_t)}. */
    static ParseGraph lower(Types types, Headers headers, Declaration.Parser parser, String gress) {
        return lowerWithResubmit(types, headers, parser, gress).graph();
    }

    /**
     * A lowered parser: its parse graph, and the header of its metadata struct that its
     * {@code resubmit_flag == 1} branch extracts (TNA's TofinoIngressParser pattern:
     * {@code pkt.extract(ig_md.resubmit_hdr)}), or null when that branch extracts none.
     */
    record Lowered(ParseGraph graph, String resubmitHeader, List<ParserChecksumOp> checksums) {
    }

    /** The parser's Checksum calls in the order met; their targets are members of the parser's metadata struct. */
    private final List<ParserChecksumOp> checksumOps = new ArrayList<>();
    private final List<SourcePosition> checksumAt = new ArrayList<>();

    /** As {@link #lower}, with the metadata header the resubmit branch extracts. */
    static Lowered lowerWithResubmit(Types types, Headers headers, Declaration.Parser parser, String gress) {
        List<Parameter> ps = parser.type().parameters();
        if (ps.size() != 4) {
            throw new Refusal(parser.position(), gress + " parser " + parser.name()
                    + " must have TNA's four parameters (packet_in, out headers, out metadata, out " + gress + "_intrinsic_metadata_t)");
        }
        Map<String, Role> roles = new HashMap<>();
        roles.put(ps.get(0).name(), Role.PACKET);
        roles.put(ps.get(1).name(), Role.HEADERS);
        roles.put(ps.get(2).name(), Role.METADATA);
        roles.put(ps.get(3).name(), Role.INTRINSIC);
        ParserLowering l = new ParserLowering(types, headers);
        l.checkLocals(parser);
        Context top = new Context(parser, "", roles, "accept");
        l.enqueue(top, "start", parser.position());
        while (!l.work.isEmpty()) {
            l.work.poll().run();
        }
        ParseGraph.Builder g = ParseGraph.builder(parser.name());
        for (Headers.Instance h : headers.instances()) {
            g.header(h.name(), h.type());
        }
        for (Map.Entry<String, int[]> v : l.valueSets.entrySet()) {
            g.valueSet(v.getKey(), v.getValue()[0], v.getValue()[1]);
        }
        for (Pending p : l.built) {
            ParseGraph.StateBuilder s = g.state(p.name);
            for (ParseState.Op op : p.ops) {
                if (op instanceof ParseState.Extract e) {
                    s.extract(e.header());
                } else {
                    s.advance(((ParseState.Advance) op).bytes());
                }
            }
            if (p.keys.isEmpty()) {
                s.transition(p.nexts.get(0));
            } else {
                s.select(p.keys.toArray(new SelectKey[0]));
                for (int i = 0; i < p.nexts.size(); i++) {
                    s.when(p.nexts.get(i), p.sets.get(i));
                }
                s.end();
            }
        }
        if (l.resubmitRejects) {
            g.rejectResubmitted();
        }
        l.checkChecksumHeaders(gress);
        return new Lowered(g.build(), l.resubmitHeader, List.copyOf(l.checksumOps));
    }

    private void enqueue(Context c, String astState, SourcePosition from) {
        String name = c.state(astState);
        if (name.equals("accept") || name.equals("reject") || !done.add(name)) {
            return;
        }
        ParserState s = c.find(astState);
        if (s == null) {
            throw new Refusal(from, "parser " + c.parser.name() + " has no state " + astState);
        }
        work.add(() -> lowerState(c, new Pending(name), s.statements(), 0, s));
    }

    private void lowerState(Context c, Pending p, List<Statement> stmts, int from, ParserState s) {
        built.add(p);
        for (int i = from; i < stmts.size(); i++) {
            Statement st = stmts.get(i);
            if (checksumStatement(c, p, st)) {
                continue;
            }
            if (st instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m
                    && m.target() instanceof Expression.Name target) {
                Role r = c.roles.get(target.name());
                if (r == Role.PACKET && m.member().equals("extract") && cs.call().arguments().size() == 1) {
                    extract(c, p, cs.call().arguments().get(0).value());
                    continue;
                }
                if (r == Role.PACKET && m.member().equals("advance") && cs.call().arguments().size() == 1) {
                    advance(p, cs.call().arguments().get(0).value());
                    continue;
                }
                Declaration sub = subParser(c, target.name());
                if (sub != null && m.member().equals("apply")) {
                    // the caller's state goes on in a continuation state after the instance's accept
                    int k = continuations.merge(p.name, 1, Integer::sum);
                    String cont = p.name + "$" + k;
                    Declaration.Parser sp = (Declaration.Parser) sub;
                    Context inner = new Context(sp, c.prefix + target.name() + ".", bind(c, sp, cs.call().arguments(), cs), cont);
                    p.nexts.add(inner.state("start"));
                    enqueue(inner, "start", cs.position());
                    if (done.add(cont)) {
                        int next = i + 1;
                        work.add(() -> lowerState(c, new Pending(cont), stmts, next, s));
                    }
                    return;
                }
            }
            if (st instanceof Statement.Empty || isPortMetadataUnpack(c, st)) {
                continue;
            }
            throw new Refusal(st.position(), "this statement in parser state " + s.name() + " is not supported by the lowering"
                    + " (extract, advance, port_metadata_unpack, sub-parser apply and Checksum calls are)");
        }
        transition(c, p, s);
    }

    /**
     * {@code md = port_metadata_unpack<T>(pkt);} into the metadata: like
     * {@code advance(PORT_METADATA_SIZE)} it reads no frame bytes in rmtemu, and the port
     * metadata is what the control plane set for the port, which rmtemu does not model: the
     * fields keep their initial value, 0.
     */
    private static boolean isPortMetadataUnpack(Context c, Statement st) {
        return st instanceof Statement.Assignment a && a.value() instanceof Expression.Call call
                && call.callee() instanceof Expression.Name n && n.name().equals("port_metadata_unpack")
                && call.arguments().size() == 1 && call.arguments().get(0).value() instanceof Expression.Name p
                && c.roles.get(p.name()) == Role.PACKET && a.target() instanceof Expression.Member m
                && m.target() instanceof Expression.Name md && c.roles.get(md.name()) == Role.METADATA;
    }

    private Declaration subParser(Context c, String instance) {
        for (Declaration d : c.parser.locals()) {
            if (d instanceof Declaration.Instantiation in && in.name().equals(instance)) {
                Declaration t = types.declaration(Types.named(in.type()));
                if (t instanceof Declaration.Parser) {
                    return t;
                }
                throw new Refusal(in.position(), "extern " + Types.named(in.type()) + " in a parser is not supported by the lowering yet");
            }
        }
        return null;
    }

    /** A parser's local declarations: sub-parser instances and value sets of bit<W> (an extern is refused by name). */
    private void checkLocals(Declaration.Parser p) {
        for (Declaration d : p.locals()) {
            if (d instanceof Declaration.ValueSet v) {
                if (types.structLike(v.type()) != null) {
                    throw new Refusal(v.position(), "value_set " + v.name() + " of a struct is not supported by the lowering (bit<W> is)");
                }
                int size = (int) types.constant(v.size());
                if (size < 1) {
                    throw new Refusal(v.size().position(), "value_set " + v.name() + " needs a size of at least 1");
                }
                valueSets.putIfAbsent(v.name(), new int[] {types.width(v.type()), size});
                continue;
            }
            if (d instanceof Declaration.Instantiation cs && isChecksum(cs)) {
                if (!cs.arguments().isEmpty()) {
                    throw new Refusal(cs.position(), "Checksum " + cs.name() + " takes no constructor arguments");
                }
                continue;
            }
            if (!(d instanceof Declaration.Instantiation in) || !(types.declaration(Types.named(in.type())) instanceof Declaration.Parser)) {
                String what = d instanceof Declaration.Instantiation in ? "extern " + Types.named(in.type()) + " (" + in.name() + ")"
                        : "declaration " + d.name();
                throw new Refusal(d.position(), what + " in parser " + p.name() + " is not supported by the lowering yet");
            }
        }
    }

    private Map<String, Role> bind(Context c, Declaration.Parser sp, List<Argument> args, Statement at) {
        checkLocals(sp);
        List<Parameter> ps = sp.type().parameters();
        if (args.size() != ps.size()) {
            throw new Refusal(at.position(), "parser " + sp.name() + " takes " + ps.size() + " arguments, given " + args.size());
        }
        Map<String, Role> roles = new HashMap<>();
        for (int i = 0; i < ps.size(); i++) {
            Expression a = args.get(i).value();
            Role r = a instanceof Expression.Name n ? c.roles.get(n.name()) : null;
            if (r == null) {
                throw new Refusal(a.position(), "argument " + (i + 1) + " of parser " + sp.name()
                        + ": only the calling parser's own parameters can be passed by the lowering");
            }
            roles.put(ps.get(i).name(), r);
        }
        return roles;
    }

    private void extract(Context c, Pending p, Expression arg) {
        if (arg instanceof Expression.Name n && c.roles.get(n.name()) == Role.INTRINSIC) {
            return; // TNA's intrinsic metadata: the engine's intrinsics, not frame bytes
        }
        p.ops.add(new ParseState.Extract(headerOf(c, arg)));
    }

    private String headerOf(Context c, Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && c.roles.get(n.name()) == Role.HEADERS) {
            if (headers.instance(m.member()) == null) {
                throw new Refusal(e.position(), m.member() + " is not a header of the program's headers struct");
            }
            return m.member();
        }
        throw new Refusal(e.position(), "extract of something other than a header of the headers struct is not supported by the lowering");
    }

    private void advance(Pending p, Expression arg) {
        if (arg instanceof Expression.Name n && n.name().equals("PORT_METADATA_SIZE")) {
            return; // the port metadata TNA prepends: not in rmtemu's frames
        }
        long bits = types.constant(arg);
        if (bits % 8 != 0 || bits <= 0) {
            throw new Refusal(arg.position(), "advance by " + bits + " bits: the lowering advances whole bytes");
        }
        p.ops.add(new ParseState.Advance((int) (bits / 8)));
    }

    private void transition(Context c, Pending p, ParserState s) {
        ParserState.Transition t = s.transition();
        if (t == null) {
            p.nexts.add("reject");
            return;
        }
        if (t.select() == null) {
            p.nexts.add(c.state(t.target()));
            enqueue(c, t.target(), t.position());
            return;
        }
        ParserState.Select sel = t.select();
        List<SelectKey> keys = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        boolean intrinsicOnly = true;
        for (Expression k : sel.keys()) {
            if (isResubmitFlag(c, k)) {
                keys.add(null);
                widths.add(1);
                continue;
            }
            intrinsicOnly = false;
            if (k instanceof Expression.Member m && m.target() instanceof Expression.Member h
                    && h.target() instanceof Expression.Name n && c.roles.get(n.name()) == Role.HEADERS) {
                Headers.Instance hi = headers.instance(h.member());
                int w = hi == null ? -1 : hi.width(m.member());
                if (w < 0) {
                    throw new Refusal(k.position(), h.member() + "." + m.member() + " is not a field of the program's headers");
                }
                keys.add(SelectKey.field(h.member() + "." + m.member()));
                widths.add(w);
            } else if (k instanceof Expression.Call call && call.callee() instanceof Expression.Member m
                    && m.member().equals("lookahead") && m.target() instanceof Expression.Name n
                    && c.roles.get(n.name()) == Role.PACKET && call.typeArguments().size() == 1) {
                int w = types.width(call.typeArguments().get(0));
                keys.add(SelectKey.lookahead(0, w));
                widths.add(w);
            } else {
                throw new Refusal(k.position(), "this select key is not supported by the lowering (header fields and"
                        + " pkt.lookahead<bit<W>>() are)");
            }
        }
        if (intrinsicOnly) {
            // a select on resubmit_flag alone: the frame's graph is the first pass's (flag 0); the
            // branch of flag 1 says where a resubmitted packet's parser extracts the resubmit header
            resubmitBranch(c, sel);
            for (ParserState.SelectCase sc : sel.cases()) {
                if (matchesZero(sc.keyset())) {
                    p.nexts.add(c.state(sc.state()));
                    enqueue(c, sc.state(), sc.position());
                    return;
                }
            }
            p.nexts.add("reject");
            return;
        }
        if (keys.contains(null)) {
            throw new Refusal(sel.position(), "a select mixing resubmit_flag with header fields is not supported by the lowering");
        }
        p.keys.addAll(keys);
        for (ParserState.SelectCase sc : sel.cases()) {
            List<Expression> parts = sc.keyset() instanceof Expression.Tuple tu ? tu.elements() : List.of(sc.keyset());
            KeySet[] sets = new KeySet[keys.size()];
            if (parts.size() == 1 && (parts.get(0) instanceof Expression.Default || parts.get(0) instanceof Expression.DontCare)) {
                Arrays.fill(sets, KeySet.ANY);
            } else if (parts.size() != keys.size()) {
                throw new Refusal(sc.position(), "this case has " + parts.size() + " key sets for " + keys.size() + " keys");
            } else {
                for (int i = 0; i < parts.size(); i++) {
                    sets[i] = keySet(c, parts.get(i), widths.get(i));
                }
            }
            p.sets.add(sets);
            p.nexts.add(c.state(sc.state()));
            enqueue(c, sc.state(), sc.position());
        }
    }

    private KeySet keySet(Context c, Expression e, int width) {
        long m = Types.longMask(width);
        if (e instanceof Expression.Default || e instanceof Expression.DontCare) {
            return KeySet.ANY;
        }
        if (e instanceof Expression.Mask mk) {
            return KeySet.masked(types.constant(mk.value()) & m, types.constant(mk.mask()) & m);
        }
        if (e instanceof Expression.Range r) {
            return KeySet.range(types.constant(r.low()) & m, types.constant(r.high()) & m);
        }
        if (e instanceof Expression.Name n
                && c.parser.locals().stream().anyMatch(d -> d instanceof Declaration.ValueSet v && v.name().equals(n.name()))) {
            int bits = valueSets.get(n.name())[0];
            if (bits != width) {
                throw new Refusal(e.position(), "value_set " + n.name() + " holds bit<" + bits + "> values; the key has " + width + " bits");
            }
            return KeySet.valueSet(n.name());
        }
        return KeySet.exact(types.constant(e) & m);
    }

    private boolean matchesZero(Expression keyset) {
        if (keyset instanceof Expression.Default || keyset instanceof Expression.DontCare) {
            return true;
        }
        if (keyset instanceof Expression.Mask mk) {
            return (types.constant(mk.value()) & types.constant(mk.mask())) == 0;
        }
        if (keyset instanceof Expression.Range r) {
            return types.constant(r.low()) <= 0;
        }
        return types.constant(keyset) == 0;
    }

    /** The metadata header the resubmit_flag == 1 branch extracts, or null. */
    private String resubmitHeader;
    /** Whether the resubmit_flag == 1 branch's state transitions to reject (TNA's boilerplate TofinoIngressParser). */
    private boolean resubmitRejects;

    /**
     * The state of {@code select(resubmit_flag)}'s 1 case: a {@code pkt.extract(meta.h)} there
     * extracts the resubmit header into metadata header h (an advance skips it; any other
     * statement is refused). The frame is parsed on the second pass as on the first; a state
     * that transitions to reject rejects every resubmitted packet ({@link ParseGraph#resubmittedRejected}).
     */
    private void resubmitBranch(Context c, ParserState.Select sel) {
        for (ParserState.SelectCase sc : sel.cases()) {
            if (sc.keyset() instanceof Expression.Default || sc.keyset() instanceof Expression.DontCare
                    || sc.keyset() instanceof Expression.Mask || sc.keyset() instanceof Expression.Range
                    || types.constant(sc.keyset()) != 1) {
                continue;
            }
            ParserState s = c.find(sc.state());
            if (s == null) {
                return;
            }
            for (Statement st : s.statements()) {
                if (st instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m
                        && m.target() instanceof Expression.Name p && c.roles.get(p.name()) == Role.PACKET
                        && cs.call().arguments().size() == 1) {
                    Expression a = cs.call().arguments().get(0).value();
                    if (m.member().equals("advance")) {
                        continue;
                    }
                    if (m.member().equals("extract") && a instanceof Expression.Member h && h.target() instanceof Expression.Name md
                            && c.roles.get(md.name()) == Role.METADATA) {
                        if (resubmitHeader != null && !resubmitHeader.equals(h.member())) {
                            throw new Refusal(st.position(), "the resubmit branch extracts " + h.member() + " after "
                                    + resubmitHeader + "; one resubmit header is read");
                        }
                        resubmitHeader = h.member();
                        continue;
                    }
                }
                if (!(st instanceof Statement.Empty)) {
                    throw new Refusal(st.position(), "in the resubmit branch (state " + s.name() + ") the lowering reads the"
                            + " resubmit header with pkt.extract(metadata.header) or skips it with pkt.advance");
                }
            }
            // a state without a transition rejects, as transition() reads it
            ParserState.Transition t = s.transition();
            resubmitRejects = t == null || t.select() == null && "reject".equals(t.target());
            return;
        }
    }

    private static boolean isResubmitFlag(Context c, Expression k) {
        return k instanceof Expression.Member m && m.member().equals("resubmit_flag") && m.target() instanceof Expression.Name n
                && c.roles.get(n.name()) == Role.INTRINSIC;
    }

    private static boolean isChecksum(Declaration.Instantiation in) {
        return "Checksum".equals(Types.named(in.type()));
    }

    /** The Checksum instance of this parser that {@code e} names, or null. */
    private static String checksumInstance(Context c, Expression e) {
        if (e instanceof Expression.Name n) {
            for (Declaration d : c.parser.locals()) {
                if (d instanceof Declaration.Instantiation in && in.name().equals(n.name()) && isChecksum(in)) {
                    return c.prefix + n.name();
                }
            }
        }
        return null;
    }

    /**
     * A call of a parser Checksum (TNA's {@code add}, {@code subtract}, {@code subtract_all_and_deposit},
     * and {@code md.f = c.verify()} or {@code c.get()}, a cast around them allowed): recorded to run
     * in its state after the state's extracts and advances so far. False for any other statement.
     */
    private boolean checksumStatement(Context c, Pending p, Statement st) {
        Expression.Call call;
        Expression target = null;
        if (st instanceof Statement.CallStatement cs) {
            call = cs.call();
        } else if (st instanceof Statement.Assignment a) {
            Expression v = a.value() instanceof Expression.Cast cast ? cast.operand() : a.value();
            if (!(v instanceof Expression.Call vc)) {
                return false;
            }
            call = vc;
            target = a.target();
        } else {
            return false;
        }
        if (!(call.callee() instanceof Expression.Member m)) {
            return false;
        }
        String engine = checksumInstance(c, m.target());
        if (engine == null) {
            return false;
        }
        String method = m.member();
        ParserChecksumOp.Kind kind = switch (method) {
            case "add" -> ParserChecksumOp.Kind.ADD;
            case "subtract" -> ParserChecksumOp.Kind.SUBTRACT;
            case "verify" -> ParserChecksumOp.Kind.VERIFY;
            case "get" -> ParserChecksumOp.Kind.GET;
            case "subtract_all_and_deposit" -> ParserChecksumOp.Kind.DEPOSIT;
            default -> throw new Refusal(st.position(), "Checksum." + method + " in a parser is not supported by the lowering"
                    + " (add, subtract, verify, get and subtract_all_and_deposit are)");
        };
        boolean takesData = kind == ParserChecksumOp.Kind.ADD || kind == ParserChecksumOp.Kind.SUBTRACT;
        boolean returns = kind == ParserChecksumOp.Kind.VERIFY || kind == ParserChecksumOp.Kind.GET;
        if (returns != (target != null) || call.arguments().size() != (takesData || kind == ParserChecksumOp.Kind.DEPOSIT ? 1 : 0)) {
            throw new Refusal(st.position(), "Checksum." + method + (returns ? " returns a value to assign to a metadata field"
                    : takesData ? " takes one header or list of header fields" : " takes the metadata field to deposit into"));
        }
        List<String> fields = new ArrayList<>();
        String metadata = null;
        if (takesData) {
            Expression data = call.arguments().get(0).value();
            List<Expression> parts = data instanceof Expression.ListExpression list ? list.elements() : List.of(data);
            int bits = 0;
            for (Expression e : parts) {
                for (String f : checksumData(c, e)) {
                    fields.add(f);
                    int dot = f.indexOf('.');
                    bits += headers.instance(f.substring(0, dot)).width(f.substring(dot + 1));
                }
            }
            if (bits % 16 != 0) {
                throw new Refusal(data.position(), "Checksum." + method + " of " + bits + " bits: the checksum engine takes"
                        + " whole 16-bit words");
            }
        } else {
            metadata = metadataMember(c, kind == ParserChecksumOp.Kind.DEPOSIT ? call.arguments().get(0).value() : target);
        }
        checksumOps.add(new ParserChecksumOp(p.name, p.ops.size(), engine, kind, fields, metadata));
        checksumAt.add(st.position());
        return true;
    }

    /** A header of the headers struct (its fields, in order) or one header field, as dotted names. */
    private List<String> checksumData(Context c, Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && c.roles.get(n.name()) == Role.HEADERS) {
            Headers.Instance h = headers.instance(m.member());
            if (h == null) {
                throw new Refusal(e.position(), m.member() + " is not a header of the program's headers struct");
            }
            if (h.type().varbit() != null) {
                throw new Refusal(e.position(), "a checksum over header " + m.member() + " with a variable-length field is not"
                        + " supported by the lowering (list its fixed fields)");
            }
            List<String> out = new ArrayList<>();
            h.type().fields().forEach(f -> out.add(m.member() + "." + f.name()));
            return out;
        }
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && c.roles.get(n.name()) == Role.HEADERS) {
            Headers.Instance hi = headers.instance(h.member());
            if (hi == null || hi.width(m.member()) < 0) {
                throw new Refusal(e.position(), h.member() + "." + m.member() + " is not a field of the program's headers");
            }
            return List.of(h.member() + "." + m.member());
        }
        throw new Refusal(e.position(), "a parser checksum sums header fields or headers of the headers struct");
    }

    /** {@code md.f}: a field of the parser's metadata struct, by member name. */
    private static String metadataMember(Context c, Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && c.roles.get(n.name()) == Role.METADATA) {
            return m.member();
        }
        throw new Refusal(e.position(), "a parser checksum's result goes into a field of the parser's metadata struct");
    }

    /** Only the ingress parser computes checksums: rmtemu parses a frame once. */
    private void checkChecksumHeaders(String gress) {
        if (!checksumOps.isEmpty() && gress.equals("egress")) {
            throw new Refusal(checksumAt.get(0), "a Checksum in the egress parser is not supported: rmtemu parses a frame"
                    + " once, at ingress (compute it in the ingress parser)");
        }
    }
}

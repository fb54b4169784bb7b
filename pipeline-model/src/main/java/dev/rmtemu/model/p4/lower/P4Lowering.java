package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Parameter;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.parse.ChecksumUpdate;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParserChecksumOp;
import dev.rmtemu.model.parse.ParserSpec;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A TNA program's AST lowered to rmtemu's program IR: {@code Switch(Pipeline(...)) main}'s
 * ingress parser becomes the parse graph (its headers struct the program's header types),
 * the ingress deparser the emit order and checksum updates, the ingress control an
 * unplaced control the compiler places, and the egress pipeline likewise (see
 * the egress method). Whatever is not supported is refused with its position, never skipped;
 * every refusal found is reported, not only the first.
 */
public final class P4Lowering {
    private final Types types;
    private final Diagnostics errors;
    /** The run's seed, from which each Random extern's is derived. */
    private long randomSeed;
    /**
     * The ingress control's name of the metadata struct, under which the ingress metadata fields are
     * named ({@code ig_md.checksum_err}), and the ingress metadata fields the parser's checksums write
     * and the deparser's checksums read, with their widths: declared after the control is lowered.
     */
    private String controlMeta;
    private final Map<String, Integer> checksumMetadata = new LinkedHashMap<>();
    /** The deparser being lowered: its metadata parameter and struct, and whether it is the ingress one (a residual is read there only). */
    private String deparserMeta = "";
    private Declaration.StructLike deparserMetaStruct;
    private boolean ingressDeparser;

    private P4Lowering(Program program, Diagnostics errors) {
        this.types = new Types(program);
        this.errors = errors;
    }

    /** The lowered (unplaced) program, or null with the reasons in {@code errors}. */
    public static StageProgram lower(Program ast, String name, SourcePosition whole, Diagnostics errors) {
        return lower(ast, name, whole, errors, P4Programs.DEFAULT_RANDOM_SEED);
    }

    /** As {@link #lower(Program, String, SourcePosition, Diagnostics)}, {@code Random} externs seeded from {@code randomSeed}. */
    public static StageProgram lower(Program ast, String name, SourcePosition whole, Diagnostics errors, long randomSeed) {
        P4Lowering l = new P4Lowering(ast, errors);
        l.randomSeed = randomSeed;
        return l.lower(ast, name, whole);
    }

    private StageProgram lower(Program ast, String name, SourcePosition whole) {
        List<Refusal> refusals = new ArrayList<>();
        try {
            Declaration.Instantiation main = instance(ast, "main", whole);
            if (!"Switch".equals(Types.named(main.type())) || main.arguments().size() != 1) {
                throw new Refusal(main.position(), "main must be Switch(pipe) with one pipeline (multi-pipeline programs are not supported yet)");
            }
            Declaration.Instantiation pipe = pipeline(ast, main.arguments().get(0));
            List<Declaration> blocks = new ArrayList<>();
            for (Argument a : pipe.arguments()) {
                blocks.add(block(a.value()));
            }
            if (blocks.size() != 6) {
                throw new Refusal(pipe.position(), "Pipeline takes six blocks (ingress parser, control, deparser; egress parser, control, deparser)");
            }
            Declaration.Parser ingressParser = as(blocks.get(0), Declaration.Parser.class, pipe.arguments().get(0));
            Declaration.Control ingress = as(blocks.get(1), Declaration.Control.class, pipe.arguments().get(1));
            Declaration.Control deparser = as(blocks.get(2), Declaration.Control.class, pipe.arguments().get(2));
            Declaration.Parser egressParser = as(blocks.get(3), Declaration.Parser.class, pipe.arguments().get(3));
            Declaration.Control egress = as(blocks.get(4), Declaration.Control.class, pipe.arguments().get(4));
            Declaration.Control egressDeparser = as(blocks.get(5), Declaration.Control.class, pipe.arguments().get(5));
            Declaration.StructLike ingressStruct = headersStruct(ingressParser, "ingress");
            Headers headers = new Headers(types, ingressStruct);
            // each block on its own, so that every refusal is reported (a failed parser leaves a graph of the headers alone)
            ParserLowering.Lowered ingressLowered = guarded(refusals,
                    () -> ParserLowering.lowerWithResubmit(types, headers, ingressParser, "ingress"));
            ParseGraph graph = ingressLowered == null ? null : ingressLowered.graph();
            ParseGraph usable = graph != null ? graph : headersOnly(ingressParser.name(), headers);
            ProgramBuilder b = ProgramBuilder.create(name, "P4 program " + name);
            b.tnaPortNumbers(); // ig_intr_md.ingress_port and the other port values are TNA's PortId_t
            List<Parameter> ctl = ingress.type().parameters();
            controlMeta = ctl.size() > 1 ? ctl.get(1).name() : "";
            List<ParserChecksumOp> parserChecksums = ingressLowered == null ? List.of()
                    : guarded(refusals, () -> parserChecksums(ingressParser, ingressLowered.checksums()));
            DeparserExterns digests = externs(deparser, Gress.INGRESS);
            if (ingressLowered != null) {
                digests.resubmitParsedInto(ingressLowered.resubmitHeader());
            }
            List<String> bridged = graph == null ? List.of() : bridged(ingressStruct, headers, graph, egressParser);
            Emits emits = guarded(refusals, () -> {
                Emits all;
                ingressDeparser = true;
                try {
                    all = deparser(headers, deparser, digests);
                } finally {
                    ingressDeparser = false;
                }
                return new Emits(BridgedHeaders.ingressEmits(all.emit(), bridged, deparser.position(), deparser.name()), all.updates());
            });
            List<ParserChecksumOp> parsed = parserChecksums == null ? List.of() : parserChecksums;
            b.parser(emits == null ? new ParserSpec(usable, allHeaders(headers), List.of(), parsed)
                    : new ParserSpec(usable, emits.emit(), emits.updates(), parsed));
            Map<String, Field> fields = new HashMap<>();
            BridgedHeaders.declare(b, headers, bridged, fields);
            guarded(refusals, () -> {
                ControlLowering.lower(b, Gress.INGRESS, types, headers, ingress, fields, refusals, randomSeed);
                return null;
            });
            for (Map.Entry<String, Integer> m : checksumMetadata.entrySet()) {
                // keyed and named as ControlLowering keys and names the ingress metadata: one field whether the control uses it or not
                fields.computeIfAbsent(Gress.INGRESS + ":" + m.getKey(), k -> b.metadata(Gress.INGRESS, m.getKey(), m.getValue()));
            }
            if (emits != null) {
                guarded(refusals, () -> {
                    List<Parameter> cp = ingress.type().parameters();
                    digests.finish(b, headers, fields, cp.get(1).name(), types.structLike(cp.get(1).type()));
                    return null;
                });
            }
            guarded(refusals, () -> {
                egress(b, ingressStruct, headers, graph, emits, egressParser, egress, egressDeparser, fields, refusals, bridged);
                return null;
            });
            if (!refusals.isEmpty()) {
                for (Refusal r : refusals) {
                    errors.error(r.position(), r.getMessage());
                }
                return null;
            }
            return b.build();
        } catch (Refusal r) {
            for (Refusal x : refusals) {
                errors.error(x.position(), x.getMessage());
            }
            errors.error(r.position(), r.getMessage());
            return null;
        } catch (IllegalArgumentException e) {
            // a rule of the IR the program breaks (a parse graph or table the builder refuses)
            for (Refusal x : refusals) {
                errors.error(x.position(), x.getMessage());
            }
            errors.error(whole, e.getMessage());
            return null;
        }
    }

    private static <T> T guarded(List<Refusal> refusals, Supplier<T> step) {
        try {
            return step.get();
        } catch (Refusal r) {
            if (r.getMessage() != null) {
                refusals.add(r);
            }
            return null;
        }
    }

    private Declaration.StructLike headersStruct(Declaration.Parser p, String gress) {
        List<Parameter> ps = p.type().parameters();
        if (ps.size() < 2 || types.structLike(ps.get(1).type()) == null) {
            throw new Refusal(p.position(), gress + " parser " + p.name() + ": its second parameter must be the headers struct");
        }
        return types.structLike(ps.get(1).type());
    }

    /** A graph that declares the headers and extracts nothing: what the controls are checked against when the parser is refused. */
    private static ParseGraph headersOnly(String name, Headers headers) {
        ParseGraph.Builder g = ParseGraph.builder(name);
        for (Headers.Instance h : headers.instances()) {
            g.header(h.name(), h.type());
        }
        g.state("start").transition("accept");
        return g.build();
    }

    private static List<String> allHeaders(Headers headers) {
        List<String> all = new ArrayList<>();
        for (Headers.Instance i : headers.instances()) {
            all.add(i.name());
        }
        return all;
    }

    /**
     * TNA's egress pipeline. rmtemu parses a frame once (at ingress) and carries its PHV through
     * the traffic manager, so the egress parser must parse as the ingress parser does, into the
     * same headers struct (then egress reads and writes those headers, and its deparser must
     * emit as the ingress deparser does), or extract no header at all (an empty headers struct:
     * egress sees only metadata and the frame leaves as ingress deparsed it).
     */
    private void egress(ProgramBuilder b, Declaration.StructLike ingressStruct, Headers ingressHeaders, ParseGraph ingressGraph, Emits ingressEmits,
                        Declaration.Parser parser, Declaration.Control control, Declaration.Control deparser,
                        Map<String, Field> fields, List<Refusal> refusals, List<String> bridged) {
        Declaration.StructLike struct = headersStruct(parser, "egress");
        DeparserExterns mirrors = externs(deparser, Gress.EGRESS);
        Headers headers;
        if (struct.fields().isEmpty()) {
            headers = new Headers(types, struct);
            ParserLowering.lower(types, headers, parser, "egress");
            Emits e = deparser(headers, deparser, mirrors);
            if (!e.emit().isEmpty() || !e.updates().isEmpty()) {
                throw new Refusal(deparser.position(), "egress deparser " + deparser.name() + " emits headers its parser does not extract");
            }
        } else if (struct.name().equals(ingressStruct.name())) {
            headers = ingressHeaders;
            ParseGraph g = ParserLowering.lower(types, headers, parser, "egress");
            if (ingressGraph != null && !SameParse.same(ingressGraph, g, bridged)) {
                throw new Refusal(parser.position(), "egress parser " + parser.name() + " parses differently from the ingress parser;"
                        + " rmtemu parses a frame once, so egress must parse the same headers the same way (or none)");
            }
            Emits e = deparser(headers, deparser, mirrors);
            BridgedHeaders.checkEgressEmits(e.emit(), bridged, deparser.position(), deparser.name());
            if (ingressEmits != null && (!e.emit().equals(ingressEmits.emit()) || !e.updates().equals(ingressEmits.updates()))) {
                throw new Refusal(deparser.position(), "egress deparser " + deparser.name() + " emits differently from the ingress"
                        + " deparser; rmtemu has one deparser, so both must emit the same headers in the same order with the same checksums");
            }
        } else {
            throw new Refusal(parser.position(), "egress parser " + parser.name() + " extracts into " + struct.name() + ", not "
                    + ingressStruct.name() + "; rmtemu parses a frame once, so egress sees the ingress headers (the same struct)"
                    + " or none (an empty struct)");
        }
        if (!control.locals().isEmpty() || !control.apply().statements().isEmpty()) {
            ControlLowering.lower(b, Gress.EGRESS, types, headers, control, fields, refusals, randomSeed);
        }
        List<Parameter> cp = control.type().parameters();
        mirrors.finish(b, headers, fields, cp.get(1).name(), types.structLike(cp.get(1).type()));
    }

    /**
     * The bridged headers ({@link BridgedHeaders}): those the egress parser extracts and the ingress
     * parser does not, when egress parses into the ingress headers struct (none otherwise, or when
     * the egress parser is refused: {@link #egress} reports that).
     */
    private List<String> bridged(Declaration.StructLike ingressStruct, Headers headers, ParseGraph ingressGraph,
                                 Declaration.Parser egressParser) {
        try {
            Declaration.StructLike struct = headersStruct(egressParser, "egress");
            if (!struct.name().equals(ingressStruct.name())) {
                return List.of();
            }
            return BridgedHeaders.find(ingressGraph, ParserLowering.lower(types, headers, egressParser, "egress"));
        } catch (Refusal r) {
            return List.of();
        }
    }

    /** The digests and mirrors of a deparser {@code (packet_out, inout H hdr, in M meta, in dprsr_md)} of {@code gress}. */
    private DeparserExterns externs(Declaration.Control deparser, Gress gress) {
        List<Parameter> dp = deparser.type().parameters();
        return new DeparserExterns(types, dp.size() > 1 ? dp.get(1).name() : "", dp.size() > 2 ? dp.get(2).name() : "",
                dp.size() > 3 ? dp.get(3).name() : "", gress);
    }

    private static Declaration.Instantiation instance(Program ast, String name, SourcePosition whole) {
        for (Declaration d : ast.declarations()) {
            if (d instanceof Declaration.Instantiation i && i.name().equals(name)) {
                return i;
            }
        }
        throw new Refusal(whole, "the program declares no " + name + " (a TNA program ends with Switch(pipe) main;)");
    }

    private Declaration.Instantiation pipeline(Program ast, Argument arg) {
        if (arg.value() instanceof Expression.Name n) {
            for (Declaration d : ast.declarations()) {
                if (d instanceof Declaration.Instantiation i && i.name().equals(n.name()) && "Pipeline".equals(Types.named(i.type()))) {
                    return i;
                }
            }
        }
        throw new Refusal(arg.position(), "Switch's argument must name a Pipeline instance");
    }

    private Declaration block(Expression e) {
        if (e instanceof Expression.Call c && c.callee() instanceof Expression.Name n && c.arguments().isEmpty()) {
            Declaration d = types.declaration(n.name());
            if (d instanceof Declaration.Parser || d instanceof Declaration.Control) {
                return d;
            }
        }
        throw new Refusal(e.position(), "a Pipeline argument must instantiate a parser or control without constructor arguments");
    }

    private static <T> T as(Declaration d, Class<T> kind, Argument at) {
        if (!kind.isInstance(d)) {
            throw new Refusal(at.position(), d.name() + " is not a " + (kind == Declaration.Parser.class ? "parser" : "control"));
        }
        return kind.cast(d);
    }

    /** A deparser's emit order (header names) and checksum updates. */
    private record Emits(List<String> emit, List<ChecksumUpdate> updates) {
    }

    /**
     * A deparser: {@code emit} order and {@code Checksum.update} assignments; its digests and
     * mirrors go to {@code digests} (the egress deparser's refuses a Digest).
     */
    private Emits deparser(Headers headers, Declaration.Control d, DeparserExterns digests) {
        List<Parameter> ps = d.type().parameters();
        String hdr = ps.size() > 1 ? ps.get(1).name() : "";
        deparserMeta = ps.size() > 2 ? ps.get(2).name() : "";
        deparserMetaStruct = ps.size() > 2 ? types.structLike(ps.get(2).type()) : null;
        Map<String, Declaration.Instantiation> checksums = new HashMap<>();
        for (Declaration l : d.locals()) {
            if (l instanceof Declaration.Instantiation in && "Checksum".equals(Types.named(in.type()))) {
                checksums.put(in.name(), in);
            } else if (DeparserExterns.isDigest(l)) {
                digests.declare((Declaration.Instantiation) l);
            } else {
                throw new Refusal(l.position(), "this declaration in deparser " + d.name()
                        + " is not supported by the lowering (Checksum, Digest and Mirror instances are)");
            }
        }
        List<String> emit = new ArrayList<>();
        List<ChecksumUpdate> updates = new ArrayList<>();
        for (Statement s : d.apply().statements()) {
            if (!digests.statement(s)) {
                deparserStatement(s, hdr, headers, checksums, emit, updates, null);
            }
        }
        return new Emits(emit, updates);
    }

    private void deparserStatement(Statement s, String hdr, Headers headers, Map<String, Declaration.Instantiation> checksums,
                                   List<String> emit, List<ChecksumUpdate> updates, String guard) {
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m && m.member().equals("emit")
                && cs.call().arguments().size() == 1) {
            Expression a = cs.call().arguments().get(0).value();
            if (a instanceof Expression.Name n && n.name().equals(hdr)) {
                for (Headers.Instance i : headers.instances()) {
                    emit.add(i.name());
                }
                return;
            }
            if (a instanceof Expression.Member h && h.target() instanceof Expression.Name n && n.name().equals(hdr)
                    && headers.instance(h.member()) != null) {
                emit.add(h.member());
                return;
            }
            throw new Refusal(a.position(), "emit of something other than the headers struct or one of its headers");
        }
        if (s instanceof Statement.If i && i.otherwise() == null && i.condition() instanceof Expression.Call c
                && c.callee() instanceof Expression.Member m && m.member().equals("isValid")
                && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n && n.name().equals(hdr)) {
            Statement body = i.then();
            List<Statement> inner = body instanceof Statement.Block blk ? blk.statements() : List.of(body);
            for (Statement x : inner) {
                deparserStatement(x, hdr, headers, checksums, emit, updates, h.member());
            }
            return;
        }
        if (s instanceof Statement.Assignment a && a.value() instanceof Expression.Call c && c.callee() instanceof Expression.Member m
                && m.member().equals("update") && m.target() instanceof Expression.Name cn && checksums.containsKey(cn.name())
                && c.arguments().size() == 1 && c.arguments().get(0).value() instanceof Expression.ListExpression list) {
            String dest = headerField(a.target(), hdr);
            String header = dest.substring(0, dest.indexOf('.'));
            if (guard != null && !guard.equals(header)) {
                throw new Refusal(s.position(), "a checksum into " + dest + " guarded by " + guard + ".isValid() is not supported");
            }
            List<String> fields = new ArrayList<>();
            List<String> metadata = new ArrayList<>();
            int bit = 0;
            for (Expression e : list.elements()) {
                Declaration.Field residual = metadataField(e);
                if (residual == null) {
                    String f = headerField(e, hdr);
                    fields.add(f);
                    bit += headers.instance(f.substring(0, f.indexOf('.'))).width(f.substring(f.indexOf('.') + 1));
                    continue;
                }
                int w = types.width(residual.type());
                if (!ingressDeparser) {
                    throw new Refusal(e.position(), "a metadata field in the egress deparser's checksum is not supported: rmtemu"
                            + " has one deparser (put the residual in the ingress deparser's update)");
                }
                if (w % 16 != 0 || bit % 16 != 0) {
                    throw new Refusal(e.position(), "metadata field " + deparserMeta + "." + residual.name() + " in a checksum"
                            + " must be whole 16-bit words at a 16-bit boundary of the list (it is " + w + " bits at bit " + bit + ")");
                }
                bit += w;
                String name = controlMeta + "." + residual.name();
                checksumMetadata.put(name, w);
                metadata.add(name);
            }
            updates.add(new ChecksumUpdate(header, fields, false, dest, metadata));
            return;
        }
        throw new Refusal(s.position(), "this deparser statement is not supported by the lowering (emit, Checksum.update and"
                + " if (h.isValid()) around them are)");
    }

    /** {@code meta.f}, a field of the deparser's metadata struct (a parser's residual), or null for anything else. */
    private Declaration.Field metadataField(Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && n.name().equals(deparserMeta)
                && deparserMetaStruct != null) {
            for (Declaration.Field f : deparserMetaStruct.fields()) {
                if (f.name().equals(m.member())) {
                    return f;
                }
            }
        }
        return null;
    }

    /**
     * The parser's checksum operations with their targets named as the ingress control names its
     * metadata ({@code ig_md.checksum_err}), each target recorded to be declared.
     */
    private List<ParserChecksumOp> parserChecksums(Declaration.Parser parser, List<ParserChecksumOp> ops) {
        List<Parameter> ps = parser.type().parameters();
        Declaration.StructLike meta = types.structLike(ps.get(2).type());
        List<ParserChecksumOp> out = new ArrayList<>();
        for (ParserChecksumOp op : ops) {
            if (op.target() == null) {
                out.add(op);
                continue;
            }
            Declaration.Field f = meta == null ? null
                    : meta.fields().stream().filter(x -> x.name().equals(op.target())).findFirst().orElse(null);
            if (f == null) {
                throw new Refusal(parser.position(), op.target() + " is not a field of parser " + parser.name() + "'s metadata struct");
            }
            String name = controlMeta + "." + op.target();
            checksumMetadata.put(name, types.width(f.type()));
            out.add(new ParserChecksumOp(op.state(), op.position(), op.checksum(), op.kind(), op.fields(), name));
        }
        return out;
    }

    private static String headerField(Expression e, String hdr) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && n.name().equals(hdr)) {
            return h.member() + "." + m.member();
        }
        throw new Refusal(e.position(), "not a header field of the deparser's headers");
    }
}

package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Argument;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Statement;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * TNA's learning digests and mirrors in the ingress deparser, and mirrors in the egress deparser,
 * lowered to the program's digests and ingress-to-egress or egress-to-egress mirrors (TNA's egress
 * deparser has no Digest). Mirrors: {@code Mirror() m;} and
 * {@code if (ig_dprsr_md.mirror_type == N) { m.emit<H>(session, {a, b, ...}); }} (or
 * {@code m.emit(session)} without a mirror header); H's member names name the header's fields
 * (without H, the fields' own names). Digests:
 * {@code Digest<T>() d;} (or {@code Digest<T>(N)}) and
 * {@code if (ig_dprsr_md.digest_type == N) { d.pack({a, b, ...}); }} (or a bare {@code d.pack}
 * of a digest constructed with its type N). The packed values are header fields of the
 * deparser's headers or fields of its metadata struct (the ingress control's, so a value the
 * control wrote); their names are T's member names, in order. Resubmits (ingress only):
 * {@code Resubmit() r;} and {@code if (ig_dprsr_md.resubmit_type == N) { r.emit<H>({a, b, ...}); }}
 * (or {@code r.emit(meta.h)}, h a header of the metadata struct, or {@code r.emit()} without a
 * header; a bare emit of a {@code Resubmit(N)}), lowered to the program's resubmit of type N;
 * on the second pass the ingress parser extracts the header where its resubmit branch says
 * ({@link #resubmitParsedInto}).
 */
final class DeparserExterns {
    private final Types types;
    private final String hdr;
    private final String meta;
    private final String dprsr;
    /** The deparser's gress: its mirrors' and its metadata fields'. */
    private final Gress gress;
    private final Map<String, Declaration.Instantiation> decls = new HashMap<>();
    private final Map<String, Declaration.Instantiation> mirrorDecls = new HashMap<>();
    /** Per mirror, its type and the emit call, lowered once the control has made its fields. */
    private final List<Object[]> emits = new ArrayList<>();
    /** Per digest, the pack to lower once the control has made its fields: the digest, its type, the values. */
    private final List<Object[]> packs = new ArrayList<>();
    private final Map<String, Declaration.Instantiation> resubmitDecls = new HashMap<>();
    /** Per resubmit, its type and the emit call, lowered once the control has made its fields. */
    private final List<Object[]> resubmits = new ArrayList<>();
    /** The metadata header the ingress parser's resubmit branch extracts (null: it reads none). */
    private String resubmitParsedInto;

    /** For a deparser of {@code gress}: {@code (packet_out, inout H hdr, in M meta, in *_intr_md_for_dprsr dprsr)}. */
    DeparserExterns(Types types, String hdr, String meta, String dprsr, Gress gress) {
        this.gress = gress;
        this.types = types;
        this.hdr = hdr;
        this.meta = meta;
        this.dprsr = dprsr;
    }

    /** A Digest or a Mirror instance (declared with {@link #declare}). */
    static boolean isDigest(Declaration d) {
        return d instanceof Declaration.Instantiation in
                && ("Digest".equals(Types.named(in.type())) || "Mirror".equals(Types.named(in.type()))
                    || "Resubmit".equals(Types.named(in.type())));
    }

    /** The ingress parser's resubmit branch extracts the resubmit header into header {@code member} of the metadata (null: none). */
    void resubmitParsedInto(String member) {
        this.resubmitParsedInto = member;
    }

    void declare(Declaration.Instantiation in) {
        if ("Resubmit".equals(Types.named(in.type()))) {
            if (gress == Gress.EGRESS) {
                throw new Refusal(in.position(), "Resubmit " + in.name() + " in an egress deparser: TNA resubmits from the ingress"
                        + " deparser only");
            }
            if (in.arguments().size() > 1) {
                throw new Refusal(in.position(), "Resubmit " + in.name() + " needs Resubmit() or Resubmit(resubmit_type)");
            }
            resubmitDecls.put(in.name(), in);
            return;
        }
        if ("Mirror".equals(Types.named(in.type()))) {
            if (in.arguments().size() > 1) {
                throw new Refusal(in.position(), "Mirror " + in.name() + " needs Mirror() or Mirror(mirror_type)");
            }
            mirrorDecls.put(in.name(), in);
            return;
        }
        if (gress == Gress.EGRESS) {
            throw new Refusal(in.position(), "Digest " + in.name() + " in an egress deparser: TNA's egress deparser has no Digest"
                    + " (learn in the ingress deparser)");
        }
        List<TypeRef> args = in.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        if (args.size() != 1 || types.structLike(args.get(0)) == null || in.arguments().size() > 1) {
            throw new Refusal(in.position(), "Digest " + in.name() + " needs Digest<T>() or Digest<T>(digest_type), T a struct");
        }
        decls.put(in.name(), in);
    }

    /** Takes a digest, mirror or resubmit statement of the deparser; false for any other statement. */
    boolean statement(Statement s) {
        if (s instanceof Statement.If i && i.otherwise() == null && i.condition() instanceof Expression.Binary b
                && b.operator().equals("==") && b.left() instanceof Expression.Member m && m.member().equals("resubmit_type")
                && m.target() instanceof Expression.Name n && n.name().equals(dprsr)) {
            int type = (int) types.constant(b.right());
            Statement body = i.then();
            List<Statement> inner = body instanceof Statement.Block blk ? blk.statements() : List.of(body);
            Expression.Call call = inner.size() == 1 ? resubmitEmit(inner.get(0)) : null;
            if (call == null) {
                throw new Refusal(s.position(), "if (" + dprsr + ".resubmit_type == " + type + ") must hold one Resubmit's emit");
            }
            Declaration.Instantiation ri = resubmitDecls.get(((Expression.Name) ((Expression.Member) call.callee()).target()).name());
            if (!ri.arguments().isEmpty() && types.constant(ri.arguments().get(0).value()) != type) {
                throw new Refusal(s.position(), "Resubmit " + ri.name() + " is constructed with resubmit_type "
                        + types.constant(ri.arguments().get(0).value()) + " but emits under resubmit_type == " + type);
            }
            resubmits.add(new Object[] {type, call});
            return true;
        }
        Expression.Call bareResubmit = resubmitEmit(s);
        if (bareResubmit != null) {
            Declaration.Instantiation ri = resubmitDecls.get(((Expression.Name) ((Expression.Member) bareResubmit.callee()).target()).name());
            if (ri.arguments().isEmpty()) {
                throw new Refusal(s.position(), "Resubmit " + ri.name() + ".emit outside if (" + dprsr + ".resubmit_type == N): give"
                        + " the resubmit its type (Resubmit(N)) or test resubmit_type");
            }
            resubmits.add(new Object[] {(int) types.constant(ri.arguments().get(0).value()), bareResubmit});
            return true;
        }
        if (s instanceof Statement.If i && i.otherwise() == null && i.condition() instanceof Expression.Binary b
                && b.operator().equals("==") && b.left() instanceof Expression.Member m && m.member().equals("mirror_type")
                && m.target() instanceof Expression.Name n && n.name().equals(dprsr)) {
            int type = (int) types.constant(b.right());
            Statement body = i.then();
            List<Statement> inner = body instanceof Statement.Block blk ? blk.statements() : List.of(body);
            Expression.Call call = inner.size() == 1 ? emit(inner.get(0)) : null;
            if (call == null) {
                throw new Refusal(s.position(), "if (" + dprsr + ".mirror_type == " + type + ") must hold one Mirror's emit");
            }
            Declaration.Instantiation mi = mirrorDecls.get(((Expression.Name) ((Expression.Member) call.callee()).target()).name());
            if (!mi.arguments().isEmpty() && types.constant(mi.arguments().get(0).value()) != type) {
                throw new Refusal(s.position(), "Mirror " + mi.name() + " is constructed with mirror_type "
                        + types.constant(mi.arguments().get(0).value()) + " but emits under mirror_type == " + type);
            }
            emits.add(new Object[] {type, call});
            return true;
        }
        Expression.Call bare = emit(s);
        if (bare != null) {
            Declaration.Instantiation mi = mirrorDecls.get(((Expression.Name) ((Expression.Member) bare.callee()).target()).name());
            if (mi.arguments().isEmpty()) {
                throw new Refusal(s.position(), "Mirror " + mi.name() + ".emit outside if (" + dprsr + ".mirror_type == N): give"
                        + " the mirror its type (Mirror(N)) or test mirror_type");
            }
            emits.add(new Object[] {(int) types.constant(mi.arguments().get(0).value()), bare});
            return true;
        }
        if (s instanceof Statement.If i && i.otherwise() == null && i.condition() instanceof Expression.Binary b
                && b.operator().equals("==") && b.left() instanceof Expression.Member m && m.member().equals("digest_type")
                && m.target() instanceof Expression.Name n && n.name().equals(dprsr)) {
            int type = (int) types.constant(b.right());
            Statement body = i.then();
            List<Statement> inner = body instanceof Statement.Block blk ? blk.statements() : List.of(body);
            if (inner.size() != 1 || pack(inner.get(0)) == null) {
                throw new Refusal(s.position(), "if (" + dprsr + ".digest_type == " + type + ") must hold one Digest's pack");
            }
            Expression.Call call = pack(inner.get(0));
            Declaration.Instantiation d = decls.get(((Expression.Name) ((Expression.Member) call.callee()).target()).name());
            if (!d.arguments().isEmpty() && types.constant(d.arguments().get(0).value()) != type) {
                throw new Refusal(s.position(), "Digest " + d.name() + " is constructed with digest_type "
                        + types.constant(d.arguments().get(0).value()) + " but packed under digest_type == " + type);
            }
            packs.add(new Object[] {d, type, call});
            return true;
        }
        Expression.Call call = pack(s);
        if (call != null) {
            Declaration.Instantiation d = decls.get(((Expression.Name) ((Expression.Member) call.callee()).target()).name());
            if (d.arguments().isEmpty()) {
                throw new Refusal(s.position(), "Digest " + d.name() + ".pack outside if (" + dprsr + ".digest_type == N): "
                        + "give the digest its type (Digest<T>(N)) or test digest_type");
            }
            packs.add(new Object[] {d, (int) types.constant(d.arguments().get(0).value()), call});
            return true;
        }
        return false;
    }

    private Expression.Call emit(Statement s) {
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m && m.member().equals("emit")
                && m.target() instanceof Expression.Name n && mirrorDecls.containsKey(n.name())) {
            return cs.call();
        }
        return null;
    }

    private Expression.Call resubmitEmit(Statement s) {
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m && m.member().equals("emit")
                && m.target() instanceof Expression.Name n && resubmitDecls.containsKey(n.name())) {
            return cs.call();
        }
        return null;
    }

    private Expression.Call pack(Statement s) {
        if (s instanceof Statement.CallStatement cs && cs.call().callee() instanceof Expression.Member m && m.member().equals("pack")
                && m.target() instanceof Expression.Name n && decls.containsKey(n.name())) {
            return cs.call();
        }
        return null;
    }

    /**
     * Declares the digests on {@code b}, once the ingress control is lowered: {@code fields} are
     * the PHV fields made so far by P4 name, {@code controlMeta} the control's name of the
     * metadata struct (its fields are named {@code controlMeta.member}).
     */
    void finish(ProgramBuilder b, Headers headers, Map<String, Field> fields, String controlMeta,
                Declaration.StructLike metaStruct) {
        for (Object[] p : packs) {
            Declaration.Instantiation d = (Declaration.Instantiation) p[0];
            int type = (Integer) p[1];
            Expression.Call call = (Expression.Call) p[2];
            Declaration.StructLike t = types.structLike(((TypeRef.Named) d.type()).arguments().get(0));
            if (call.arguments().size() != 1 || !(call.arguments().get(0).value() instanceof Expression.ListExpression list)) {
                throw new Refusal(call.position(), "Digest " + d.name() + ".pack takes one list of fields ({a, b, ...})");
            }
            if (list.elements().size() != t.fields().size()) {
                throw new Refusal(call.position(), "Digest " + d.name() + ".pack packs " + list.elements().size() + " values into "
                        + t.name() + " of " + t.fields().size() + " fields");
            }
            List<String> names = new ArrayList<>();
            List<Field> values = new ArrayList<>();
            for (int i = 0; i < t.fields().size(); i++) {
                names.add(t.fields().get(i).name());
                values.add(field(b, headers, fields, controlMeta, metaStruct, list.elements().get(i)));
            }
            try {
                b.digest(d.name(), type, names, values);
            } catch (IllegalArgumentException e) {
                throw new Refusal(call.position(), e.getMessage());
            }
        }
        for (Object[] e : emits) {
            int type = (Integer) e[0];
            Expression.Call call = (Expression.Call) e[1];
            List<Argument> args = call.arguments();
            if (args.isEmpty() || args.size() > 2) {
                throw new Refusal(call.position(), "Mirror emit takes (session[, {mirror header fields}])");
            }
            Field session = field(b, headers, fields, controlMeta, metaStruct, args.get(0).value());
            List<String> names = new ArrayList<>();
            List<Field> values = new ArrayList<>();
            if (args.size() == 2) {
                if (!(args.get(1).value() instanceof Expression.ListExpression list)) {
                    throw new Refusal(args.get(1).position(), "a mirror header is given as a list of fields ({a, b, ...})");
                }
                Declaration.StructLike h = call.typeArguments().size() == 1 ? types.structLike(call.typeArguments().get(0)) : null;
                if (h != null && h.fields().size() != list.elements().size()) {
                    throw new Refusal(call.position(), "Mirror emit packs " + list.elements().size() + " values into " + h.name()
                            + " of " + h.fields().size() + " fields");
                }
                for (int i = 0; i < list.elements().size(); i++) {
                    Expression x = list.elements().get(i);
                    values.add(field(b, headers, fields, controlMeta, metaStruct, x));
                    names.add(h != null ? h.fields().get(i).name() : ((Expression.Member) x).member());
                }
            }
            try {
                b.mirror(gress, type, session, names, values);
            } catch (IllegalArgumentException ex) {
                throw new Refusal(call.position(), ex.getMessage());
            }
        }
        finishResubmits(b, headers, fields, controlMeta, metaStruct);
    }

    /**
     * The resubmits, once the ingress control is lowered: the header's values are {@code {a, b}}
     * (fields of the metadata or headers) or {@code meta.h} (the fields of metadata header h); on
     * the second pass the parser extracts them into metadata header {@link #resubmitParsedInto}.
     */
    private void finishResubmits(ProgramBuilder b, Headers headers, Map<String, Field> fields, String controlMeta,
                                 Declaration.StructLike metaStruct) {
        for (Object[] r : resubmits) {
            int type = (Integer) r[0];
            Expression.Call call = (Expression.Call) r[1];
            List<String> names = new ArrayList<>();
            List<Field> values = new ArrayList<>();
            if (call.arguments().size() > 1) {
                throw new Refusal(call.position(), "Resubmit emit takes no argument or the resubmit header");
            }
            if (call.arguments().size() == 1) {
                Expression arg = call.arguments().get(0).value();
                if (arg instanceof Expression.ListExpression list) {
                    Declaration.StructLike h = call.typeArguments().size() == 1 ? types.structLike(call.typeArguments().get(0)) : null;
                    if (h != null && h.fields().size() != list.elements().size()) {
                        throw new Refusal(call.position(), "Resubmit emit packs " + list.elements().size() + " values into " + h.name()
                                + " of " + h.fields().size() + " fields");
                    }
                    for (int i = 0; i < list.elements().size(); i++) {
                        Expression x = list.elements().get(i);
                        values.add(field(b, headers, fields, controlMeta, metaStruct, x));
                        names.add(h != null ? h.fields().get(i).name() : ((Expression.Member) x).member());
                    }
                } else if (arg instanceof Expression.Member m && m.target() instanceof Expression.Name n && n.name().equals(meta)) {
                    Declaration.StructLike h = metadataHeader(metaStruct, m.member());
                    if (h == null) {
                        throw new Refusal(arg.position(), m.member() + " is not a header of " + meta + "; Resubmit emits a header of"
                                + " the metadata or a list of fields");
                    }
                    values.addAll(metadataHeaderFields(b, fields, controlMeta, m.member(), h));
                    for (Declaration.Field f : h.fields()) {
                        names.add(f.name());
                    }
                } else {
                    throw new Refusal(arg.position(), "Resubmit emits a header of " + meta + " or a list of fields ({a, b, ...})");
                }
            }
            List<Field> parsed = List.of();
            if (resubmitParsedInto != null) {
                Declaration.StructLike h = metadataHeader(metaStruct, resubmitParsedInto);
                if (h == null) {
                    throw new Refusal(call.position(), "the ingress parser's resubmit branch extracts " + resubmitParsedInto
                            + ", which is not a header of the metadata struct");
                }
                parsed = metadataHeaderFields(b, fields, controlMeta, resubmitParsedInto, h);
            }
            try {
                b.resubmit(type, names, values, parsed);
            } catch (IllegalArgumentException ex) {
                throw new Refusal(call.position(), ex.getMessage());
            }
        }
    }

    private Declaration.StructLike metadataHeader(Declaration.StructLike metaStruct, String member) {
        if (metaStruct == null) {
            return null;
        }
        for (Declaration.Field mf : metaStruct.fields()) {
            Declaration.StructLike h = mf.name().equals(member) ? types.structLike(mf.type()) : null;
            if (h != null && h.kind() == Declaration.StructLike.Kind.HEADER) {
                return h;
            }
        }
        return null;
    }

    /** Metadata header h's fields, named and keyed as ControlLowering names {@code meta.h.f}. */
    private List<Field> metadataHeaderFields(ProgramBuilder b, Map<String, Field> fields, String controlMeta, String header,
                                             Declaration.StructLike h) {
        List<Field> out = new ArrayList<>();
        for (Declaration.Field f : h.fields()) {
            String name = controlMeta + "." + header + "." + f.name();
            out.add(fields.computeIfAbsent(gress + ":" + name, x -> b.metadata(gress, name, types.width(f.type()))));
        }
        return out;
    }

    private Field field(ProgramBuilder b, Headers headers, Map<String, Field> fields, String controlMeta,
                        Declaration.StructLike metaStruct, Expression e) {
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Member h && h.target() instanceof Expression.Name n
                && n.name().equals(hdr) && headers.instance(h.member()) != null && headers.instance(h.member()).width(m.member()) >= 0) {
            String wire = h.member() + "." + m.member();
            return fields.computeIfAbsent(wire, w -> b.header(w));
        }
        if (e instanceof Expression.Member m && m.target() instanceof Expression.Name n && n.name().equals(meta) && metaStruct != null) {
            for (Declaration.Field mf : metaStruct.fields()) {
                if (mf.name().equals(m.member())) {
                    // keyed as ControlLowering keys a gress's metadata fields, so a field the control wrote is the one packed
                    String name = controlMeta + "." + m.member();
                    return fields.computeIfAbsent(gress + ":" + name, x -> b.metadata(gress, name, types.width(mf.type())));
                }
            }
        }
        throw new Refusal(e.position(), "a digest packs header fields of " + hdr + " or fields of " + meta);
    }
}

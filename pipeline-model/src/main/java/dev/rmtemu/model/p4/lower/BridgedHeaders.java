package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.model.parse.ParseGraph;
import dev.rmtemu.model.parse.ParseState;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TNA's bridged metadata: a header of the headers struct that the ingress parser never
 * extracts, that ingress sets valid and fills and its deparser emits ahead of the frame's
 * headers, and that the egress parser extracts first (Intel's {@code tna_bridged_md} pattern).
 * rmtemu carries it as the program's bridged header ({@link ProgramBuilder#bridged}): its fields
 * ride with the packet through the traffic manager (their bytes, padding included, buffered
 * with it) and never reach the wire, so the egress deparser must not emit it. Its validity bit
 * is ingress metadata (rmtemu bridges every packet's fields; a {@code setValid} still compiles).
 */
final class BridgedHeaders {
    private BridgedHeaders() {
    }

    /**
     * Headers the egress graph extracts, and the ingress graph does not, ahead of everything else:
     * from its start state along single transitions, before any header the ingress graph extracts.
     * One extracted later is not bridged metadata (the egress parser is then refused for parsing
     * differently from the ingress parser).
     */
    static List<String> find(ParseGraph ingress, ParseGraph egress) {
        Set<String> parsed = extracted(ingress);
        Set<String> bridged = new LinkedHashSet<>();
        String s = egress.states().isEmpty() ? "accept" : egress.states().get(0).name();
        for (int hops = 0; hops < egress.states().size() && !s.equals("accept") && !s.equals("reject"); hops++) {
            ParseState st = egress.states().get(egress.stateIndex(s));
            for (ParseState.Op op : st.ops()) {
                if (!(op instanceof ParseState.Extract e) || parsed.contains(e.header())) {
                    return List.copyOf(bridged);
                }
                bridged.add(e.header());
            }
            if (st.selects() || st.branches().size() != 1) {
                break;
            }
            s = st.branches().get(0).next();
        }
        return List.copyOf(bridged);
    }

    private static Set<String> extracted(ParseGraph g) {
        Set<String> out = new LinkedHashSet<>();
        for (ParseState s : g.states()) {
            for (ParseState.Op op : s.ops()) {
                if (op instanceof ParseState.Extract e) {
                    out.add(e.header());
                }
            }
        }
        return out;
    }

    /** Declares each bridged header's fields (as {@code HEADER.FIELD}) and validity bit in {@code fields}, where the controls look first. */
    static void declare(ProgramBuilder b, Headers headers, List<String> bridged, Map<String, Field> fields) {
        for (String name : bridged) {
            Headers.Instance h = headers.instance(name);
            for (HeaderField f : h.type().fields()) {
                String wire = name + "." + f.name();
                fields.put(wire, b.bridged(wire, f.bits()));
            }
            String valid = name + ProgramBuilder.VALID_SUFFIX;
            fields.put(valid, b.metadata(Gress.INGRESS, valid, 1));
        }
    }

    /**
     * The ingress deparser's emit order without the bridged headers; each must be emitted, ahead of
     * every other header (the egress parser reads it first).
     */
    static List<String> ingressEmits(List<String> emit, List<String> bridged, SourcePosition deparser, String deparserName) {
        List<String> wire = new ArrayList<>();
        for (String h : emit) {
            if (bridged.contains(h)) {
                if (!wire.isEmpty()) {
                    throw new Refusal(deparser, "ingress deparser " + deparserName + " emits the bridged header " + h + " after "
                            + wire.get(wire.size() - 1) + "; the egress parser extracts it first, so it must be emitted first");
                }
            } else {
                wire.add(h);
            }
        }
        for (String h : bridged) {
            if (!emit.contains(h)) {
                throw new Refusal(deparser, "the egress parser extracts " + h + ", which the ingress parser does not extract and"
                        + " ingress deparser " + deparserName + " does not emit (bridged metadata must be emitted by ingress)");
            }
        }
        return wire;
    }

    /** Refuses an egress deparser that emits a bridged header: egress removes it before the packet leaves. */
    static void checkEgressEmits(List<String> emit, List<String> bridged, SourcePosition deparser, String deparserName) {
        for (String h : emit) {
            if (bridged.contains(h)) {
                throw new Refusal(deparser, "egress deparser " + deparserName + " emits the bridged header " + h
                        + "; rmtemu removes bridged metadata before the packet leaves, so emit the frame's headers one by one");
            }
        }
    }
}

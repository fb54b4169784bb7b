package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.List;

/**
 * The deparser: first the checksum updates, then the valid headers in emit order
 * (fields as the stages left them, each variable-length tail copied from the
 * frame the parser read), then the payload: the frame's bytes from the parse's
 * payload offset on. setValid/setInvalid thus change the length of what leaves.
 * Allocates nothing per packet.
 */
public final class Deparser {
    private final ParseGraph g;
    private final List<String> emitOrder;
    private final List<ChecksumUpdate> updates;
    private final int[] emit;
    private final int[] csumHeader;
    private final FieldRef[][] csumFields;
    private final boolean[] csumVarbit;
    private final FieldRef[] csumDest;
    private final Checksum16 checksum = new Checksum16();

    /** Emits {@code emitOrder} (header names) with the given checksum updates. */
    public Deparser(ParseGraph graph, List<String> emitOrder, List<ChecksumUpdate> updates) {
        this.g = graph;
        this.emitOrder = List.copyOf(emitOrder);
        this.updates = List.copyOf(updates);
        emit = new int[emitOrder.size()];
        for (int i = 0; i < emit.length; i++) {
            emit[i] = graph.header(emitOrder.get(i)).index();
        }
        int n = updates.size();
        csumHeader = new int[n];
        csumFields = new FieldRef[n][];
        csumVarbit = new boolean[n];
        csumDest = new FieldRef[n];
        for (int i = 0; i < n; i++) {
            ChecksumUpdate u = updates.get(i);
            csumHeader[i] = graph.header(u.header()).index();
            List<FieldRef> refs = new ArrayList<>();
            int bits = 0;
            for (String f : u.fields()) {
                FieldRef r = graph.field(f);
                refs.add(r);
                bits += r.bits();
            }
            if (bits % 16 != 0) {
                throw new IllegalArgumentException("checksum into " + u.destination() + ": " + bits
                        + " bits of fields is not a whole number of 16-bit words");
            }
            csumFields[i] = refs.toArray(new FieldRef[0]);
            csumVarbit[i] = u.withVarbit();
            csumDest[i] = graph.field(u.destination());
            if (csumDest[i].bits() != 16) {
                throw new IllegalArgumentException("checksum destination " + u.destination() + " is not 16 bits");
            }
        }
    }

    /** Emits every header of the graph in declaration order, without checksum updates. */
    public static Deparser inDeclarationOrder(ParseGraph graph, List<ChecksumUpdate> updates) {
        List<String> order = new ArrayList<>();
        for (HeaderInstance h : graph.headers()) {
            order.add(h.name());
        }
        return new Deparser(graph, order, updates);
    }

    public List<String> emitOrder() {
        return emitOrder;
    }

    public List<ChecksumUpdate> checksumUpdates() {
        return updates;
    }

    /** Bytes {@link #deparse} writes for this result and a frame of {@code caplen} bytes. */
    public int length(ParseResult r, int caplen) {
        int len = Math.max(0, caplen - r.payloadOffset());
        for (int h : emit) {
            if (r.valid[h]) {
                len += g.hdrFixedBytes[h] + r.varbitLength[h];
            }
        }
        return len;
    }

    /**
     * Writes the frame that leaves into {@code out} at {@code outOff} and returns
     * its length. {@code in[inOff .. inOff+caplen)} is the frame the parser read
     * (for the tails and the payload).
     */
    public int deparse(ParseResult r, byte[] in, int inOff, int caplen, byte[] out, int outOff) {
        if (r.graph() != g) {
            throw new IllegalArgumentException("a parse result of graph " + r.graph().name() + ", not " + g.name());
        }
        int len = length(r, caplen);
        if (outOff < 0 || outOff + len > out.length) {
            throw new IllegalArgumentException("output buffer of " + out.length + " bytes cannot take " + len + " at " + outOff);
        }
        for (int i = 0; i < csumHeader.length; i++) {
            int h = csumHeader[i];
            if (!r.valid[h]) {
                continue;
            }
            checksum.clear();
            for (FieldRef f : csumFields[i]) {
                addField(r, f);
            }
            if (csumVarbit[i]) {
                checksum.addBytes(in, r.varbitOffset[h], r.varbitLength[h]);
            }
            r.set(csumDest[i], checksum.get());
        }
        int pos = outOff;
        for (int h : emit) {
            if (!r.valid[h]) {
                continue;
            }
            long bit = (long) pos * Byte.SIZE;
            int w = g.hdrFirstWord[h];
            for (int bits : g.hdrFieldBits[h]) {
                if (bits > Long.SIZE) {
                    int top = bits - Long.SIZE;
                    Bits.write(out, bit, top, r.words[w++]);
                    Bits.write(out, bit + top, Long.SIZE, r.words[w++]);
                } else {
                    Bits.write(out, bit, bits, r.words[w++]);
                }
                bit += bits;
            }
            pos += g.hdrFixedBytes[h];
            int tail = r.varbitLength[h];
            if (tail > 0) {
                System.arraycopy(in, r.varbitOffset[h], out, pos, tail);
                pos += tail;
            }
        }
        int payload = caplen - r.payloadOffset();
        if (payload > 0) {
            System.arraycopy(in, inOff + r.payloadOffset(), out, pos, payload);
            pos += payload;
        }
        return pos - outOff;
    }

    private void addField(ParseResult r, FieldRef f) {
        if (f.bits() > Long.SIZE) {
            checksum.add(r.word(f, 0), f.bits() - Long.SIZE);
            checksum.add(r.word(f, 1), Long.SIZE);
        } else {
            checksum.add(r.get(f), f.bits());
        }
    }
}

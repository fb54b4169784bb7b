package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The deparser: writes a program's parsed header fields back into the packet
 * record as the PHV holds them when the packet leaves, so a header a program
 * rewrote (a sequence number, a TTL) reaches the next hop. A field declared
 * narrower than its record field replaces only its low bits, so an unchanged
 * field writes back exactly what the parser read. The frame length is not a
 * header: {@link ParsedField#PACKET_LENGTH} is never written back, nor are bridged fields
 * (they are not in the record).
 */
public final class HeaderDeparser {
    private final Field[] fields;
    private final ParsedField[] sources;
    /** Per field, flat for the per-packet loop: PHV slot, record offset, record mask, declared mask. */
    private final int[] slots;
    private final int[] offsets;
    private final long[] recordMasks;
    private final long[] masks;

    public HeaderDeparser(StageProgram program) {
        List<Field> fs = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.kind() == FieldKind.HEADER && f.source() != null && f.source() != ParsedField.PACKET_LENGTH) {
                fs.add(f);
            }
        }
        fields = fs.toArray(new Field[0]);
        sources = new ParsedField[fields.length];
        slots = new int[fields.length];
        offsets = new int[fields.length];
        recordMasks = new long[fields.length];
        masks = new long[fields.length];
        for (int i = 0; i < fields.length; i++) {
            sources[i] = fields[i].source();
            slots[i] = fields[i].slot();
            offsets[i] = HeaderParser.recordOffset(sources[i]);
            recordMasks[i] = HeaderParser.recordMask(sources[i]);
            masks[i] = fields[i].mask();
        }
    }

    /** True when the program has a header field the deparser writes back. */
    public boolean emitsAnything() {
        return fields.length > 0;
    }

    public void emit(Phv phv, PacketRecord r) {
        long[] values = phv.values();
        DirectBuffer b = r.buffer();
        int o = r.offset();
        for (int i = 0; i < slots.length; i++) {
            // the field as the parser reads it (one load and a mask); written only when it changed
            long old = b.getLong(o + offsets[i], ByteOrder.LITTLE_ENDIAN) & recordMasks[i];
            long mask = masks[i];
            long v = (old & ~mask) | (values[slots[i]] & mask);
            if (v != old) {
                write(r, sources[i], v);
            }
        }
    }

    private static void write(PacketRecord r, ParsedField source, long v) {
        switch (source) {
            case IPV4_SRC -> r.srcIpv4((int) v);
            case IPV4_DST -> r.dstIpv4((int) v);
            case IPV6_SRC_HI -> r.srcIpv6(v, r.srcIpv6Lo());
            case IPV6_SRC_LO -> r.srcIpv6(r.srcIpv6Hi(), v);
            case IPV6_DST_HI -> r.dstIpv6(v, r.dstIpv6Lo());
            case IPV6_DST_LO -> r.dstIpv6(r.dstIpv6Hi(), v);
            case IP_VERSION -> r.ipVersion((int) v);
            case PROTOCOL -> r.protocol((int) v);
            case TTL -> r.ttl((int) v);
            case IP_ID -> r.ipId((int) v);
            case TCP_FLAGS -> r.tcpFlags((int) v);
            case TCP_SEQ -> r.tcpSeq((int) v);
            case SRC_PORT -> r.srcPort((int) v);
            case DST_PORT -> r.dstPort((int) v);
            case PACKET_LENGTH -> throw new IllegalStateException(source + " is not written back");
        }
    }
}

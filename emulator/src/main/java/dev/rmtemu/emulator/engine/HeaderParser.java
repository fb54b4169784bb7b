package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * The parser: loads a program's header fields from a packet record into a PHV
 * (each field truncated to its declared width). Fields the program adds to the
 * packet ({@link ParsedField#CARRIED}) are not in the record; they start at zero
 * on a packet's first parse and travel with it afterwards. Shim header fields
 * ({@link ParsedField#SHIM}) are unpacked from the packet's shim word (declaration
 * order, least significant bits first) and packed back by {@link #deparseShim}.
 */
public final class HeaderParser {
    private final Field[] fields;
    private final ParsedField[] sources;
    private final Field[] shim;

    public HeaderParser(StageProgram program) {
        List<Field> fs = new ArrayList<>();
        List<Field> shimFields = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.kind() == FieldKind.HEADER && f.source() == ParsedField.SHIM) {
                shimFields.add(f);
            } else if (f.kind() == FieldKind.HEADER && f.source() != ParsedField.CARRIED) {
                fs.add(f);
            }
        }
        shim = shimFields.toArray(new Field[0]);
        fields = fs.toArray(new Field[0]);
        sources = new ParsedField[fields.length];
        for (int i = 0; i < fields.length; i++) {
            sources[i] = fields[i].source();
        }
    }

    public void parse(PacketRecord r, Phv phv) {
        parse(r, 0, phv);
    }

    /** Loads the record's fields and the shim header fields from {@code shimWord}. */
    public void parse(PacketRecord r, long shimWord, Phv phv) {
        for (int i = 0; i < fields.length; i++) {
            phv.load(fields[i], value(r, sources[i]));
        }
        long w = shimWord;
        for (Field f : shim) {
            phv.load(f, w & f.mask());
            w = f.width() == Long.SIZE ? 0 : w >>> f.width();
        }
    }

    /** The shim word the deparser emits: the shim fields of the PHV, packed as {@link #parse} reads them. */
    public long deparseShim(Phv phv) {
        long w = 0;
        int shift = 0;
        for (Field f : shim) {
            w |= (phv.get(f) & f.mask()) << shift;
            shift += f.width();
        }
        return w;
    }

    /** True when the program declares shim header fields. */
    public boolean hasShim() {
        return shim.length > 0;
    }

    static long value(PacketRecord r, ParsedField source) {
        return switch (source) {
            case IPV4_SRC -> r.srcIpv4() & 0xFFFFFFFFL;
            case IPV4_DST -> r.dstIpv4() & 0xFFFFFFFFL;
            case IPV6_SRC_HI -> r.srcIpv6Hi();
            case IPV6_SRC_LO -> r.srcIpv6Lo();
            case IPV6_DST_HI -> r.dstIpv6Hi();
            case IPV6_DST_LO -> r.dstIpv6Lo();
            case IP_VERSION -> r.ipVersion();
            case PROTOCOL -> r.protocol();
            case TTL -> r.ttl();
            case IP_ID -> r.ipId();
            case TCP_FLAGS -> r.tcpFlags();
            case TCP_SEQ -> r.tcpSeq() & 0xFFFFFFFFL;
            case SRC_PORT -> r.srcPort();
            case DST_PORT -> r.dstPort();
            case PACKET_LENGTH -> r.wireLength();
            case PAYLOAD_HASH -> r.payloadHash() & 0xFFFFFFFFL;
            case CARRIED, SHIM -> 0;
        };
    }
}

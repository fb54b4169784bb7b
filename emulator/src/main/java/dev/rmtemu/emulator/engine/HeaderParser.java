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
 * on a packet's first parse and travel with it afterwards.
 */
public final class HeaderParser {
    private final Field[] fields;
    private final ParsedField[] sources;

    public HeaderParser(StageProgram program) {
        List<Field> fs = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.kind() == FieldKind.HEADER && f.source() != ParsedField.CARRIED) {
                fs.add(f);
            }
        }
        fields = fs.toArray(new Field[0]);
        sources = new ParsedField[fields.length];
        for (int i = 0; i < fields.length; i++) {
            sources[i] = fields[i].source();
        }
    }

    public void parse(PacketRecord r, Phv phv) {
        for (int i = 0; i < fields.length; i++) {
            phv.load(fields[i], value(r, sources[i]));
        }
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
            case CARRIED -> 0;
        };
    }
}

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
    /** Per parsed field: its PHV slot, mask and source ordinal (flat, for the per-packet loop). */
    private final int[] slots;
    private final long[] masks;
    private final int[] codes;
    /** Slots the record does not fill (metadata, carried and shim headers): zeroed for a fresh packet. */
    private final int[] unparsedSlots;
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
        slots = new int[fields.length];
        masks = new long[fields.length];
        codes = new int[fields.length];
        boolean[] parsed = new boolean[program.fields().size()];
        for (int i = 0; i < fields.length; i++) {
            sources[i] = fields[i].source();
            slots[i] = fields[i].slot();
            masks[i] = fields[i].mask();
            codes[i] = sources[i].ordinal();
            parsed[slots[i]] = true;
        }
        int n = 0;
        int[] rest = new int[parsed.length];
        for (int s = 0; s < parsed.length; s++) {
            if (!parsed[s]) {
                rest[n++] = s;
            }
        }
        unparsedSlots = java.util.Arrays.copyOf(rest, n);
    }

    public void parse(PacketRecord r, Phv phv) {
        parse(r, 0, phv);
    }

    /** Loads the record's fields and the shim header fields from {@code shimWord}. */
    public void parse(PacketRecord r, long shimWord, Phv phv) {
        long[] v = phv.values();
        for (int i = 0; i < slots.length; i++) {
            v[slots[i]] = value(r, codes[i]) & masks[i];
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

    /**
     * A fresh packet: every field the parser fills comes from the record, every other
     * slot (metadata, carried headers) is zero. Same result as {@code phv.clear()} then
     * {@link #parse}, writing each slot once.
     */
    public void parseFresh(PacketRecord r, Phv phv) {
        parseFresh(r, 0, phv);
    }

    /** {@link #parseFresh(PacketRecord, Phv)} with the shim header word the packet arrived with. */
    public void parseFresh(PacketRecord r, long shimWord, Phv phv) {
        phv.discardPendingWrites();
        long[] v = phv.values();
        for (int s : unparsedSlots) {
            v[s] = 0;
        }
        parse(r, shimWord, phv);
    }

    private static final int IPV4_SRC = ParsedField.IPV4_SRC.ordinal();
    private static final int IPV4_DST = ParsedField.IPV4_DST.ordinal();
    private static final int IPV6_SRC_HI = ParsedField.IPV6_SRC_HI.ordinal();
    private static final int IPV6_SRC_LO = ParsedField.IPV6_SRC_LO.ordinal();
    private static final int IPV6_DST_HI = ParsedField.IPV6_DST_HI.ordinal();
    private static final int IPV6_DST_LO = ParsedField.IPV6_DST_LO.ordinal();
    private static final int IP_VERSION = ParsedField.IP_VERSION.ordinal();
    private static final int PROTOCOL = ParsedField.PROTOCOL.ordinal();
    private static final int TTL = ParsedField.TTL.ordinal();
    private static final int IP_ID = ParsedField.IP_ID.ordinal();
    private static final int TCP_FLAGS = ParsedField.TCP_FLAGS.ordinal();
    private static final int TCP_SEQ = ParsedField.TCP_SEQ.ordinal();
    private static final int SRC_PORT = ParsedField.SRC_PORT.ordinal();
    private static final int DST_PORT = ParsedField.DST_PORT.ordinal();
    private static final int PACKET_LENGTH = ParsedField.PACKET_LENGTH.ordinal();
    private static final int PAYLOAD_HASH = ParsedField.PAYLOAD_HASH.ordinal();

    /** {@link #value(PacketRecord, ParsedField)} by ordinal: an int compare chain, no enum switch map. */
    private static long value(PacketRecord r, int code) {
        if (code == IPV4_SRC) {
            return r.srcIpv4() & 0xFFFFFFFFL;
        } else if (code == IPV4_DST) {
            return r.dstIpv4() & 0xFFFFFFFFL;
        } else if (code == PROTOCOL) {
            return r.protocol();
        } else if (code == SRC_PORT) {
            return r.srcPort();
        } else if (code == DST_PORT) {
            return r.dstPort();
        } else if (code == IPV6_SRC_HI) {
            return r.srcIpv6Hi();
        } else if (code == IPV6_SRC_LO) {
            return r.srcIpv6Lo();
        } else if (code == IPV6_DST_HI) {
            return r.dstIpv6Hi();
        } else if (code == IPV6_DST_LO) {
            return r.dstIpv6Lo();
        } else if (code == IP_VERSION) {
            return r.ipVersion();
        } else if (code == TTL) {
            return r.ttl();
        } else if (code == IP_ID) {
            return r.ipId();
        } else if (code == TCP_FLAGS) {
            return r.tcpFlags();
        } else if (code == TCP_SEQ) {
            return r.tcpSeq() & 0xFFFFFFFFL;
        } else if (code == PACKET_LENGTH) {
            return r.wireLength();
        } else if (code == PAYLOAD_HASH) {
            return r.payloadHash() & 0xFFFFFFFFL;
        }
        return 0;
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

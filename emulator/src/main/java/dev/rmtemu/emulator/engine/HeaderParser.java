package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The parser: loads a program's header fields from a packet record into a PHV
 * (each field truncated to its declared width). A program's bridged fields are not in
 * the record; they start at zero on a packet's first parse and travel with it afterwards.
 * A program's own headers on the wire (shims) are headers of its parse graph, which
 * {@link FrameParser} loads.
 */
public final class HeaderParser {
    /**
     * Per parsed field: its PHV slot, the byte offset of its value in the record and the mask
     * that cuts the field out of the 8 little-endian bytes read there (the record's width and
     * the declared width in one), flat for the per-packet loop.
     */
    private final int[] slots;
    private final int[] offsets;
    private final long[] masks;
    /** Slots the record does not fill (metadata, bridged fields, the parse graph's fields): zeroed for a fresh packet. */
    private final int[] unparsedSlots;
    /**
     * From this many unparsed slots on, a fresh PHV is zeroed by one copy of a zero template
     * instead of slot by slot. Measured (JMH, tofino1, four runs each): WBMon (37 unparsed slots) 6.6 → 6.9 M
     * packets/s with the copy; counter (5) gains nothing end to end and its ingress pass alone
     * lost up to half its rate.
     */
    static final int ZERO_COPY_MIN_SLOTS = 24;
    /** A PHV's worth of zeros when it has at least {@link #ZERO_COPY_MIN_SLOTS} unparsed slots, else null. */
    private final long[] zeros;

    public HeaderParser(StageProgram program) {
        this.program = program;
        List<Field> fs = new ArrayList<>();
        for (Field f : program.fields()) {
            if (f.source() == null) {
                continue; // metadata, a bridged field, or a field of the parse graph (FrameParser loads those)
            }
            if (f.kind() == FieldKind.HEADER) {
                fs.add(f);
            }
        }
        Field[] fields = fs.toArray(new Field[0]);
        slots = new int[fields.length];
        offsets = new int[fields.length];
        masks = new long[fields.length];
        boolean[] parsed = new boolean[program.fields().size()];
        for (int i = 0; i < fields.length; i++) {
            slots[i] = fields[i].slot();
            offsets[i] = recordOffset(fields[i].source());
            masks[i] = recordMask(fields[i].source()) & fields[i].mask();
            parsed[slots[i]] = true;
        }
        int n = 0;
        int[] rest = new int[parsed.length];
        for (int s = 0; s < parsed.length; s++) {
            if (!parsed[s]) {
                rest[n++] = s;
            }
        }
        unparsedSlots = Arrays.copyOf(rest, n);
        zeros = n >= ZERO_COPY_MIN_SLOTS ? new long[parsed.length] : null;
    }

    /**
     * Loads the record's fields and the fields the program names by its parse graph from the
     * record's frame (the frame its decoded fields describe when it carries none; a frame the
     * graph refuses leaves them 0). For programs run pass by pass outside a switch; the switch
     * runs {@link FrameParser} itself.
     */
    public void parse(PacketRecord r, Phv phv) {
        loadRecordFields(r, phv);
        if (frames == null) {
            frames = new FrameParser(program, PacketRecord.DEFAULT_FRAME_CAPACITY);
            framed = PacketRecord.allocate(PacketRecord.DEFAULT_FRAME_CAPACITY);
        }
        if (frames != null && frames.loadsFields()) {
            framed.copyFrom(r);
            FrameSynthesizer.attachFrame(framed);
            frames.parse(framed.buffer().byteArray(), framed.offset() + PacketRecord.FRAME_OFFSET,
                    framed.capturedLength(), framed.wireLength(), phv.values());
        }
    }

    private final StageProgram program;
    /** The program's parser over a record's frame, and a record to give a frame to: made on a first {@link #parse}. */
    private FrameParser frames;
    private PacketRecord framed;

    private void loadRecordFields(PacketRecord r, Phv phv) {
        long[] v = phv.values();
        DirectBuffer b = r.buffer();
        int o = r.offset();
        for (int i = 0; i < slots.length; i++) {
            v[slots[i]] = b.getLong(o + offsets[i], ByteOrder.LITTLE_ENDIAN) & masks[i];
        }
    }

    /**
     * A fresh packet: every field the parser fills comes from the record, every other
     * slot (metadata, bridged fields, the fields of the parse graph, which the switch then
     * loads with {@link FrameParser}) is zero, each slot written once.
     */
    public void parseFresh(PacketRecord r, Phv phv) {
        phv.discardPendingWrites();
        long[] v = phv.values();
        if (zeros != null) {
            // a large PHV: one vector copy of zeros, then the parsed fields on top
            System.arraycopy(zeros, 0, v, 0, v.length);
        } else {
            for (int s : unparsedSlots) {
                v[s] = 0;
            }
        }
        loadRecordFields(r, phv);
    }

    /**
     * Where a record field's value starts: every field is a little-endian value at a fixed
     * offset of the 64-byte record, so one 8-byte load and a mask read any of them (no field
     * starts past byte 56, so the load stays inside the record).
     */
    static int recordOffset(ParsedField f) {
        return switch (f) {
            case IPV4_SRC, IPV6_SRC_HI -> PacketRecord.SRC_ADDR_OFFSET;
            case IPV6_SRC_LO -> PacketRecord.SRC_ADDR_OFFSET + Long.BYTES;
            case IPV4_DST, IPV6_DST_HI -> PacketRecord.DST_ADDR_OFFSET;
            case IPV6_DST_LO -> PacketRecord.DST_ADDR_OFFSET + Long.BYTES;
            case IP_VERSION -> PacketRecord.VERSION_FLAGS_OFFSET;
            case PROTOCOL -> PacketRecord.PROTOCOL_OFFSET;
            case TTL -> PacketRecord.TTL_OFFSET;
            case IP_ID -> PacketRecord.IP_ID_OFFSET;
            case TCP_FLAGS -> PacketRecord.TCP_FLAGS_OFFSET;
            case TCP_SEQ -> PacketRecord.TCP_SEQ_OFFSET;
            case SRC_PORT -> PacketRecord.SRC_PORT_OFFSET;
            case DST_PORT -> PacketRecord.DST_PORT_OFFSET;
            case PACKET_LENGTH -> PacketRecord.WIRE_LENGTH_OFFSET;
        };
    }

    /** The bits of the 8 bytes at {@link #recordOffset} that hold the field, as the record's accessor returns them. */
    static long recordMask(ParsedField f) {
        return switch (f) {
            case IPV6_SRC_HI, IPV6_SRC_LO, IPV6_DST_HI, IPV6_DST_LO -> -1L;
            case IPV4_SRC, IPV4_DST, TCP_SEQ, PACKET_LENGTH -> 0xFFFF_FFFFL;
            case IP_ID, SRC_PORT, DST_PORT -> 0xFFFFL;
            case PROTOCOL, TTL, TCP_FLAGS -> 0xFFL;
            case IP_VERSION -> 0x0FL; // the low nibble; the flags share the byte
        };
    }

    /** A field as {@link #parse} reads it: the 8 bytes at its offset, masked. */
    static long load(PacketRecord r, ParsedField f) {
        return r.buffer().getLong(r.offset() + recordOffset(f), ByteOrder.LITTLE_ENDIAN) & recordMask(f);
    }

    /** A field through the record's accessor: the reference {@link #load} is tested against. */
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
        };
    }
}

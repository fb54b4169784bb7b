package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.sub;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The deparser writes rewritten header fields back into the departing record, and nothing else. */
class HeaderDeparserTest {

    private static List<PacketRecord> run(ProgramBuilder b, PacketRecord in) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), b.build(), 4,
                PortConfig.strictPriority(100), true));
        List<PacketRecord> out = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> out.add(PacketRecord.allocate().copyFrom(pool.record(s))));
        e.arrive(0, 0, in);
        e.drain();
        return out;
    }

    private static PacketRecord packet() {
        return PacketRecord.allocate().wireLength(200).ipVersion(4).protocol(PacketRecord.PROTO_TCP).ttl(64)
                .ipId(0xBEEF).tcpSeq(0x12345678).srcIpv4(0x0A000001).dstIpv4(0x0A000002).srcPort(1000).dstPort(80);
    }

    @Test
    void rewrittenFieldsLeaveWithThePacketAndNarrowFieldsKeepTheHighBits() {
        ProgramBuilder b = ProgramBuilder.create("rewrite", "");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field ttl = b.header("ipv4.ttl", 8, ParsedField.TTL);
        Field seqLow = b.header("tcp.seq_lo", 16, ParsedField.TCP_SEQ);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(ttl, sub(read(ttl), constant(1))).set(seqLow, 0xAAAA).set(out, 1));
        b.stage(Gress.EGRESS, 0).body(c -> c.set(ttl, sub(read(ttl), constant(1)))); // egress writes are emitted too
        PacketRecord sent = run(b, packet()).get(0);
        assertEquals(62, sent.ttl());
        assertEquals(0x1234AAAA, sent.tcpSeq());
        PacketRecord expected = packet().ttl(62).tcpSeq(0x1234AAAA);
        assertTrue(sameDecodedFields(expected, sent), "no other decoded field changes: " + sent);
    }

    @Test
    void unchangedHeadersLeaveTheRecordAsItCame() {
        ProgramBuilder b = ProgramBuilder.create("read_only", "");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field dst = b.header("ipv4.dst", 32, ParsedField.IPV4_DST);
        b.header("ipv6.src_hi", 64, ParsedField.IPV6_SRC_HI);
        b.header("ip.len", 16, ParsedField.PACKET_LENGTH);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(out, and(read(dst), constant(1))));
        PacketRecord in = packet();
        assertTrue(sameDecodedFields(in, run(b, in).get(0)));
    }

    /**
     * The decoded fields (the record's first 64 bytes) are what this deparser writes; the switch
     * gives a record built from them the frame they describe, which FrameParsingEngineTest covers.
     */
    private static boolean sameDecodedFields(PacketRecord a, PacketRecord b) {
        for (int i = 0; i < PacketRecord.DECODED_BYTES / Long.BYTES; i++) {
            if (a.word(i) != b.word(i)) {
                return false;
            }
        }
        return true;
    }
}

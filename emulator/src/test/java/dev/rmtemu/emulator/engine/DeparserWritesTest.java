package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.parse.Checksum16;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.emulator.engine.TestFrames.frame;
import static dev.rmtemu.emulator.engine.TestFrames.record;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.sub;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The deparser writes rewritten header fields back into the departing frame, and nothing else. */
class DeparserWritesTest {
    /** Where the IPv4 header and the TCP sequence number lie in {@link #packet()}'s frame. */
    private static final int IP = 14;
    private static final int TTL = IP + 8;
    private static final int IP_CHECKSUM = IP + 10;
    private static final int SEQ = IP + 20 + 4;

    private static List<PacketRecord> run(ProgramBuilder b, byte[] in) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), b.build(), 4,
                PortConfig.strictPriority(100), true));
        List<PacketRecord> out = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> out.add(PacketRecord.allocate(PacketRecord.DEFAULT_FRAME_CAPACITY)
                .copyFrom(pool.record(s))));
        e.arrive(0, 0, record(in));
        e.drain();
        return out;
    }

    /** IPv4 (TTL 64) and TCP with sequence number 0x12345678. */
    private static byte[] packet() {
        byte[] f = frame().ethernet(0x0800).ipv4(6, 60, 0, 64).tcp(1000, 80, 0).payload("twenty bytes of data").build();
        f[SEQ] = 0x12;
        f[SEQ + 1] = 0x34;
        f[SEQ + 2] = 0x56;
        f[SEQ + 3] = 0x78;
        return f;
    }

    @Test
    void rewrittenFieldsLeaveWithThePacketAndNarrowFieldsKeepTheHighBits() {
        ProgramBuilder b = ProgramBuilder.create("rewrite", "");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field ttl = b.header("ipv4.ttl");
        Field seqLow = b.header("tcp.seq_no", 16); // the sequence number's low 16 bits
        b.stage(Gress.INGRESS, 0).body(c -> c.set(ttl, sub(read(ttl), constant(1))).set(seqLow, 0xAAAA).set(out, 1));
        b.stage(Gress.EGRESS, 0).body(c -> c.set(ttl, sub(read(ttl), constant(1)))); // egress writes are emitted too
        byte[] in = packet();
        byte[] sent = run(b, in).get(0).frameBytes();
        assertEquals(62, sent[TTL] & 0xFF);
        byte[] expected = in.clone();
        expected[TTL] = 62;
        expected[SEQ + 2] = (byte) 0xAA;
        expected[SEQ + 3] = (byte) 0xAA;
        expected[IP_CHECKSUM] = sent[IP_CHECKSUM];
        expected[IP_CHECKSUM + 1] = sent[IP_CHECKSUM + 1];
        assertArrayEquals(expected, sent, "sequence number 0x1234AAAA; no other byte but the IPv4 checksum changes");
        Checksum16 sum = new Checksum16();
        sum.addBytes(sent, IP, 20);
        assertEquals(0, sum.get(), "the IPv4 header checksum is valid");
    }

    /**
     * A program that reads header fields (an IPv6 half the IPv4 packet does not have, the IPv4
     * total length where the record path read the wire length) but writes none: the frame
     * leaves as it came, with its wire length.
     */
    @Test
    void unchangedHeadersLeaveTheFrameAsItCame() {
        ProgramBuilder b = ProgramBuilder.create("read_only", "");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field dst = b.header("ipv4.dst_addr");
        b.header("ipv6.src_addr[127:64]");
        b.header("ipv4.total_len");
        b.stage(Gress.INGRESS, 0).body(c -> c.set(out, and(read(dst), constant(1))));
        byte[] in = packet();
        PacketRecord sent = run(b, in).get(0);
        assertArrayEquals(in, sent.frameBytes());
        assertEquals(in.length, sent.wireLength());
    }
}

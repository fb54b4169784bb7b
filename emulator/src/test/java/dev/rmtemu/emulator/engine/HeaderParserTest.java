package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderParserTest {
    /**
     * The parse graph reads from a record's frame (here the frame synthesised from its decoded
     * fields) what the record's accessors return: IPv4 addresses, both 64-bit halves of IPv6
     * addresses, protocol / next header and TTL / hop limit through overlays, TCP and UDP ports,
     * the TCP sequence number, the IPv4 identification.
     */
    @Test
    void theParseGraphReadsWhatTheRecordsAccessorsReturn() {
        ProgramBuilder b = ProgramBuilder.create("fields", "parser test");
        Field src4 = b.header("ipv4.src_addr");
        Field dst4 = b.header("ipv4.dst_addr");
        Field srcHi = b.header("ipv6.src_addr[127:64]");
        Field srcLo = b.header("ipv6.src_addr[63:0]");
        Field dstHi = b.header("ipv6.dst_addr[127:64]");
        Field dstLo = b.header("ipv6.dst_addr[63:0]");
        Field v6 = b.valid("ipv6");
        Field protocol = b.overlay("ip.protocol", "ipv4.protocol", "ipv6.next_hdr");
        Field ttl = b.overlay("ip.ttl", "ipv4.ttl", "ipv6.hop_limit");
        Field ipId = b.header("ipv4.identification");
        Field srcPort = b.overlay("l4.src_port", "tcp.src_port", "udp.src_port");
        Field dstPort = b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port");
        Field seq = b.header("tcp.seq_no");
        StageProgram p = b.build();
        HeaderParser parser = new HeaderParser(p);
        Phv phv = new Phv(p.fields().size());
        SplittableRandom rnd = new SplittableRandom(3);
        for (int round = 0; round < 500; round++) {
            boolean ipv6 = rnd.nextBoolean();
            boolean tcp = rnd.nextBoolean();
            PacketRecord r = PacketRecord.allocate().wireLength(rnd.nextInt(100, 1500)).ipVersion(ipv6 ? 6 : 4)
                    .protocol(tcp ? PacketRecord.PROTO_TCP : PacketRecord.PROTO_UDP).ttl(rnd.nextInt(1, 256))
                    .srcPort(rnd.nextInt(65_536)).dstPort(rnd.nextInt(65_536));
            if (ipv6) {
                r.srcIpv6(rnd.nextLong(), rnd.nextLong()).dstIpv6(rnd.nextLong(), rnd.nextLong());
            } else {
                r.srcIpv4(rnd.nextInt()).dstIpv4(rnd.nextInt()).ipId(rnd.nextInt(65_536));
            }
            if (tcp) {
                r.tcpSeq(rnd.nextInt());
            }
            phv.clear();
            parser.parse(r, phv);
            String at = "round " + round + ": " + r;
            assertEquals(ipv6 ? 1 : 0, phv.get(v6), at);
            if (ipv6) {
                assertEquals(r.srcIpv6Hi(), phv.get(srcHi), at);
                assertEquals(r.srcIpv6Lo(), phv.get(srcLo), at);
                assertEquals(r.dstIpv6Hi(), phv.get(dstHi), at);
                assertEquals(r.dstIpv6Lo(), phv.get(dstLo), at);
            } else {
                assertEquals(r.srcIpv4() & 0xFFFF_FFFFL, phv.get(src4), at);
                assertEquals(r.dstIpv4() & 0xFFFF_FFFFL, phv.get(dst4), at);
                assertEquals(r.ipId(), phv.get(ipId), at);
            }
            assertEquals(r.protocol(), phv.get(protocol), at);
            assertEquals(r.ttl(), phv.get(ttl), at);
            assertEquals(r.srcPort(), phv.get(srcPort), at);
            assertEquals(r.dstPort(), phv.get(dstPort), at);
            assertEquals(tcp ? r.tcpSeq() & 0xFFFF_FFFFL : 0, phv.get(seq), at);
        }
    }

    /**
     * The switch zeroes only the slots its frame parse does not write (metadata) before that
     * parse: on a PHV left full of another packet's values, that and an accepted parse give
     * exactly the PHV a fully zeroed one gives, a header the frame lacks (TCP on a UDP packet,
     * IPv6 on an IPv4 one) reading 0 with its validity bit.
     */
    @Test
    void zeroingOnlyWhatTheFrameParseDoesNotWriteGivesAFreshPhv() {
        ProgramBuilder b = ProgramBuilder.create("fresh", "fresh PHV test");
        b.header("ipv4.src_addr");
        b.header("ipv6.dst_addr[63:0]");
        b.valid("ipv6");
        b.valid("tcp");
        b.overlay("l4.src_port", "tcp.src_port", "udp.src_port");
        b.header("tcp.seq_no");
        Field meta = b.metadata(Gress.INGRESS, "meta.scratch", 32);
        StageProgram p = b.build();
        HeaderParser parser = new HeaderParser(p);
        FrameParser frames = new FrameParser(p, PacketRecord.DEFAULT_FRAME_CAPACITY);
        Phv reused = new Phv(p.fields().size());
        Phv zeroed = new Phv(p.fields().size());
        SplittableRandom rnd = new SplittableRandom(11);
        for (int round = 0; round < 400; round++) {
            PacketRecord r = PacketRecord.allocate(PacketRecord.DEFAULT_FRAME_CAPACITY).wireLength(rnd.nextInt(100, 1500))
                    .ipVersion(rnd.nextBoolean() ? 6 : 4)
                    .protocol(rnd.nextBoolean() ? PacketRecord.PROTO_TCP : PacketRecord.PROTO_UDP)
                    .srcIpv4(rnd.nextInt()).dstIpv6(rnd.nextLong(), rnd.nextLong()).srcPort(rnd.nextInt(65_536))
                    .tcpSeq(rnd.nextInt());
            dev.rmtemu.traces.pcap.FrameSynthesizer.attachFrame(r);
            long[] v = reused.values();
            for (int s = 0; s < v.length; s++) {
                v[s] = rnd.nextLong(1, 1L << 32); // the previous packet's values, none 0
            }
            parser.freshBeforeFrameParse(reused);
            assertEquals(0, reused.get(meta));
            parser.fresh(zeroed);
            byte[] buf = r.buffer().byteArray();
            int off = r.offset() + PacketRecord.FRAME_OFFSET;
            boolean ok = frames.parse(buf, off, r.capturedLength(), r.wireLength(), reused.values());
            assertEquals(ok, frames.parse(buf, off, r.capturedLength(), r.wireLength(), zeroed.values()));
            assertTrue(ok, "round " + round);
            assertArrayEquals(zeroed.values(), reused.values(), "round " + round + ": " + r);
        }
    }

    /**
     * A fresh packet's PHV, whichever way it is zeroed (filled for a small PHV, one copy of a
     * zero template from {@link HeaderParser#ZERO_COPY_MIN_SLOTS} slots on), is all zeros
     * although it held another packet's values, and that packet's uncommitted writes are gone.
     */
    @Test
    void aFreshPhvIsAllZeroForSmallAndLargePhvs() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int metadata : new int[] {3, HeaderParser.ZERO_COPY_MIN_SLOTS + 5}) {
            ProgramBuilder b = ProgramBuilder.create("p" + metadata, "parser test");
            Field src = b.header("ipv4.src_addr");
            b.header("tcp.dst_port");
            b.bridged("carried.x", 8);
            for (int i = 0; i < metadata; i++) {
                b.metadata(Gress.INGRESS, "meta.m" + i, 32);
            }
            StageProgram p = b.build();
            HeaderParser parser = new HeaderParser(p);
            Phv fresh = new Phv(p.fields().size());
            for (int round = 0; round < 50; round++) {
                for (int s = 0; s < fresh.slots(); s++) {
                    fresh.values()[s] = rnd.nextLong(); // the previous packet's values
                }
                fresh.set(src, 7); // and a write its pass left uncommitted
                parser.fresh(fresh);
                assertFalse(fresh.headerWritten(), metadata + " metadata fields, round " + round);
                fresh.commitStage();
                assertArrayEquals(new long[fresh.slots()], fresh.values(), metadata + " metadata fields, round " + round);
            }
        }
    }
}

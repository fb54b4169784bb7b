package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;

import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code count=bytes} counts what a Tofino ingress can see: the IP header's length plus
 * Ethernet's header (TNA has no ingress packet length), on both back ends (the rig checks they
 * agree). One slot per stage, keys by source address, so the counts below follow from the
 * frames alone.
 */
class HashPipeByteCountTest {
    private static final int A = 0x0A000001;
    private static final int B = 0x0A000002;
    private final HashPipeConfig cfg = new HashPipeConfig(2, 1, KeyKind.SRCIP, HashPipeConfig.FAMILY_CRC32, true);
    private final PipeRig rig = new PipeRig(cfg, "tofino1");

    private long stage0() {
        return HashPipeCollector.read(rig.state, cfg, 0).count()[0][0];
    }

    @Test
    void countsTheIpLengthPlusEthernetOfEachFrame() {
        // a 1,000-byte frame: IPv4 total length 986 + 14
        PacketRecord big = PipeRig.packet(A, 0x0B000001, PacketRecord.PROTO_UDP, 1234, 53, 1_000).payloadHash(7);
        rig.send(big);
        assertEquals(1_000, stage0());
        assertEquals(1_000, CountedBytes.of(big));
        // a bare TCP segment in a minimum-size frame: IPv4 says 40 bytes, the switch counts 54, not the padded 64
        PacketRecord syn = PipeRig.packet(A, 0x0B000001, PacketRecord.PROTO_TCP, 1234, 80, 64).tcpFlags(0x02);
        rig.send(syn);
        assertEquals(1_054, stage0());
        assertEquals(54, CountedBytes.of(syn));
        // IPv6: payload length + its 40-byte header + 14 (the key: address bits 95..64, here 0)
        PacketRecord v6 = PacketRecord.allocate().ipVersion(6).srcIpv6(0x20010DB800000000L, 1).dstIpv6(0x20010DB800000000L, 2)
                .protocol(PacketRecord.PROTO_UDP).srcPort(1).dstPort(2).wireLength(300).payloadHash(9);
        rig.send(v6);
        assertEquals(300, CountedBytes.of(v6));
        assertEquals(300, HashPipeCollector.read(rig.state, cfg, 0).count()[0][0], "IPv6 entered stage 1");
        assertEquals(1_054, HashPipeCollector.read(rig.state, cfg, 0).count()[1][0], "A carried into stage 2");
        rig.send(PipeRig.packet(B, 0x0B000001, PacketRecord.PROTO_UDP, 1, 2, 128).payloadHash(3));
        assertEquals(128, stage0());
    }
}

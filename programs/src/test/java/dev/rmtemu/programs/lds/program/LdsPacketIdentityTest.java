package dev.rmtemu.programs.lds.program;

import dev.rmtemu.programs.lds.control.LdsCollector;
import dev.rmtemu.programs.lds.control.LdsPacketKeys;
import dev.rmtemu.programs.lds.control.LdsSketch;
import dev.rmtemu.programs.lds.experiment.LdsEmulatedPair;

import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What identifies a packet to both ends of an LDS (its vLDA offset, its digest, its sampling
 * decision): the header fields no hop rewrites, 5-tuple, IPv4 identification and TCP sequence
 * number, as trajectory sampling hashes them; not the payload, which a switch that parses
 * headers never sees.
 */
class LdsPacketIdentityTest {
    private static PacketRecord tcp(int f, int id, int seq, int payloadHash) {
        return PacketRecord.allocate().ipVersion(4).protocol(PacketRecord.PROTO_TCP).ttl(64)
                .srcIpv4(0x0A000000 + f).dstIpv4(0x64000001).srcPort(40_000 + f).dstPort(443)
                .ipId(id).tcpSeq(seq).tcpFlags(0x10).payloadHash(payloadHash).wireLength(600);
    }

    @Test
    void theSequenceNumberTellsPacketsApartAndThePayloadDoesNot() {
        PacketRecord a = tcp(1, 7, 1_000, 0x1234);
        long h = LdsHashes.packet(LdsHashes.packet(), a);
        assertNotEquals(h, LdsHashes.packet(LdsHashes.packet(), tcp(1, 7, 2_460, 0x1234)), "another segment of the flow");
        assertEquals(h, LdsHashes.packet(LdsHashes.packet(), tcp(1, 7, 1_000, 0x9999)), "the same headers, another payload");
        // a UDP packet has no sequence number: the hash reads 0 there, whatever the record's field holds
        PacketRecord udp = tcp(1, 7, 1_000, 0x1234).protocol(PacketRecord.PROTO_UDP);
        assertEquals(LdsHashes.packet(LdsHashes.packet(), udp),
                LdsHashes.packet(LdsHashes.packet(), tcp(1, 7, 0, 0x1234).protocol(PacketRecord.PROTO_UDP)));
    }

    /**
     * TCP segments of a few flows, the IP ID held constant (as a sender with DF set may) so only the
     * sequence number spreads them over the vLDA: the switch's sender and receiver sketches are the
     * plain-Java sketch's register for register, and the segments use more than one cell of a vLDA.
     */
    @Test
    void theSwitchHashesTheParsedSequenceNumberAsTheReferenceDoes() {
        LdsConfig cfg = LdsConfig.singleRate(4, 1024, 5, 1.0);
        LdsIntervals iv = new LdsIntervals(30);
        for (Backend backend : new Backend[] {Backend.COMPILED, Backend.INTERPRETER}) {
            LdsEmulatedPair rig = new LdsEmulatedPair(cfg, iv, "tofino1", backend);
            LdsSketch tx = new LdsSketch(cfg);
            LdsSketch rx = new LdsSketch(cfg);
            LdsPacketKeys keys = new LdsPacketKeys(cfg);
            java.util.Set<Integer> cellsOfFlow0 = new java.util.TreeSet<>();
            long t = 1_000;
            for (int i = 0; i < 400; i++) {
                int f = i % 4;
                PacketRecord p = tcp(f, 0, 1_000 + 1_460 * (i / 4), 0);
                keys.of(p);
                if (f == 0) {
                    cellsOfFlow0.add(keys.cell(0));
                }
                PacketRecord sent = rig.send(p, t);
                tx.record(keys, t);
                rig.receive(sent, t + 5_000);
                rx.record(keys, t + 5_000);
                t += 700;
            }
            int bank = LdsIntervals.bank(iv.index(1_000));
            assertArrayEquals(new int[0], tx.differingCells(LdsCollector.read(rig.state(), 0, cfg, true, bank)), backend.name());
            assertArrayEquals(new int[0], rx.differingCells(LdsCollector.read(rig.state(), 0, cfg, false, bank)), backend.name());
            assertTrue(cellsOfFlow0.size() > 1, "one flow's segments over its vLDA: " + cellsOfFlow0);
        }
    }
}

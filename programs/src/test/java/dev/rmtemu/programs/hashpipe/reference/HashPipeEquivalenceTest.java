package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.program.CountedBytes;
import dev.rmtemu.programs.hashpipe.control.HashPipeReport;
import dev.rmtemu.programs.hashpipe.program.FlowKeys;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.KeyKind;
import dev.rmtemu.programs.hashpipe.program.PipeRig;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property: after every packet of random skewed traces, the stage program's
 * tables (run with the hardware rules enforced) equal the plain-Java
 * reference's, slot by slot. Small tables, so hits, empty slots, evictions,
 * keeps, ties and drops after the last stage all happen.
 */
class HashPipeEquivalenceTest {
    private static final int SEEDS = 40;
    private static final int PACKETS = 400;

    /** A trace of {@code flows} flows with skewed (squared-uniform) popularity. */
    private static PacketRecord[] trace(long seed, int flows, int packets) {
        SplitMix64 rnd = new SplitMix64(seed);
        PacketRecord[] pool = new PacketRecord[flows];
        for (int f = 0; f < flows; f++) {
            // few distinct field values, so 5-tuples share addresses and ports
            pool[f] = PipeRig.packet(0x0A000000 | rnd.nextInt(8), 0xC0A80000 | rnd.nextInt(4),
                    rnd.nextInt(2) == 0 ? 6 : 17, 1000 + rnd.nextInt(3), 80 + rnd.nextInt(3), 64 + rnd.nextInt(1400));
        }
        PacketRecord[] out = new PacketRecord[packets];
        for (int i = 0; i < packets; i++) {
            double u = rnd.nextDouble();
            PacketRecord p = pool[(int) (u * u * flows)];
            out[i] = PacketRecord.allocate().copyFrom(p).wireLength(40 + rnd.nextInt(1460));
        }
        return out;
    }

    private static void check(HashPipeConfig cfg, String target, long seed, int flows) {
        PipeRig rig = new PipeRig(cfg, target);
        HashPipeReference ref = new HashPipeReference(cfg);
        FlowKeys keys = new FlowKeys(cfg.key());
        PacketRecord[] t = trace(seed, flows, PACKETS);
        for (int i = 0; i < t.length; i++) {
            rig.send(t[i]);
            keys.load(t[i]);
            ref.update(keys.lo(), keys.hi(), cfg.countBytes() ? CountedBytes.of(t[i]) : 1);
            rig.assertEqualsReference(ref, cfg + " seed " + seed + " after packet " + i);
        }
        assertTrue(ref.report().size() > 0);
    }

    @Test
    void fingerprintPacketsCrcFamilyOnTofino1() {
        for (long seed = 1; seed <= SEEDS; seed++) {
            int d = 1 + (int) (seed % 6);
            int perStage = 2 + (int) (seed % 5);
            check(new HashPipeConfig(d, perStage, KeyKind.FINGERPRINT, HashPipeConfig.FAMILY_CRC32, false), "tofino1", seed, 40);
        }
    }

    @Test
    void srcipBytesSeededFamilyOnTofino1() {
        for (long seed = 100; seed < 100 + SEEDS; seed++) {
            int d = 2 + (int) (seed % 5);
            check(new HashPipeConfig(d, 3, KeyKind.SRCIP, HashPipeConfig.FAMILY_SEEDED, true), "tofino1", seed, 30);
        }
    }

    @Test
    void fiveTupleOnUnconstrained() {
        for (long seed = 200; seed < 200 + SEEDS / 2; seed++) {
            int d = 1 + (int) (seed % 5);
            check(new HashPipeConfig(d, 3, KeyKind.FIVETUPLE, HashPipeConfig.FAMILY_CRC32, false),
                    "unconstrained", seed, 40);
        }
    }

    @Test
    void ipv6FlowsAreKeyedByTheirWholeFiveTupleOnTheSwitchAsInTheReference() {
        FlowKeys keys = new FlowKeys(KeyKind.FINGERPRINT);
        // two IPv6 sources that differ only above the low 32 bits of the address's first half
        PacketRecord a = PacketRecord.allocate().ipVersion(6).protocol(6).srcIpv6(0x20010DB800000000L, 1)
                .dstIpv6(0x20010DB800010000L, 2).srcPort(40000).dstPort(443).wireLength(100);
        PacketRecord b = PacketRecord.allocate().copyFrom(a).srcIpv6(0x20010DB900000000L, 1);
        PacketRecord c = PacketRecord.allocate().copyFrom(a).srcIpv6(0x20010DB800000000L, 7);
        // an IPv4 packet of the same ports (its addresses in the low 32 bits of the high halves, as decoders write them)
        PacketRecord v4 = PacketRecord.allocate().copyFrom(a).ipVersion(4).srcIpv4(0x0A000001).dstIpv4(0x0A000002);
        long[] fp = new long[4];
        PacketRecord[] all = {a, b, c, v4};
        for (int i = 0; i < all.length; i++) {
            keys.load(all[i]);
            fp[i] = keys.lo();
        }
        assertEquals(4, java.util.Arrays.stream(fp).distinct().count(), java.util.Arrays.toString(fp));
        // the replay summary prints an IPv6 flow's own addresses, an IPv4 flow's as before
        assertEquals("2001:db8::1 > 2001:db8:1::2 proto 6 40000>443", HashPipeReport.fiveTuple(a));
        PacketRecord ip4 = PipeRig.packet(0x0A000001, 0xC0A80002, 6, 40000, 443, 100);
        FlowKeys t = new FlowKeys(KeyKind.FIVETUPLE);
        t.load(ip4);
        assertEquals(KeyKind.FIVETUPLE.format(t.lo(), t.hi()), HashPipeReport.fiveTuple(ip4));
        // on the switch: a mixed IPv4/IPv6 trace gives the reference's tables after every packet
        HashPipeConfig cfg = new HashPipeConfig(3, 4, KeyKind.FINGERPRINT, HashPipeConfig.FAMILY_CRC32, false);
        PipeRig rig = new PipeRig(cfg, "tofino1");
        HashPipeReference ref = new HashPipeReference(cfg);
        SplitMix64 rnd = new SplitMix64(6);
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord p = PacketRecord.allocate().copyFrom(all[rnd.nextInt(all.length)]);
            if (rnd.nextInt(3) == 0 && p.ipVersion() == 6) {
                p.srcIpv6(p.srcIpv6Hi() + rnd.nextInt(5), p.srcIpv6Lo() + ((long) rnd.nextInt(5) << 40));
            }
            rig.send(p);
            keys.load(p);
            ref.update(keys.lo(), keys.hi(), 1);
            rig.assertEqualsReference(ref, "mixed IPv4/IPv6 after packet " + i);
        }
    }

    @Test
    void sixStagesFillTofino1ElevenRunOnUnconstrained() {
        // d = 6 takes all 12 ingress stages of tofino1 (a key stage, then a select and a stateful-ALU stage each)
        check(new HashPipeConfig(6, 2, KeyKind.FINGERPRINT, HashPipeConfig.FAMILY_CRC32, false), "tofino1", 7, 60);
        check(new HashPipeConfig(HashPipeConfig.MAX_STAGES, 2, KeyKind.FINGERPRINT, HashPipeConfig.FAMILY_CRC32, false),
                "unconstrained", 7, 60);
    }
}

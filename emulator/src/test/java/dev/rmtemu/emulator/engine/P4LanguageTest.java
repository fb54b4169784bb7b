package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The constructs of {@code p4/language_features.p4} (local variables, exit, const entries, a
 * parser value set, a CUSTOM hash from a CRCPolynomial, drop_ctl's bit 0, the egress control and its intrinsic metadata,
 * bypass_egress), lowered, placed and run: each frame leaves (or is dropped) as the program's
 * comments say, checked byte for byte on the frames that leave.
 */
class P4LanguageTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int IN_PORT = 1;
    /** Offsets in a frame of Ethernet + IPv4. */
    private static final int SRC_MAC = 6;
    private static final int DIFFSERV = 15;
    private static final int IDENTIFICATION = 18;
    private static final int TTL = 22;
    private static final int CHECKSUM = 24;
    /** CRC-16/CCITT-FALSE of the frames' source address 10.0.0.1, as the program's CUSTOM hash computes it. */
    private static final int SOURCE_HASH = (int) Crc.named("crc16_ccitt").hash(new byte[] {10, 0, 0, 1});

    private record Departure(int port, byte[] frame) {
    }

    private SwitchEngine engine;
    private final List<Departure> out = new ArrayList<>();

    @BeforeEach
    void build() {
        StageProgram p = ProgramCompiler.compile(P4Programs.text("language_features.p4", P4RouterTest.resource("language_features.p4"),
                PreprocessorOptions.defaults()).require(), TOFINO1).requireAccepted().program();
        engine = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1), PortConfig.strictPriority(40), true));
        engine.onDeparture((cycle, port, slot, pool) -> out.add(new Departure(port, Arrays.copyOfRange(pool.frameArray(),
                pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot)))));
    }

    private static byte[] ipv4(int etherType, int protocol, int ttl, int diffserv) {
        byte[] f = TestFrames.frame().ethernet(0x020000000002L, 0x020000000009L, etherType).ipv4(protocol, 46, 0, ttl)
                .payload("language features").build();
        f[DIFFSERV] = (byte) diffserv;
        return f;
    }

    private void replay(byte[]... frames) {
        long cycle = engine.now() + 1;
        for (byte[] f : frames) {
            engine.arrive(cycle, IN_PORT, TestFrames.record(f));
            cycle += 1000;
        }
        engine.drain();
    }

    /** What the egress control writes: the egress port into the source MAC, the frame's length into the identification. */
    private static byte[] egressed(byte[] f, int port) {
        byte[] x = f.clone();
        Arrays.fill(x, SRC_MAC, SRC_MAC + 6, (byte) 0);
        x[SRC_MAC + 4] = (byte) (port >>> 8);
        x[SRC_MAC + 5] = (byte) port;
        x[IDENTIFICATION] = (byte) (f.length >>> 8);
        x[IDENTIFICATION + 1] = (byte) f.length;
        return x;
    }

    /** What ingress writes into an IPv4 frame: the TTL, and the source hash into the checksum field. */
    private static byte[] ttl(byte[] f, int ttl) {
        byte[] x = f.clone();
        x[TTL] = (byte) ttl;
        x[CHECKSUM] = (byte) (SOURCE_HASH >>> 8);
        x[CHECKSUM + 1] = (byte) SOURCE_HASH;
        return x;
    }

    /** The drop causes that dropped anything. */
    private Map<String, Long> drops() {
        Map<String, Long> m = new TreeMap<>(engine.counters().droppedByCause());
        m.values().removeIf(n -> n == 0);
        return m;
    }

    @Test
    void constEntriesPickThePortALocalCarriesTheTtlAndAnExitingActionSkipsTheRest() {
        byte[] udp = ipv4(0x0800, 17, 64, 0);
        byte[] tcp = ipv4(0x0800, 6, 64, 0);
        byte[] icmp = ipv4(0x0800, 1, 64, 0);
        replay(udp, tcp, icmp);
        assertEquals(2, out.size());
        assertEquals(3, out.get(0).port());
        assertArrayEquals(egressed(ttl(udp, 63), 3), out.get(0).frame()); // ttl_left written back
        assertEquals(4, out.get(1).port());
        assertArrayEquals(egressed(ttl(tcp, 64), 4), out.get(1).frame()); // set_port_and_exit: the TTL is not written
        // ICMP: no const entry, NoAction, no egress port written: dropped
        assertEquals(Map.of(SwitchEngine.DROP_NO_PORT, 1L), drops());
    }

    @Test
    void aFrameThatIsNotIpv4ExitsOnPortZeroUnchangedUntilTheControlPlaneAddsItsTypeToTheValueSet() {
        byte[] tagged = ipv4(0x88B5, 17, 64, 0);
        replay(tagged);
        engine.addParserValueSetEntry("special_types", 0x88B5, 0xFFFF);
        replay(tagged);
        assertEquals(2, out.size());
        assertEquals(0, out.get(0).port());
        assertArrayEquals(tagged, out.get(0).frame()); // not parsed as IPv4: egress leaves it alone too
        assertEquals(3, out.get(1).port());
        assertArrayEquals(egressed(ttl(tagged, 63), 3), out.get(1).frame());
    }

    @Test
    void dropCtlBitZeroDropsALaterZeroCancelsAndBitOneAloneDoesNotDrop() {
        byte[] expiring = ipv4(0x0800, 17, 1, 0);
        byte[] cancelled = ipv4(0x0800, 17, 1, 1);
        byte[] bitOne = ipv4(0x0800, 17, 64, 2);
        replay(expiring, cancelled, bitOne);
        assertEquals(2, out.size());
        assertArrayEquals(egressed(ttl(cancelled, 0), 3), out.get(0).frame());
        assertArrayEquals(egressed(ttl(bitOne, 63), 3), out.get(1).frame());
        assertEquals(Map.of(SwitchEngine.DROP_INGRESS, 1L), drops());
    }

    @Test
    void bypassEgressSkipsTheEgressControlAndEgressDropCtlDrops() {
        byte[] bypass = ipv4(0x0800, 17, 64, 3);
        byte[] egressDrop = ipv4(0x0800, 17, 64, 4);
        replay(bypass, egressDrop);
        assertEquals(1, out.size());
        assertEquals(3, out.get(0).port());
        assertArrayEquals(ttl(bypass, 63), out.get(0).frame()); // as the ingress deparser emitted it
        assertEquals(Map.of(SwitchEngine.DROP_EGRESS, 1L), drops());
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The LPM router of {@code p4/lpm_router.p4}, lowered from P4 and placed by the compiler,
 * behaves on frames as its comments say: a routed IPv4 frame leaves the route's port with
 * the next hop's MAC as destination, the old destination as source, the TTL one less and
 * a valid header checksum; a miss, a TTL of 1 and a frame that is not IPv4 are dropped
 * (no egress port written).
 */
class P4RouterTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final long NEXT_HOP = 0x0A0B0C0D0E0FL;
    private static final long ROUTER_MAC = 0x020000000001L;
    private static final long HOST_MAC = 0x020000000002L;
    private static final int PORT = 5;

    static String resource(String name) {
        try (InputStream in = P4RouterTest.class.getResourceAsStream("p4/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Departure(int port, byte[] frame) {
    }

    private static StageProgram router() {
        StageProgram unplaced = P4Programs.text("lpm_router.p4", resource("lpm_router.p4"), PreprocessorOptions.defaults()).require();
        Compilation c = ProgramCompiler.compile(unplaced, TOFINO1).requireAccepted();
        return c.program();
    }

    private static List<Departure> replay(StageProgram p, byte[]... frames) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        // 10.0.0.0/8 -> route(NEXT_HOP, PORT): action 1, its parameters packed (next_hop_mac, port), the port in the low 9 bits
        e.state().addLpm("ipv4_lpm", 0x0A000000L, 8, 1, (NEXT_HOP << 9) | PORT);
        List<Departure> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> out.add(new Departure(port, Arrays.copyOfRange(pool.frameArray(),
                pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot)))));
        long cycle = e.now() + 1;
        for (byte[] f : frames) {
            e.arrive(cycle, 1, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        return out;
    }

    private static byte[] ipv4(long dstMac, long dstIp, int ttl) {
        byte[] f = TestFrames.frame().ethernet(dstMac, HOST_MAC, 0x0800).ipv4(6, 40, 0, ttl).tcp(1000, 80, 0).build();
        // TestFrames writes 10.0.0.2 as the destination: put dstIp there and recompute the checksum
        f[30] = (byte) (dstIp >>> 24);
        f[31] = (byte) (dstIp >>> 16);
        f[32] = (byte) (dstIp >>> 8);
        f[33] = (byte) dstIp;
        f[24] = 0;
        f[25] = 0;
        int sum = checksum(f, 14, 20);
        f[24] = (byte) (sum >>> 8);
        f[25] = (byte) sum;
        return f;
    }

    private static int checksum(byte[] b, int off, int len) {
        int sum = 0;
        for (int i = off; i < off + len; i += 2) {
            sum += ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    @Test
    void aRoutedFrameLeavesTheRoutesPortRewrittenWithItsTtlDecrementedAndAValidChecksum() {
        byte[] in = ipv4(ROUTER_MAC, 0x0A010203L, 64);
        List<Departure> out = replay(router(), in);
        assertEquals(1, out.size());
        assertEquals(PORT, out.get(0).port());
        byte[] expected = ipv4(NEXT_HOP, 0x0A010203L, 63);
        // source MAC: the router's own address (the old destination)
        for (int i = 0; i < 6; i++) {
            expected[6 + i] = (byte) (ROUTER_MAC >>> (40 - 8 * i));
        }
        assertArrayEquals(expected, out.get(0).frame());
        assertEquals(0, checksum(out.get(0).frame(), 14, 20) & 0xFFFF, "a valid header sums to 0xFFFF");
    }

    @Test
    void aMissATtlOfOneAndANonIpv4FrameAreDropped() {
        byte[] miss = ipv4(ROUTER_MAC, 0x0B000001L, 64);
        byte[] expiring = ipv4(ROUTER_MAC, 0x0A000001L, 1);
        byte[] arp = TestFrames.frame().ethernet(ROUTER_MAC, HOST_MAC, 0x0806).arp(1, 0x0A000001L, 0x0A000002L).build();
        byte[] routed = ipv4(ROUTER_MAC, 0x0A000001L, 2);
        List<Departure> out = replay(router(), miss, expiring, arp, routed);
        assertEquals(1, out.size(), "only the last frame is routed");
        assertEquals(1, out.get(0).frame()[22], "its TTL 2 leaves as 1");
    }

    @Test
    void theRoutersTableIsPlacedInAStageAfterNoDependency() {
        StageProgram p = router();
        assertEquals(List.of("ipv4_lpm"), p.tables().stream().map(t -> t.name()).toList());
        assertEquals(0, p.tables().get(0).stage());
        assertEquals(Gress.INGRESS, p.tables().get(0).gress());
    }
}

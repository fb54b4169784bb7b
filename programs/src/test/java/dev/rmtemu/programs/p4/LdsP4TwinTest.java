package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.programs.lds.program.LdsHeader;
import dev.rmtemu.programs.lds.program.LdsPipeline;
import dev.rmtemu.programs.lds.program.LdsProgram;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/lds.p4} against its Java IR twin {@code lds} with its defaults (role both:
 * the sender's sketch in ingress, the receiver's in egress; R = 4, C = 8,192, k = 5, every
 * packet sampled, no weights, intervals of 2^30 ns, every packet to port 1). The seeded trace
 * is 12 bursts of IPv4 TCP and UDP frames (random IP IDs and TCP sequence numbers, a tenth
 * already carrying the LDS shim) on ports 0..7, an eighth of an interval apart, so that both
 * banks fill, the timestamp sums carry into s_hi, and port 1's queue overflows in every burst.
 * Both give the same drops, the same departures (below) and the same 24 register arrays in every
 * pipe, except the receiver's timestamp sums (below): the sender's s_lo, n/d and s_hi bit for
 * bit (so the P4 hashes the same 13 and 19 bytes with the same CRCs), the receiver's n/d.
 *
 * <p>The frames are untagged IPv4 with TCP or UDP: the P4 program parses Ethernet, the shim,
 * IPv4, the first four bytes of TCP or UDP (the ports) and TCP's sequence number, where the IR
 * twin's default parse graph also reads VLAN tags, IPv6 and ICMP (whose type and code are its
 * ports). The P4 program sketches IPv4 packets only (one gateway around its stateful ALUs),
 * where the IR twin hashes the zeros of an absent IPv4 header.
 *
 * <p>Placement: the IR places each end by hand in six stages (LdsPipeline: sender ingress 0..5,
 * receiver egress 6..11); rmtemu's placement of the P4 puts the sender in the same ingress
 * stages and the receiver as early as the resources ingress and egress share on tofino1 allow:
 * its six hash functions in egress stage 1 (stage 0 has 8, ingress takes 6), the offset tables in
 * 2, the index in 3, the stateful ALUs in 6, 7 and 8 (ingress's n/d arrays leave too few of
 * stage 4's map RAMs, and ingress takes the four stateful ALUs of stage 5). Per stage the use is
 * the same apart from the hash bits: the IR declares 8
 * hash units of 32 bits at each end (256 bits), its sampling and class hashes too, which the
 * defaults never read, and keeps 32 bits of each row hash; the P4 declares the 6 hashes it reads
 * and takes 13 bits of each row hash (h_r mod C: the IR masks its 32 bits to the same 13), 116
 * bits.
 *
 * <p>Latency: the ingress pipelines differ by 18 cycles. A hand-placed IR stage is declared
 * match-dependent on the stage before (ProgramBuilder.StageBuilder's default), 6 x 20 + 3 x 4 =
 * 132 cycles; rmtemu's placement labels each P4 stage by its elements' dependencies on the
 * stage before, as p4c's DependencyGraph::find_mau_dependency does, and stage 2 (the index,
 * base + offset) only action-depends on stage 1 (the offset table's action data), 2 cycles
 * instead of 20: 114. Both egress pipelines take tofino1's minimum of 160. So every packet of
 * the IR twin reaches the queues 18 cycles later, all alike: the departures are the same packets
 * on the same ports in the same order, 18 cycles apart, and the drops are the same. The receiver
 * adds its egress timestamp (ns, the floor of the cycle over 1.22 GHz) to s: 18 cycles later is
 * 14 or 15 ns more per packet, so each receiver cell's 64-bit s = s_hi·2^32 + s_lo is, in the
 * IR twin, between 14·n and 15·n ns above the P4's (n its count).
 */
class LdsP4TwinTest {
    private static final int BURSTS = 12;
    private static final int BURST_PACKETS = 2_500;
    private static final int FLOWS = 48;
    /** An eighth of a 2^30 ns interval in 1.22 GHz cycles: the 12 bursts span two intervals (both banks). */
    private static final long BURST_GAP_CYCLES = 163_000_000L;
    /** The IR's ingress latency minus the P4's (stage 2 match- rather than action-dependent), and its floor and ceiling in ns. */
    private static final long LATER_CYCLES = 18;
    private static final long LATER_NS_MIN = 14;
    private static final long LATER_NS_MAX = 15;

    @Test
    void theP4LdsSketchesAsTheIrLds() {
        StageProgram ir = ProgramPlugins.registry().build(LdsProgram.NAME, Map.of());
        StageProgram p4 = P4Twins.compile("lds.p4");

        SplitMix64 rnd = new SplitMix64(41);
        int[][] flows = new int[FLOWS][];
        for (int f = 0; f < FLOWS; f++) {
            flows[f] = new int[] {0x0A000000 | (int) (rnd.nextDouble() * 65536), 0x0A010000 | (int) (rnd.nextDouble() * 65536),
                    f % 3 == 0 ? 17 : 6, 1024 + (int) (rnd.nextDouble() * 60000), 1 + (int) (rnd.nextDouble() * 1000)};
        }
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        for (int b = 0; b < BURSTS; b++) {
            cycle += BURST_GAP_CYCLES;
            for (int i = 0; i < BURST_PACKETS; i++) {
                int[] flow = flows[(int) (rnd.nextDouble() * FLOWS)];
                cycle += (long) (rnd.nextDouble() * 8);
                int shim = rnd.nextDouble() < 0.1 ? (int) (rnd.nextDouble() * 256) : -1;
                byte[] frame = frame(flow, shim, (int) (rnd.nextDouble() * 65536), (long) (rnd.nextDouble() * 0x1_0000_0000L),
                        20 + (int) (rnd.nextDouble() * 1400));
                trace.add(new P4Twins.Arrival(cycle, (int) (rnd.nextDouble() * 8), P4Twins.record(frame)));
            }
        }

        List<String> irUse = P4Twins.stageUse(ir);
        List<String> p4Use = P4Twins.stageUse(p4);
        assertEquals("latency {INGRESS=132, EGRESS=160}", irUse.get(irUse.size() - 1), "6 stages, each declared match-dependent");
        assertEquals("latency {INGRESS=114, EGRESS=160}", p4Use.get(p4Use.size() - 1), "stage 2 action-dependent");
        assertEquals(LATER_CYCLES, ResourceChecker.check(ir, P4Twins.TOFINO1).pipelineLatencyCycles().get(Gress.INGRESS)
                - ResourceChecker.check(p4, P4Twins.TOFINO1).pipelineLatencyCycles().get(Gress.INGRESS));
        assertEquals(asP4Places(irUse.subList(0, irUse.size() - 1)), p4Use.subList(0, p4Use.size() - 1), "per-stage use");

        P4Twins.Run a = P4Twins.run(ir, e -> { }, trace);
        P4Twins.Run b = P4Twins.run(p4, e -> { }, trace);
        List<Long> shifted = new ArrayList<>(a.departures());
        for (int i = 0; i < shifted.size(); i += 3) {
            shifted.set(i, shifted.get(i) - LATER_CYCLES);
        }
        assertEquals(shifted, b.departures(), "departures (cycle, port, packet), the IR's ingress latency apart");
        assertEquals(a.dropped(), b.dropped(), "drops");
        assertTrue(a.dropped() > BURSTS * 100, "port 1's queue overflows in the bursts: " + a.dropped());
        assertEquals(trace.size(), a.departures().size() / 3 + a.dropped(), "every packet leaves on port 1 or is tail-dropped");

        assertEquals(24, ir.registers().size(), "s_lo, n/d and s_hi of 4 rows at each end");
        long banks0 = 0;
        long banks1 = 0;
        long carries = 0;
        long received = 0;
        for (RegisterArray r : ir.registers()) {
            for (int pipe = 0; pipe < P4Twins.TOFINO1.pipes(); pipe++) {
                long[] lo = a.engine().state().snapshot(pipe, r.name());
                long[] p4Lo = b.engine().state().snapshot(pipe, r.name());
                if (r.name().startsWith("lds_rx_s_")) {
                    continue; // the receiver's s, below
                }
                assertArrayEquals(lo, p4Lo, r.name() + " lo, pipe " + pipe);
                if (r.pair()) {
                    assertArrayEquals(a.engine().state().snapshotHi(pipe, r.name()), b.engine().state().snapshotHi(pipe, r.name()),
                            r.name() + " hi, pipe " + pipe);
                }
                for (int i = 0; i < lo.length; i++) {
                    if (r.name().startsWith("lds_tx_nd_")) {
                        banks0 += i % 2 == 0 ? lo[i] : 0;
                        banks1 += i % 2 == 1 ? lo[i] : 0;
                    }
                    carries += r.name().startsWith("lds_tx_s_hi_") ? lo[i] : 0;
                    received += r.name().startsWith("lds_rx_nd_") ? lo[i] : 0;
                }
            }
        }
        assertTrue(banks0 > 0 && banks1 > 0, "both banks: " + banks0 + ", " + banks1);
        assertEquals(trace.size() * 4L, banks0 + banks1, "the sender counts every packet, in every row");
        assertEquals((trace.size() - a.dropped()) * 4, received, "the receiver every packet the queue kept");
        assertTrue(carries > 0, "the low words carried into s_hi: " + carries);
        for (int row = 0; row < 4; row++) {
            for (int pipe = 0; pipe < P4Twins.TOFINO1.pipes(); pipe++) {
                long[] n = a.engine().state().snapshot(pipe, LdsPipeline.countDigest(false, row));
                long[] irLo = a.engine().state().snapshot(pipe, LdsPipeline.sLo(false, row));
                long[] irHi = a.engine().state().snapshot(pipe, LdsPipeline.sHi(false, row));
                long[] p4Lo = b.engine().state().snapshot(pipe, LdsPipeline.sLo(false, row));
                long[] p4Hi = b.engine().state().snapshot(pipe, LdsPipeline.sHi(false, row));
                for (int i = 0; i < n.length; i++) {
                    long later = ((irHi[i] << 32) | irLo[i]) - ((p4Hi[i] << 32) | p4Lo[i]);
                    assertTrue(later >= LATER_NS_MIN * n[i] && later <= LATER_NS_MAX * n[i],
                            "receiver row " + row + " cell " + i + ": s " + later + " ns later for " + n[i] + " packets");
                }
            }
        }
    }

    /** The IR's per-stage use where the P4 placement has it: its 256 hash bits as the P4's 116, its egress stages 6..11 as 1, 2, 6, 7, 8. */
    private static List<String> asP4Places(List<String> irUse) {
        List<String> out = new ArrayList<>();
        for (String row : irUse) {
            String r = row.replace("hash bits 256", "hash bits 116");
            for (String[] move : new String[][] {{"6", "1"}, {"7", "2"}, {"9", "6"}, {"10", "7"}, {"11", "8"}}) {
                if (r.startsWith("egress stage " + move[0] + ":")) {
                    r = "egress stage " + move[1] + r.substring(("egress stage " + move[0]).length());
                    break;
                }
            }
            out.add(r);
        }
        return out;
    }

    /** Ethernet, the LDS shim when {@code interval} >= 0, IPv4 (IP ID {@code ipId}), the flow's TCP (sequence number {@code seq}) or UDP header, then payload. */
    private static byte[] frame(int[] flow, int interval, int ipId, long seq, int payload) {
        byte[] shim = new byte[interval >= 0 ? LdsHeader.BYTES : 0];
        if (interval >= 0) {
            P4Twins.put(shim, 0, LdsHeader.ETHER_TYPE, 2);
            shim[2] = (byte) interval;
        }
        byte[] f = P4Twins.frame(flow, shim, ipId, payload);
        if (flow[2] == 6) {
            P4Twins.put(f, 14 + shim.length + 20 + 4, seq, 4);
        }
        return f;
    }
}

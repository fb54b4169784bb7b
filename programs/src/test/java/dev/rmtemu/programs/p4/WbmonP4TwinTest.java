package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/wbmon.p4} against its Java IR twin {@code wbmon} with the same parameters
 * (its defaults: 256 vconns, N = 4 registers of W = 32 bits, tws = 2). The seeded trace mixes
 * frames that end a vconn here (the WBMon header on ports 0..3, vconn ids 0..299 so that some
 * are not tracked, sequence numbers that skip, reorder, jump and cross 2^31 and 2^32) with
 * plain IPv4 frames (ports 4..7); a fixed forwarding function sends them to ports 8..15, where
 * egress numbers them on a vconn (8..11), on an ECMP port by the flow table (12), or removes
 * the header (13..15). Both give the same departures (cycle, port, packet) and drops and the
 * same registers, every array in every pipe: packets, started, newest, the slot to clean, the
 * four bitmaps, the four drop lanes and the upstream sequence numbers.
 *
 * <p>The frames are untagged IPv4 with TCP or UDP: the P4 program parses Ethernet, the shim,
 * IPv4 and the first four bytes of TCP or UDP (the ports its flow fingerprint hashes), where
 * the IR twin's default parse graph also reads VLAN tags, IPv6, ARP and ICMP (whose type and
 * code are its ports); on such frames the fingerprints, and so the ECMP numbering, differ.
 *
 * <p>Resources: the same per-stage use and pipeline latency; the P4 placement puts each step
 * in the stage WbmonPipeline gives it by hand (ingress 0..6, egress 0..2).
 */
class WbmonP4TwinTest {
    private static final int PACKETS = 12_000;
    private static final int VCONN_IDS = 300;
    private static final int FLOWS = 32;

    @Test
    void theP4WbmonNumbersDetectsAndCountsAsTheIrWbmon() {
        WbmonPipeline pipeline = new WbmonPipeline(WbmonConfig.defaults());
        StageProgram ir = pipeline.program;
        StageProgram p4 = P4Twins.compile("wbmon.p4");

        SplitMix64 rnd = new SplitMix64(17);
        int[][] flows = new int[FLOWS][];
        for (int f = 0; f < FLOWS; f++) {
            flows[f] = new int[] {0x0A000000 | (int) (rnd.nextDouble() * 65536), 0x0A010000 | (int) (rnd.nextDouble() * 65536),
                    f % 3 == 0 ? 17 : 6, 1024 + (int) (rnd.nextDouble() * 60000), 1 + (int) (rnd.nextDouble() * 1000)};
        }
        long[] next = new long[VCONN_IDS];
        for (int v = 0; v < VCONN_IDS; v++) {
            // some start just below 2^31 or 2^32, so that the serial order crosses both
            next[v] = switch (v % 4) {
                case 0 -> 0xFFFFFF00L + (long) (rnd.nextDouble() * 128);
                case 1 -> 0x7FFFFF00L + (long) (rnd.nextDouble() * 128);
                default -> (long) (rnd.nextDouble() * 0xFFFFFFFFL);
            };
        }
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        byte[] held = null;
        int heldPort = 0;
        for (int i = 0; i < PACKETS; i++) {
            int[] flow = flows[(int) (rnd.nextDouble() * FLOWS)];
            boolean vconn = rnd.nextDouble() < 0.8;
            byte[] frame;
            int port;
            if (vconn) {
                // a few hot vconns, so that their windows turn over many times
                int v = rnd.nextDouble() < 0.7 ? (int) (rnd.nextDouble() * 6) * 50 : (int) (rnd.nextDouble() * VCONN_IDS);
                double r = rnd.nextDouble();
                if (r < 0.08) {
                    next[v] += 1 + (long) (rnd.nextDouble() * 4); // lost upstream
                } else if (r < 0.09) {
                    next[v] += 200 + (long) (rnd.nextDouble() * 200); // a long gap
                } else if (r < 0.10) {
                    next[v] -= (long) (rnd.nextDouble() * 100); // late, or a repeat
                }
                next[v] &= 0xFFFFFFFFL;
                frame = frame(flow, v, next[v]);
                next[v] = (next[v] + 1) & 0xFFFFFFFFL;
                port = (int) (rnd.nextDouble() * 4);
            } else {
                frame = frame(flow, -1, 0);
                port = 4 + (int) (rnd.nextDouble() * 4);
            }
            cycle += (long) (rnd.nextDouble() * 120);
            if (held == null && rnd.nextDouble() < 0.05) {
                // reordered: this one arrives after the next
                held = frame;
                heldPort = port;
                continue;
            }
            trace.add(new P4Twins.Arrival(cycle, port, P4Twins.record(frame)));
            if (held != null) {
                cycle += 1 + (long) (rnd.nextDouble() * 30);
                trace.add(new P4Twins.Arrival(cycle, heldPort, P4Twins.record(held)));
                held = null;
            }
        }

        P4Twins.Run a = P4Twins.run(ir, e -> install(e, pipeline, flows), trace);
        P4Twins.Run b = P4Twins.run(p4, e -> install(e, pipeline, flows), trace);
        a.assertSameTraffic(b);
        a.assertSameRegisters(b, ir);
        assertEquals(3 * trace.size(), a.departures().size(), "every frame leaves (none dropped)");

        WbmonConfig c = WbmonConfig.defaults();
        long drops = 0;
        long counted = 0;
        for (int v = 0; v < c.vconns(); v++) {
            drops += WbmonPipeline.readDrops(a.engine(), c, v);
            counted += WbmonPipeline.readAllPipes(a.engine(), WbmonPipeline.PACKETS, v);
        }
        assertTrue(drops > 100, "the skipped sequence numbers are detected: " + drops);
        assertTrue(counted > PACKETS / 2 && counted < PACKETS, "tracked packets counted: " + counted);
        long numbered = 0;
        for (int v = 0; v < c.vconns(); v++) {
            numbered += WbmonPipeline.readAllPipes(a.engine(), WbmonPipeline.NEXT_SEQ, v);
        }
        assertTrue(numbered > PACKETS / 4, "packets numbered upstream: " + numbered);
        long onFlows = 0;
        for (int k = 0; k < FLOWS / 2; k++) {
            onFlows += WbmonPipeline.readAllPipes(a.engine(), WbmonPipeline.NEXT_SEQ, 100 + k);
        }
        assertTrue(onFlows > 0, "the flow table numbers flows on the ECMP port");

        assertEquals(P4Twins.stageUse(ir), P4Twins.stageUse(p4));
    }

    /** Vconns end on ports 0..3; leave on 8..11 (vconns 40..43) or per flow on ECMP port 12; forwarding by length. */
    private static void install(SwitchEngine e, WbmonPipeline pipeline, int[][] flows) {
        for (int port = 0; port < 4; port++) {
            WbmonPipeline.addIncomingPort(e.state(), port);
        }
        for (int port = 8; port < 12; port++) {
            WbmonPipeline.addOutgoingPort(e.state(), port, 32 + port);
        }
        WbmonPipeline.addEcmpPort(e.state(), 12);
        for (int k = 0; k < FLOWS / 2; k++) {
            int[] f = flows[k];
            WbmonPipeline.addOutgoingFlow(e.state(), 12, pipeline.fingerprint(f[0], f[1], f[2], f[3], f[4]), 100 + k);
        }
        e.forwarding((port, r) -> 8 + (r.wireLength() + port) % 8);
    }

    /** Ethernet, the WBMon header when {@code vconn} >= 0, IPv4 and the flow's TCP or UDP ports, then payload. */
    private static byte[] frame(int[] flow, int vconn, long seq) {
        byte[] shim = new byte[vconn >= 0 ? 8 : 0];
        if (vconn >= 0) {
            P4Twins.put(shim, 0, 0x88B6, 2);
            P4Twins.put(shim, 2, vconn, 2);
            P4Twins.put(shim, 4, seq, 4);
        }
        return P4Twins.frame(flow, shim, 0, 32 + (flow[3] % 200));
    }
}

package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.examples.L2FwdProgram;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/l2fwd.p4} against its Java IR twin {@code l2fwd}: on a seeded random
 * trace of Ethernet frames to 64 destinations, 48 of them in the table (random ports), both
 * give the same departures (cycle, port, packet) and drops.
 *
 * <p>Both count each entry's forwarded packets and bytes in the DirectCounter {@code l2_fwd_hits}:
 * every cell (each entry's handle and the miss cell) holds the same counts in both. Resources
 * are equal: the match table's 4 SRAM blocks, and the counter's 5 SRAM blocks (4,096 entries of
 * one 64 + 64-bit cell per 128-bit word are 4 RAMs of 1,024 rows, plus the spare bank: bf-p4c
 * mau/resource_estimate.cpp calculate_attached_rams), one map RAM per RAM and its statistics ALU.
 */
class L2FwdP4TwinTest {
    private static final int PACKETS = 5_000;
    private static final int DESTINATIONS = 64;
    private static final int INSTALLED = 48;

    private static long mac(int i) {
        return 0x02000A000000L | i;
    }

    @Test
    void theP4L2fwdForwardsAndDropsAsTheIrL2fwd() {
        StageProgram ir = ProgramPlugins.registry().build(L2FwdProgram.NAME, Map.of());
        StageProgram p4 = P4Twins.compile("l2fwd.p4");
        SplitMix64 rnd = new SplitMix64(41);
        int[] ports = new int[INSTALLED];
        for (int i = 0; i < INSTALLED; i++) {
            ports[i] = (int) (rnd.nextDouble() * 16);
        }
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        for (int i = 0; i < PACKETS; i++) {
            int d = (int) (rnd.nextDouble() * DESTINATIONS);
            int length = 64 + (int) (rnd.nextDouble() * 1400);
            byte[] f = new byte[length];
            for (int b = 0; b < 6; b++) {
                f[b] = (byte) (mac(d) >>> (40 - 8 * b));
                f[6 + b] = (byte) (mac(100 + i % 7) >>> (40 - 8 * b));
            }
            f[12] = (byte) 0x88;
            f[13] = (byte) 0xB5;
            cycle += (long) (rnd.nextDouble() * 400);
            trace.add(new P4Twins.Arrival(cycle, (int) (rnd.nextDouble() * 32), P4Twins.record(f)));
        }
        P4Twins.Run a = P4Twins.run(ir, e -> install(e, ports), trace);
        P4Twins.Run b = P4Twins.run(p4, e -> install(e, ports), trace);
        a.assertSameTraffic(b);
        assertTrue(a.dropped() > PACKETS / 8 && a.dropped() < PACKETS / 2, "misses dropped: " + a.dropped());
        assertEquals(3 * (PACKETS - a.dropped()), a.departures().size(), "every hit leaves");

        List<String> irUse = P4Twins.stageUse(ir);
        List<String> p4Use = P4Twins.stageUse(p4);
        assertEquals(List.of("ingress stage 0: sram 9, tcam 0, salus 0, hash bits 0, logical tables 1, gateways 0, map rams 5, stats alus 1",
                "latency {INGRESS=20}"),
                irUse);
        assertEquals(irUse, p4Use);

        Counter hits = ir.counter(L2FwdProgram.HITS);
        assertEquals(hits.cells(), p4.counter(L2FwdProgram.HITS).cells(), "cells: the table's entries and the miss cell");
        long counted = 0;
        for (int cell = 0; cell < hits.cells(); cell++) {
            long[] inIr = a.engine().state().readCounter(L2FwdProgram.HITS, cell);
            assertArrayEquals(inIr, b.engine().state().readCounter(L2FwdProgram.HITS, cell), "l2_fwd_hits cell " + cell);
            counted += inIr[0];
        }
        assertEquals(PACKETS - a.dropped(), counted, "every forwarded packet counted once, no miss counted");
    }

    private static void install(dev.rmtemu.emulator.engine.SwitchEngine e, int[] ports) {
        for (int i = 0; i < ports.length; i++) {
            e.state().addExact("l2_fwd", new long[] {mac(i)}, L2FwdProgram.ACTION_FORWARD, ports[i]);
        }
    }
}

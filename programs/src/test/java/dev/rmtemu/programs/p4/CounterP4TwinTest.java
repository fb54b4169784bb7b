package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.examples.CounterProgram;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/counter.p4}, the P4 twin of the IR program {@code counter}, lowered and
 * placed: on a random trace of TCP over IPv4 frames (the twin parses no UDP or ICMP; for TCP
 * the IR's L4 port overlays hold the TCP ports, so both hash the same 104 bits) it gives the
 * same departures (cycle, port, packet), drops and flow_count register in every pipe, and
 * uses the same resources in every stage.
 */
class CounterP4TwinTest {
    private static final int PACKETS = 5_000;

    @Test
    void theP4CounterDepartsAndCountsAsTheIrCounter() {
        StageProgram ir = ProgramPlugins.registry().build(CounterProgram.NAME, Map.of());
        StageProgram p4 = P4Twins.compile("counter.p4");
        SplitMix64 rnd = new SplitMix64(29);
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        for (int i = 0; i < PACKETS; i++) {
            int flow = (int) (Math.pow(rnd.nextDouble(), 3) * 500);
            cycle += (long) (rnd.nextDouble() * 40);
            trace.add(new P4Twins.Arrival(cycle, (int) (rnd.nextDouble() * 64), P4Twins.record(tcp(flow))));
        }
        P4Twins.Run a = P4Twins.run(ir, e -> { }, trace);
        P4Twins.Run b = P4Twins.run(p4, e -> { }, trace);
        assertEquals(3L * PACKETS, a.departures().size(), "every packet leaves");
        a.assertSameTraffic(b);
        a.assertSameRegisters(b, ir);
        RegisterArray counts = ir.registers().get(0);
        long total = 0;
        for (int pipe = 0; pipe < P4Twins.TOFINO1.pipes(); pipe++) {
            for (long c : a.engine().state().snapshot(pipe, counts.name())) {
                total += c;
            }
        }
        assertEquals(PACKETS, total, "each packet counted once");
        assertTrue(p4.placement().size() > 0, "the P4 program was placed by the compiler");
        assertEquals(P4Twins.stageUse(ir), P4Twins.stageUse(p4));
    }

    /** A 54-byte Ethernet, IPv4 (no options), TCP frame of flow {@code flow}. */
    static byte[] tcp(int flow) {
        byte[] f = new byte[54];
        f[12] = 0x08;
        f[14] = 0x45;
        f[16] = 0;
        f[17] = 40;
        f[22] = 64;
        f[23] = 6;
        int src = 0x0A000000 | flow;
        int dst = 0xC0A80000 | (flow % 40);
        int sport = 1000 + flow;
        int dport = 80 + flow % 7;
        for (int b = 0; b < 4; b++) {
            f[26 + b] = (byte) (src >>> (24 - 8 * b));
            f[30 + b] = (byte) (dst >>> (24 - 8 * b));
        }
        f[34] = (byte) (sport >>> 8);
        f[35] = (byte) sport;
        f[36] = (byte) (dport >>> 8);
        f[37] = (byte) dport;
        f[46] = 0x50;
        return f;
    }
}

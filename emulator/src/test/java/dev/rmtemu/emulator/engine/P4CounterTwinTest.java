package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.examples.CounterProgram;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code p4/counter.p4}, the P4 twin of the IR program {@code counter}, lowered and placed:
 * on a random trace of TCP over IPv4 frames (the twin parses no UDP or ICMP; for TCP the
 * IR's L4 port overlays hold the TCP ports, so both hash the same 104 bits) it gives the
 * same departures (cycle, port, packet), drops and flow_count register in every pipe.
 */
class P4CounterTwinTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int PACKETS = 5_000;

    private record Run(SwitchEngine engine, List<Long> departures, long dropped) {
    }

    private static Run run(StageProgram p) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        List<Long> departures = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add(pool.packetNumber(slot));
        });
        SplitMix64 rnd = new SplitMix64(29);
        long cycle = e.now() + 1;
        int ports = e.config().frontPanelPorts();
        for (int i = 0; i < PACKETS; i++) {
            int flow = (int) (Math.pow(rnd.nextDouble(), 3) * 500);
            byte[] f = TestFrames.frame().ethernet(0x0800).ipv4(6, 40, 0, 64).tcp(1000 + flow, 80 + flow % 7, 0).build();
            int src = 0x0A000000 | flow;
            int dst = 0xC0A80000 | (flow % 40);
            for (int b = 0; b < 4; b++) {
                f[26 + b] = (byte) (src >>> (24 - 8 * b));
                f[30 + b] = (byte) (dst >>> (24 - 8 * b));
            }
            cycle += (long) (rnd.nextDouble() * 40);
            e.arrive(cycle, (int) (rnd.nextDouble() * ports), TestFrames.record(f));
        }
        e.drain();
        return new Run(e, departures, e.counters().droppedTotal());
    }

    @Test
    void theP4CounterDepartsAndCountsAsTheIrCounter() {
        StageProgram ir = ProgramPlugins.registry().build(CounterProgram.NAME, Map.of());
        StageProgram p4 = ProgramCompiler.compile(P4Programs.text("counter.p4", P4RouterTest.resource("counter.p4"),
                PreprocessorOptions.defaults()).require(), TOFINO1).requireAccepted().program();
        Run a = run(ir);
        Run b = run(p4);
        assertEquals(3L * PACKETS, a.departures.size(), "every packet leaves");
        assertEquals(a.departures, b.departures);
        assertEquals(a.dropped, b.dropped);
        RegisterArray counts = ir.registers().get(0);
        long total = 0;
        for (int pipe = 0; pipe < TOFINO1.pipes(); pipe++) {
            long[] cells = a.engine.state().snapshot(pipe, counts.name());
            assertArrayEquals(cells, b.engine.state().snapshot(pipe, counts.name()), "pipe " + pipe);
            for (long c : cells) {
                total += c;
            }
        }
        assertEquals(PACKETS, total, "each packet counted once");
        assertTrue(p4.placement().size() > 0, "the P4 program was placed by the compiler");
    }
}

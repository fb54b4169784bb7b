package dev.rmtemu.bench;

import dev.rmtemu.emulator.engine.ArrivalTiming;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PackedRecords;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flat reference and the engine are two implementations of one model: on the same
 * trace they must give the same departures (cycle and packet, in order), drops and
 * counter arrays – otherwise the benchmark's ratio would compare different work.
 */
class FlatCounterSwitchTest {
    private static final int PACKETS = 60_000;

    @ParameterizedTest(name = "{0} into a {1} Gb/s port, {2} cells")
    @CsvSource({
        "rate:100G, 100, 65536",  // line rate: queues stay short, nothing dropped
        "rate:400G, 100, 65536",  // four times the port's rate: the queue fills, tail drop
        "rate:40G, 10, 1024",     // a slow port and a small array: many flows share each counter
    })
    void sameDeparturesDropsAndCountersAsTheEngine(String timingSpec, double portGbps, int cells) {
        TargetProfile profile = TargetProfiles.builtIn("tofino1");
        var program = new ProgramRegistry().build("counter", Map.of("cells", String.valueOf(cells)));
        PackedRecords trace = InMemoryTrace.isp(PACKETS, 5_000);
        PacketRecord view = new PacketRecord();

        SwitchEngine engine = new SwitchEngine(new SwitchConfig(profile, program, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(portGbps), true));
        long[] engineCycle = new long[PACKETS];
        long[] enginePacket = new long[PACKETS];
        int[] n = new int[1];
        engine.onDeparture((cycle, port, slot, pool) -> {
            engineCycle[n[0]] = cycle;
            enginePacket[n[0]++] = pool.packetNumber(slot);
        });
        ArrivalTiming engineTiming = ArrivalTiming.parse(timingSpec, engine.clock());
        long base = engine.now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            PacketRecord r = trace.get(i, view);
            engine.arrive(base + engineTiming.next(r.timestampNs(), r.wireLength()), r.ingressPort() % InMemoryTrace.PORTS, r);
        }
        engine.drain();

        FlatCounterSwitch flat = new FlatCounterSwitch(engine);
        long[] flatCycle = new long[PACKETS];
        long[] flatPacket = new long[PACKETS];
        int[] m = new int[1];
        flat.onDeparture((cycle, packet) -> {
            flatCycle[m[0]] = cycle;
            flatPacket[m[0]++] = packet;
        });
        flat.replay(trace, PACKETS, base, ArrivalTiming.parse(timingSpec, engine.clock()), InMemoryTrace.PORTS, view);

        assertEquals(engine.counters().packetsOut(), flat.packetsOut());
        assertEquals(n[0], m[0]);
        assertArrayEquals(engineCycle, flatCycle);
        assertArrayEquals(enginePacket, flatPacket);
        assertEquals(engine.trafficManager().totalDropped(), flat.dropped());
        assertEquals(engine.counters().droppedTotal(), flat.dropped());
        for (int pipe = 0; pipe < profile.pipes(); pipe++) {
            assertArrayEquals(engine.state().snapshot(pipe, "flow_count"), flat.counters(pipe), "pipe " + pipe);
        }
        if (timingSpec.equals("rate:400G")) {
            assertTrue(flat.dropped() > PACKETS / 4, "the congested case must drop: " + flat.dropped());
            assertEquals(flat.dropped(), engine.trafficManager().totalDropped(DropCause.QUEUE_LIMIT));
        } else if (portGbps == 100) {
            assertEquals(0, flat.dropped());
        }
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.ge;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Hand-computed timings through an idle tofino1 pipe. */
class EngineTimingTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    /** 1.22 GHz, 10 Gb/s: (1500 + 20) x 8 bits x 1.22e9 / 1e10 = 1483.52 cycles. */
    private static final double SERIALISATION_1500_AT_10G = 1483.52;

    record Departure(long cycle, int port, long packet) {
    }

    static List<Departure> capture(SwitchEngine e) {
        List<Departure> out = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> out.add(new Departure(c, p, pool.packetNumber(s))));
        return out;
    }

    static PacketRecord packet(int bytes, int srcIp) {
        PacketRecord r = PacketRecord.allocate();
        r.wireLength(bytes).ipVersion(4).protocol(17).srcIpv4(srcIp).dstIpv4(0x0A000002).srcPort(1234).dstPort(80);
        return r;
    }

    static StageProgram counter() {
        return new ProgramRegistry().build("counter", Map.of("port", "1"));
    }

    @Test
    void singlePacketDepartsAfterExactlyParserStagesTmEgressAndSerialisation() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, counter(), 4, PortConfig.strictPriority(10), true));
        List<Departure> d = capture(e);
        e.arrive(1000, 0, packet(1500, 1));
        e.drain();
        var lat = TOFINO1.latency();
        int ingress = 20 + 4; // one match stage with a stateful ALU
        int egress = 160;     // unused egress still takes tofino1's minimum
        long toTm = lat.parserCycles() + ingress + lat.deparserCycles() + lat.trafficManagerCycles();
        long serialisationEnd = (long) Math.ceil(1000 + toTm + SERIALISATION_1500_AT_10G);
        long expected = serialisationEnd + lat.parserCycles() + egress + lat.deparserCycles();
        assertEquals(List.of(new Departure(expected, 1, 0)), d);
        assertEquals(1812 + 1000, expected, "16 + 24 + 16 + 80 + 1483.52 -> 1620, + 16 + 160 + 16");
        assertEquals(1, e.state().readRegister(0, "flow_count", (int) (flowHash(e) % 65536)));
        e.checkConservation();
    }

    private static long flowHash(SwitchEngine e) {
        // CRC-32 over src, dst, proto, sport, dport as the counter's hash unit feeds them
        byte[] b = {0, 0, 0, 1, 10, 0, 0, 2, 17, 0x04, (byte) 0xD2, 0, 80};
        return dev.rmtemu.model.hash.Crc.named("crc32").hash(b) & 0xFFFF;
    }

    @Test
    void backToBackPacketsQueueBehindEachOtherByOneSerialisationTime() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, counter(), 4, PortConfig.strictPriority(10), true));
        List<Departure> d = capture(e);
        e.arrive(0, 0, packet(1500, 1));
        e.arrive(1, 0, packet(1500, 2));
        e.drain();
        long toTm = 136;
        long tail = 16 + 160 + 16;
        assertEquals(2, d.size());
        assertEquals((long) Math.ceil(toTm + SERIALISATION_1500_AT_10G) + tail, d.get(0).cycle());
        // the second reaches the TM one cycle later but waits for the port: exact rational end 2 x 1483.52
        assertEquals((long) Math.ceil(toTm + 2 * SERIALISATION_1500_AT_10G) + tail, d.get(1).cycle());
        assertEquals(3296, d.get(1).cycle());
    }

    @Test
    void queueOverflowDropsExactlyThePacketsBeyondTheLimit() {
        int limitCells = 100;               // 1500 B = 19 cells of 80 B -> 5 packets fit (95 cells)
        PortConfig port = PortConfig.strictPriority(10).withLimits(limitCells, 10 * limitCells);
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, counter(), 4, port, true));
        List<Departure> d = capture(e);
        int burst = 20;
        for (int i = 0; i < burst; i++) {
            e.arrive(i, 0, packet(1500, i));
        }
        e.drain();
        // the first starts serialising at once (its cells are freed at dequeue), 5 more fit the queue
        assertEquals(6, d.size());
        assertEquals(burst - 6, e.counters().droppedFor("tm_queue_limit"));
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L), d.stream().map(Departure::packet).toList());
        e.checkConservation();
    }

    /** Recirculates every fresh packet once, then sends it to port 1. */
    static StageProgram recirculateOnce() {
        ProgramBuilder b = ProgramBuilder.create("recirc_once", "");
        Field in = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        // every front-panel port of this test is in pipe 0
        b.stage(Gress.INGRESS, 0).body(c -> c.when(ge(read(in), constant(PortNumbers.RECIRCULATION_BASE)),
                recirculated -> recirculated.set(out, 1),
                fresh -> fresh.set(out, PortNumbers.recirculationPort(0))));
        return b.build();
    }

    @Test
    void recirculationOverBudgetDropsExactlyTheExcess() {
        int limitCells = 38; // two 1500 B packets of 19 cells wait at the recirculation port
        PortConfig port = PortConfig.strictPriority(100).withLimits(limitCells, 100 * limitCells);
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, recirculateOnce(), 4, port, true));
        List<Departure> d = capture(e);
        int burst = 10;
        for (int i = 0; i < burst; i++) {
            e.arrive(i, i % 4, packet(1500, i)); // ports 0..3 are all in pipe 0
        }
        e.drain();
        assertEquals(3, e.counters().recirculations(), "one serialising + two queued at the 100G recirculation port");
        assertEquals(burst - 3, e.counters().droppedFor(SwitchEngine.DROP_RECIRCULATION));
        assertEquals(3, d.size());
        assertEquals(3, e.trafficManager().totalDequeued() - 3, "each survivor crossed the TM twice");
        e.checkConservation();
    }

    @Test
    void programThatDoesNotFitIsRefused() {
        StageProgram big = new ProgramRegistry().build("counter", Map.of("cells", "4194304"));
        dev.rmtemu.model.UserError err = org.junit.jupiter.api.Assertions.assertThrows(dev.rmtemu.model.UserError.class,
                () -> new SwitchEngine(SwitchConfig.of(TOFINO1, big, 100)));
        assertEquals(3, err.exitCode());
    }
}

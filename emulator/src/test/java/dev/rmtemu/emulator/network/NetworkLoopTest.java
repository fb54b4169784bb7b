package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Loops end: routers decrement the TTL, the network bounds every packet's hops. */
class NetworkLoopTest {
    private static final long LINK_NS = 1_000;
    private static final int COUNTER_DEFAULT_PORT = 1;

    /** h1 – r1 – p1 – r2 – h2: regular switches r1, r2 around a programmable p1 without a program. */
    private static Topology routers() {
        TopologyBuilder b = new TopologyBuilder("test:routers");
        b.regularSwitch("r1", 2);
        b.programmableSwitch("p1", "tofino1", 2, null, KeyValues.EMPTY);
        b.regularSwitch("r2", 2);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        b.link("h1", 1, "r1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 2, "p1", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("p1", 2, "r2", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r2", 2, "h2", 1, true, LINK_NS, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    private static PacketRecord packet(int ttl, int seq) {
        return PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17)
                .srcIpv4(0x0A000101).dstIpv4(0x0A000201).srcPort(1).dstPort(2).ttl(ttl).tcpSeq(seq);
    }

    @Test
    void regularSwitchesDecrementTheTtlAndDropAtZero() {
        NetworkEngine net = NetworkEngine.build(routers(), NetworkOptions.of(1));
        List<int[]> delivered = new ArrayList<>();
        net.onDelivery((h, c, r) -> delivered.add(new int[] {r.tcpSeq(), r.ttl()}));
        int[] ttls = {64, 3, 2, 1, 0};
        for (int i = 0; i < ttls.length; i++) {
            net.inject(10L * i, packet(ttls[i], i));
        }
        net.drain();
        net.checkConservation();
        // two routers on the way, the programmable switch leaves the TTL alone; TTL 0 is a record without one
        assertEquals(3, delivered.size());
        assertEquals(List.of(0, 62), List.of(delivered.get(0)[0], delivered.get(0)[1]));
        assertEquals(List.of(1, 1), List.of(delivered.get(1)[0], delivered.get(1)[1]));
        assertEquals(List.of(4, 0), List.of(delivered.get(2)[0], delivered.get(2)[1]));
        assertEquals(Map.of(dev.rmtemu.emulator.engine.SwitchEngine.DROP_TTL_EXPIRED, 1L),
                nonZero(net.switchEngine("r1").counters().droppedByCause()), "TTL 1 ends at the first router");
        assertEquals(Map.of(dev.rmtemu.emulator.engine.SwitchEngine.DROP_TTL_EXPIRED, 1L),
                nonZero(net.switchEngine("r2").counters().droppedByCause()), "TTL 2 reaches r2 with 1");
        assertEquals(Map.of(), nonZero(net.switchEngine("p1").counters().droppedByCause()));
    }

    private static Map<String, Long> nonZero(Map<String, Long> m) {
        java.util.TreeMap<String, Long> out = new java.util.TreeMap<>();
        m.forEach((k, v) -> {
            if (v != 0) {
                out.put(k, v);
            }
        });
        return out;
    }

    @Test
    void aProgramLoopEndsAtTheHopBudgetWithOneWarningNamingTheLoop() {
        // counter sends every packet to program port 1 (topology port 2): s1 -> s2 -> s1 -> ...
        for (int maxHops : new int[] {NetworkOptions.DEFAULT_MAX_HOPS, 7}) {
            NetworkEngine net = NetworkEngine.build(TopologySpec.parse("builtin:line"),
                    new NetworkOptions("counter", Map.of("port", Integer.toString(COUNTER_DEFAULT_PORT)), true, 1, maxHops));
            for (int i = 0; i < 10; i++) {
                net.inject(100L * i, packet(64, i));
            }
            net.drain();
            net.checkConservation();
            NetworkEngine.NetworkTotals t = net.totals();
            assertEquals(10, t.hopLimitDrops());
            assertEquals(0, t.delivered());
            long departures = net.switchEngine("s1").counters().packetsOut() + net.switchEngine("s2").counters().packetsOut();
            assertEquals(10L * maxHops, departures, "each packet passed exactly " + maxHops + " switches");
            assertEquals(List.of("forwarding loop: 10 packets dropped as hop_limit after " + maxHops
                    + " switch hops (--max-hops); the loop goes through s1, s2"), net.warnings());
        }
    }

    @Test
    void aPortTheSwitchDoesNotHaveIsRefused() {
        UserError e = assertThrows(UserError.class, () -> NetworkEngine.build(TopologySpec.parse("builtin:line"),
                new NetworkOptions("counter", Map.of("port", "5"), true, 1)));
        assertEquals("--param port=5: switch s1 of builtin:line has program ports 0..1 (topology ports 1..2; program port"
                + " = topology port - 1), or 511 to let the topology's routing forward", e.getMessage());
        assertThrows(UserError.class, () -> new NetworkOptions(null, Map.of(), true, 1, 0));
    }
}

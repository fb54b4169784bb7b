package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code on s1 port_down 1} in a network replay (program port 1, topology port 2): s1's link to s2 is down in the direction s1
 * sends (s1's traffic manager drops what it would queue to it), and port_up restores it.
 * h1 – s1 – s2 – h2, links of 1,000 ns (1,220 cycles); tofino1 switches without a program,
 * so a packet reaches s1's traffic manager 112 cycles after it arrives.
 */
class NetworkLinkStateTest {
    private static Topology line() {
        TopologyBuilder b = new TopologyBuilder("test:line");
        b.programmableSwitch("s1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("s2", "tofino1", 2, null, KeyValues.EMPTY);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        b.link("h1", 1, "s1", 1, true, 1_000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 2, "s2", 2, true, 1_000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s2", 1, "h2", 1, true, 1_000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    private static PacketRecord packet(int seq) {
        return PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).srcIpv4(0x0A000101).dstIpv4(0x0A000201)
                .srcPort(1).dstPort(2).tcpSeq(seq);
    }

    /**
     * Packet 0, injected at 500, reaches s1 at 1,720 and its traffic manager at 1,832, while
     * the port is down (from 1,000): dropped there. Packet 1, injected at 3,000 after port_up at
     * 2,500, crosses both switches and reaches h2 at 3,000 + three links of 1,220 + two switches
     * of 112 + 12 (100 bytes serialised at 100 Gb/s: 11.7 cycles) + 192 (egress to the wire) = 7,292.
     */
    @Test
    void aSwitchPortDownDropsWhatTheSwitchSendsOnThatLink(@TempDir Path tmp) throws Exception {
        NetworkEngine net = NetworkEngine.build(line(), NetworkOptions.of(1));
        Path f = tmp.resolve("net.ctl");
        Files.writeString(f, "at 1000 on s1 port_down 1\nat 2500 on s1 port_up 1\n");
        ControlScript.apply(f, net);
        List<String> delivered = new ArrayList<>();
        net.onDelivery((h, c, r) -> delivered.add(r.tcpSeq() + "@" + c));
        net.inject(500, packet(0));
        net.inject(3000, packet(1));
        net.drain();
        SwitchEngine s1 = net.switchEngine("s1");
        assertEquals(112, s1.ingressToTmCycles());
        assertEquals(List.of("1@7292"), delivered);
        assertEquals(1, s1.counters().droppedFor(SwitchEngine.DROP_PORT_DOWN));
        assertEquals(1, net.totals().switchDropped());
        net.checkConservation();
    }
}

package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Addresses inside a host's prefix stay as the trace has them; others move into a host's prefix. */
class HostMapTest {
    private static Topology line(String a, HostRole ra, String b, HostRole rb) {
        TopologyBuilder t = new TopologyBuilder("test:hostmap");
        t.regularSwitch("s", 2);
        t.host("h1", Ipv4Prefix.parse(a), ra);
        t.host("h2", Ipv4Prefix.parse(b), rb);
        t.link("h1", 1, "s", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        t.link("h2", 1, "s", 2, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return t.build();
    }

    /** The packet's source and destination are these IPv4 addresses. */
    private static void assertAddresses(PacketRecord p, String src, String dst, String message) {
        assertEquals(Ipv4Prefix.parse(src + "/32").address(), p.srcIpv4(), message);
        assertEquals(Ipv4Prefix.parse(dst + "/32").address(), p.dstIpv4(), message);
    }

    private static PacketRecord packet(String src, String dst) {
        return PacketRecord.allocate().ipVersion(4).protocol(6).srcIpv4(Ipv4Prefix.parse(src + "/32").address())
                .dstIpv4(Ipv4Prefix.parse(dst + "/32").address());
    }

    @Test
    void hostsCoveringTheAddressSpaceKeepTheTracesAddresses() {
        HostMap m = new HostMap(line("0.0.0.0/1", HostRole.BOTH, "128.0.0.0/1", HostRole.BOTH));
        PacketRecord p = packet("10.1.2.3", "200.3.4.5");
        assertEquals(1, m.assign(p), "from h1 (node 1), whose prefix holds the source");
        assertAddresses(p, "10.1.2.3", "200.3.4.5", "");
        PacketRecord back = packet("150.0.0.1", "20.0.0.1");
        assertEquals(2, m.assign(back), "from h2");
        assertAddresses(back, "150.0.0.1", "20.0.0.1", "");
    }

    @Test
    void bothAddressesInOneHostsPrefixAreKeptAndTheOtherHostSends() {
        HostMap m = new HostMap(line("0.0.0.0/1", HostRole.BOTH, "128.0.0.0/1", HostRole.BOTH));
        PacketRecord p = packet("10.1.2.3", "20.3.4.5");
        assertEquals(2, m.assign(p), "h1 receives it, so h2 sends it");
        assertAddresses(p, "10.1.2.3", "20.3.4.5", "an address of the topology stays");
    }

    @Test
    void aSourceAddressOfASinkOnlyHostIsKept() {
        HostMap m = new HostMap(line("10.0.0.0/8", HostRole.SOURCE, "20.0.0.0/8", HostRole.SINK));
        PacketRecord p = packet("20.1.1.1", "20.2.2.2");
        assertEquals(1, m.assign(p));
        assertAddresses(p, "20.1.1.1", "20.2.2.2", "");
        PacketRecord q = packet("30.1.1.1", "40.2.2.2");
        m.assign(q);
        assertAddresses(q, "10.1.1.1", "20.2.2.2", "outside every prefix: into the sender's");
    }

    @Test
    void addressesOutsideEveryPrefixAreRewritten() {
        HostMap m = new HostMap(line("10.0.0.1/32", HostRole.SOURCE, "10.0.0.2/32", HostRole.SINK));
        PacketRecord p = packet("172.16.0.9", "192.168.7.7");
        assertEquals(1, m.assign(p));
        assertAddresses(p, "10.0.0.1", "10.0.0.2", "");
    }

    /** With /32 hosts (found by a table, not a scan) a host's own address stays, as the source it sends from or the destination. */
    @Test
    void hostAddressesAreKeptWithSlashThirtyTwoHosts() {
        HostMap m = new HostMap(line("10.0.0.1/32", HostRole.BOTH, "10.0.0.2/32", HostRole.BOTH));
        PacketRecord p = packet("10.0.0.2", "10.0.0.1");
        assertEquals(2, m.assign(p), "from h2, whose address is the source");
        assertAddresses(p, "10.0.0.2", "10.0.0.1", "");
        PacketRecord same = packet("10.0.0.1", "10.0.0.1");
        assertEquals(2, m.assign(same), "h1 receives it, so the other host sends it");
        assertAddresses(same, "10.0.0.1", "10.0.0.1", "an address of the topology stays");
        PacketRecord near = packet("10.0.0.3", "10.0.0.2");
        assertEquals(1, m.assign(near));
        assertAddresses(near, "10.0.0.1", "10.0.0.2", "next to a host's address: rewritten");
    }
}

package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoutingTest {
    /** A star of hosts with nested and high (sign-bit) prefixes. */
    private static Topology star(String... prefixes) {
        TopologyBuilder b = new TopologyBuilder("star");
        b.programmableSwitch("s", "tofino1", prefixes.length, null, KeyValues.EMPTY);
        for (int i = 0; i < prefixes.length; i++) {
            b.host("h" + i, Ipv4Prefix.parse(prefixes[i]), HostRole.BOTH);
        }
        for (int i = 0; i < prefixes.length; i++) {
            b.link("h" + i, 1, "s", i + 1, true, 0, 1, KeyValues.EMPTY, KeyValues.EMPTY);
        }
        return b.build();
    }

    private static int bruteForce(Topology t, int addr) {
        int best = -1;
        int bestLen = -1;
        List<Node> hosts = t.hosts();
        for (int d = 0; d < hosts.size(); d++) {
            Ipv4Prefix p = hosts.get(d).address();
            if (p.contains(addr) && p.length() > bestLen) {
                best = d;
                bestLen = p.length();
            }
        }
        return best;
    }

    @Test
    void longestPrefixMatchAgreesWithBruteForce() {
        Topology t = star("10.0.1.0/24", "10.0.1.7", "10.0.0.0/8", "192.168.0.0/16", "192.168.5.0/24",
                "255.255.255.255", "0.0.0.0/0", "10.0.1.128/25");
        Routing r = Routing.of(t);
        assertEquals(1, r.lookup(0x0A000107));
        assertEquals(0, r.lookup(0x0A000108));
        assertEquals(7, r.lookup(0x0A0001FF));
        assertEquals(2, r.lookup(0x0A020304));
        assertEquals(4, r.lookup(0xC0A80501));
        assertEquals(3, r.lookup(0xC0A80601));
        assertEquals(5, r.lookup(0xFFFFFFFF));
        assertEquals(6, r.lookup(0x0B000000));
        assertEquals(6, r.lookup(0));
        Random rnd = new Random(7);
        Topology noDefault = star("10.0.1.0/24", "10.0.1.7", "10.0.0.0/8", "192.168.0.0/16", "128.0.0.0/1");
        Routing r2 = Routing.of(noDefault);
        for (int i = 0; i < 20000; i++) {
            int a = rnd.nextInt();
            if (i % 2 == 0) {
                a = (a & 0x0000FFFF) | (rnd.nextBoolean() ? 0x0A000000 : 0xC0A80000);
            }
            assertEquals(bruteForce(t, a), r.lookup(a), Ipv4Prefix.format(a));
            assertEquals(bruteForce(noDefault, a), r2.lookup(a), Ipv4Prefix.format(a));
        }
        assertEquals(Routing.NO_ROUTE, r2.lookup(0x0B000000));
    }

    /**
     * Host addresses (/32) are looked up in a hash table before the range search: many of them,
     * colliding in it, inside and beside a shorter prefix, and every address next to one, give
     * what the longest prefix match gives.
     */
    @Test
    void hostAddressesLookedUpByTableAgreeWithBruteForce() {
        String[] prefixes = new String[41];
        Random rnd = new Random(11);
        for (int i = 0; i < 40; i++) {
            prefixes[i] = Ipv4Prefix.format(i < 20 ? 0x0A000100 + i * 7 : rnd.nextInt());
        }
        prefixes[40] = "10.0.1.0/24";
        Topology t = star(prefixes);
        Routing r = Routing.of(t);
        for (int i = 0; i < 40; i++) {
            int a = t.hosts().get(i).address().address();
            assertEquals(i, r.lookup(a), prefixes[i]);
            for (int near = -2; near <= 2; near++) {
                assertEquals(bruteForce(t, a + near), r.lookup(a + near), Ipv4Prefix.format(a + near));
            }
        }
        assertEquals(40, r.lookup(0x0A000101));
        assertEquals(Routing.NO_ROUTE, r.lookup(0x0A000200));
    }

    /** The route that hashes the flow only for a multi-port ECMP group picks the port the hashed route picks, at every switch. */
    @Test
    void routeOfARecordAgreesWithTheRouteOfItsFlowHash() {
        Topology t = TopologySpec.parse("builtin:fattree?k=4");
        Routing r = Routing.of(t);
        Random rnd = new Random(5);
        PacketRecord rec = PacketRecord.allocate(0);
        int multiPort = 0;
        for (int i = 0; i < 4000; i++) {
            rec.clear();
            rec.ipVersion(4).protocol(6).srcPort(rnd.nextInt(65536)).dstPort(rnd.nextInt(65536))
                    .srcIpv4(rnd.nextInt()).dstIpv4(i % 2 == 0 ? rnd.nextInt() : t.hosts().get(rnd.nextInt(t.hosts().size())).address().address());
            long hash = FlowKey.hash(rec);
            for (Node n : t.switches()) {
                int expected = r.route(n.index(), rec.dstIpv4(), hash);
                assertEquals(expected, r.route(n.index(), rec.dstIpv4(), rec), n.name() + " " + rec);
                int d = r.lookup(rec.dstIpv4());
                if (d >= 0 && r.group(n.index(), d).length > 1) {
                    multiPort++;
                }
            }
        }
        assertTrue(multiPort > 1000, "ECMP groups exercised: " + multiPort);
    }

    @Test
    void ecmpSelectionIsUniformAndDeterministic() {
        long salt = EcmpSelector.salt("agg0_1");
        assertEquals(salt, EcmpSelector.salt("agg0_1"));
        assertNotEquals(salt, EcmpSelector.salt("agg0_0"));
        int[] counts = new int[3];
        for (long h = 0; h < 30000; h++) {
            int i = EcmpSelector.select(h, salt, 3);
            counts[i]++;
            assertEquals(i, EcmpSelector.select(h, salt, 3));
        }
        for (int c : counts) {
            assertTrue(c > 9500 && c < 10500, java.util.Arrays.toString(counts));
        }
        assertEquals(0, EcmpSelector.select(-1L, salt, 1));
    }

    @Test
    void unidirectionalRingRoutesAlongTheDirection() {
        TopologyBuilder b = new TopologyBuilder("ring");
        for (int i = 1; i <= 3; i++) {
            b.regularSwitch("s" + i, 3);
        }
        for (int i = 1; i <= 3; i++) {
            b.host("h" + i, Ipv4Prefix.parse("10.0.0." + i), HostRole.BOTH);
        }
        for (int i = 1; i <= 3; i++) {
            b.link("h" + i, 1, "s" + i, 1, true, 5, 1, null, null);
            b.link("s" + i, 2, "s" + (i % 3 + 1), 3, false, 5, 1, null, null);
        }
        Routing r = Routing.of(b.build());
        // s1 -> s2 -> s3 one way; h3 back to h1 goes s3 -> s1 directly.
        assertEquals(4, r.path("h1", "h3", 0L).length());
        assertEquals(3, r.path("h3", "h1", 0L).length());
        assertEquals("h1>1 - 1>s1>2 - 3>s2>2 - 3>s3>1 - 1>h3", r.path("h1", "h3", 9L).toString());
    }

    @Test
    void equalityIgnoresSourceNameAndPathsRejectNonHosts() {
        String spec = "builtin:line?hosts=2";
        Topology a = TopologySpec.parse(spec);
        Topology b = TopologyFile.parse(TopologyFile.write(a, TopologyFile.Format.YAML), "other.yaml",
                TopologyFile.Format.YAML);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(Routing.of(a), Routing.of(b));
        Routing r = Routing.of(a);
        assertThrows(IllegalArgumentException.class, () -> r.path("s1", "h1", 0L));
        assertEquals("h1>1 - 1>s1>3 - 3>s2>2 - 1>h4", r.path("h1", "h4", 0L).toString());
        assertEquals(0, r.path("h1", "h1", 0L).length());
    }

    @Test
    void builderRejectsBadInputWithOneLine() {
        TopologyBuilder b = new TopologyBuilder("api");
        b.regularSwitch("s", 2);
        assertEquals("api: nodes[1]: bad node name 'a:b' (use letters, digits, '_', '-', '.')",
                assertThrows(UserError.class, () -> b.regularSwitch("a:b", 2)).getMessage());
        assertEquals("api: links[0]: link connects s to itself",
                assertThrows(UserError.class, () -> b.link("s", 1, "s", 2, true, 1, 1, null, null)).getMessage());
        assertEquals("api: nodes[1]: bad target profile name 'null'",
                assertThrows(UserError.class, () -> b.programmableSwitch("p", null, 2, null, null)).getMessage());
        TreeMap<String, String> m = new TreeMap<>();
        m.put("loss", " ");
        b.regularSwitch("t", 2);
        assertEquals("api: links[0]: impairment 'loss' needs a one-line, non-empty value",
                assertThrows(UserError.class, () -> b.link("s", 1, "t", 1, true, 1, 1, KeyValues.of(m), null))
                        .getMessage());
        assertEquals("api: links[0]: latency_ns -1 is negative",
                assertThrows(UserError.class, () -> b.link("s", 1, "t", 1, true, -1, 1, null, null)).getMessage());
    }
}

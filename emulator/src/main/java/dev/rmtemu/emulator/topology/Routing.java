package dev.rmtemu.emulator.topology;

import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Shortest-path forwarding tables with ECMP, computed once from a
 * {@link Topology}, then read per packet without allocating.
 *
 * <p><b>Destinations.</b> Each host is one destination; destination indices
 * follow the hosts' node order. An IPv4 address maps to the host whose prefix
 * matches it longest ({@link #lookup(int)}); the table is shared by all
 * switches, since every switch routes to the same host prefixes.
 *
 * <p><b>Paths.</b> Distance is the number of links, following link direction
 * (unidirectional links only a→b). Hosts never forward: a path may start or end
 * at a host but not pass through one. At node n the ECMP group for destination d
 * is every port p of n whose link leads to a node m, with m the destination host
 * or a switch, and dist(m, d) = dist(n, d) − 1. Groups list ports in ascending
 * order. The single deterministic shortest path ({@link #egressPort(int, int)})
 * takes the lowest port of each group; per-flow ECMP
 * ({@link #egressPort(int, int, long)}) takes the member chosen by
 * {@link EcmpSelector#select} with the node's salt.
 */
public final class Routing {
    /** Returned by lookups when there is no route (unknown address, unreachable, or already there). */
    public static final int NO_ROUTE = -1;

    private final Topology topology;
    private final int destCount;
    private final int[] destHost;
    private final int[] hostDest;
    /** node * destCount + dest → hop count, or -1 if unreachable. */
    private final int[] distance;
    /** node * destCount + dest → group id, or -1. */
    private final int[] groupOf;
    private final int[] groupStart;
    private final int[] groupLength;
    private final int[] groupPorts;
    private final long[] salt;
    /** LPM as sorted disjoint ranges: range starts with the sign bit flipped (so signed order = unsigned order). */
    private final int[] rangeStart;
    private final int[] rangeDest;
    /**
     * The hosts' /32 addresses with {@link #lookup}'s answer for each (filled from the range
     * search): a packet's destination is a host's address in the built-in topologies, so a lookup
     * at every hop is about one probe, not a binary search over every host's range; a miss falls
     * back to that search.
     */
    private final AddressTable exact;

    private Routing(Topology t) {
        this.topology = t;
        List<Node> nodes = t.nodes();
        int n = nodes.size();
        List<Node> hosts = t.hosts();
        destCount = hosts.size();
        destHost = new int[destCount];
        hostDest = new int[n];
        Arrays.fill(hostDest, -1);
        for (int d = 0; d < destCount; d++) {
            destHost[d] = hosts.get(d).index();
            hostDest[destHost[d]] = d;
        }
        salt = new long[n];
        for (Node node : nodes) {
            salt[node.index()] = EcmpSelector.salt(node.name());
        }
        // Where each port sends (-1: unused or receive-only), and incoming channels per node.
        int[] portBase = new int[n + 1];
        for (Node node : nodes) {
            portBase[node.index() + 1] = portBase[node.index()] + node.ports();
        }
        int[] sendsTo = new int[portBase[n]];
        int[] incomingCount = new int[n];
        for (Node node : nodes) {
            for (int p = 1; p <= node.ports(); p++) {
                Endpoint to = t.sendsTo(node.index(), p);
                sendsTo[portBase[node.index()] + p - 1] = to == null ? -1 : to.node();
                if (to != null) {
                    incomingCount[to.node()]++;
                }
            }
        }
        int[][] incoming = new int[n][];
        for (int i = 0; i < n; i++) {
            incoming[i] = new int[incomingCount[i]];
            incomingCount[i] = 0;
        }
        for (int u = 0; u < n; u++) {
            for (int i = portBase[u]; i < portBase[u + 1]; i++) {
                if (sendsTo[i] >= 0) {
                    incoming[sendsTo[i]][incomingCount[sendsTo[i]]++] = u;
                }
            }
        }
        boolean[] forwards = new boolean[n];
        for (Node node : nodes) {
            forwards[node.index()] = node.isSwitch();
        }
        distance = new int[n * destCount];
        Arrays.fill(distance, -1);
        int[] queue = new int[n];
        for (int d = 0; d < destCount; d++) {
            int h = destHost[d];
            distance[h * destCount + d] = 0;
            int head = 0;
            int tail = 0;
            queue[tail++] = h;
            while (head < tail) {
                int u = queue[head++];
                if (u != h && !forwards[u]) {
                    continue; // a host other than the destination does not forward
                }
                int du = distance[u * destCount + d];
                for (int v : incoming[u]) {
                    if (distance[v * destCount + d] < 0) {
                        distance[v * destCount + d] = du + 1;
                        queue[tail++] = v;
                    }
                }
            }
        }
        // ECMP groups; a node's equal groups share one id (a node has few distinct groups,
        // so a linear search over them is cheap). Ids are assigned in node-major order.
        groupOf = new int[n * destCount];
        Arrays.fill(groupOf, -1);
        List<int[]> groups = new ArrayList<>();
        int[] scratch = new int[TopologyBuilder.MAX_PORTS_PER_NODE];
        for (int u = 0; u < n; u++) {
            int firstOfNode = groups.size();
            int ports = portBase[u + 1] - portBase[u];
            for (int d = 0; d < destCount; d++) {
                int du = distance[u * destCount + d];
                if (du <= 0) {
                    continue;
                }
                int count = 0;
                for (int p = 1; p <= ports; p++) {
                    int m = sendsTo[portBase[u] + p - 1];
                    if (m >= 0 && (m == destHost[d] || forwards[m]) && distance[m * destCount + d] == du - 1) {
                        scratch[count++] = p;
                    }
                }
                int id = -1;
                for (int g = firstOfNode; g < groups.size() && id < 0; g++) {
                    if (Arrays.equals(groups.get(g), 0, groups.get(g).length, scratch, 0, count)) {
                        id = g;
                    }
                }
                if (id < 0) {
                    id = groups.size();
                    groups.add(Arrays.copyOf(scratch, count));
                }
                groupOf[u * destCount + d] = id;
            }
        }
        groupStart = new int[groups.size()];
        groupLength = new int[groups.size()];
        int total = 0;
        for (int i = 0; i < groups.size(); i++) {
            groupStart[i] = total;
            groupLength[i] = groups.get(i).length;
            total += groups.get(i).length;
        }
        groupPorts = new int[total];
        for (int i = 0; i < groups.size(); i++) {
            System.arraycopy(groups.get(i), 0, groupPorts, groupStart[i], groupLength[i]);
        }
        // LPM ranges.
        long[][] built = buildRanges(hosts);
        rangeStart = new int[built[0].length];
        rangeDest = new int[built[0].length];
        for (int i = 0; i < rangeStart.length; i++) {
            rangeStart[i] = (int) built[0][i] ^ Integer.MIN_VALUE;
            rangeDest[i] = (int) built[1][i];
        }
        int[] hostAddresses = new int[destCount];
        int exactCount = 0;
        for (Node h : hosts) {
            if (h.address().length() == Integer.SIZE) {
                hostAddresses[exactCount++] = h.address().address();
            }
        }
        int[] addresses = Arrays.copyOf(hostAddresses, exactCount);
        int[] dests = new int[exactCount];
        for (int i = 0; i < exactCount; i++) {
            dests[i] = rangeLookup(addresses[i]);
        }
        exact = new AddressTable(addresses, dests);
    }

    /** Splits the address space at every prefix boundary; each range gets its longest matching prefix. */
    private static long[][] buildRanges(List<Node> hosts) {
        long[] bounds = new long[2 * hosts.size() + 1];
        int nb = 0;
        bounds[nb++] = 0;
        for (Node h : hosts) {
            bounds[nb++] = h.address().firstUnsigned();
            bounds[nb++] = h.address().endUnsigned();
        }
        long[] sorted = Arrays.stream(bounds, 0, nb).filter(b -> b < (1L << 32)).sorted().distinct().toArray();
        int[] dest = new int[sorted.length];
        Arrays.fill(dest, NO_ROUTE);
        Integer[] order = new Integer[hosts.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // Shorter prefixes first, so longer (more specific) ones overwrite them.
        Arrays.sort(order, (x, y) -> Integer.compare(hosts.get(x).address().length(), hosts.get(y).address().length()));
        for (int d : order) {
            Ipv4Prefix p = hosts.get(d).address();
            int i = Arrays.binarySearch(sorted, p.firstUnsigned());
            for (; i < sorted.length && sorted[i] < p.endUnsigned(); i++) {
                dest[i] = d;
            }
        }
        // Merge neighbouring ranges with the same destination.
        long[] starts = new long[sorted.length];
        long[] dests = new long[sorted.length];
        int m = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (m == 0 || dests[m - 1] != dest[i]) {
                starts[m] = sorted[i];
                dests[m] = dest[i];
                m++;
            }
        }
        return new long[][] {Arrays.copyOf(starts, m), Arrays.copyOf(dests, m)};
    }

    /** Computes the tables for a topology. */
    public static Routing of(Topology t) {
        return new Routing(t);
    }

    public Topology topology() {
        return topology;
    }

    /** Number of destinations (= hosts). */
    public int destinationCount() {
        return destCount;
    }

    /** Node index of destination {@code dest}'s host. */
    public int destinationHost(int dest) {
        return destHost[dest];
    }

    /** Destination index of a host node, or -1 if the node is not a host. */
    public int destinationOf(int hostNode) {
        return hostDest[hostNode];
    }

    /** Longest-prefix match of an IPv4 destination address: the destination index, or {@link #NO_ROUTE}. Allocation-free. */
    public int lookup(int dstIpv4) {
        int d = exact.get(dstIpv4);
        return d != AddressTable.ABSENT ? d : rangeLookup(dstIpv4);
    }

    /** {@link #lookup} by binary search over the ranges. */
    private int rangeLookup(int dstIpv4) {
        int key = dstIpv4 ^ Integer.MIN_VALUE;
        int lo = 0;
        int hi = rangeStart.length - 1;
        // Largest i with rangeStart[i] <= key; rangeStart[0] is address 0, so i exists.
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (rangeStart[mid] <= key) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return rangeDest[lo];
    }

    /** Hops (links) from {@code node} to destination {@code dest}, or -1 if unreachable. */
    public int distance(int node, int dest) {
        return distance[node * destCount + dest];
    }

    /** Size of the ECMP group at {@code node} for {@code dest}; 0 if none (unreachable or at the destination). */
    public int groupSize(int node, int dest) {
        int g = groupOf[node * destCount + dest];
        return g < 0 ? 0 : groupLength[g];
    }

    /** Id of the ECMP group at {@code node} for {@code dest} (-1 if none); equal ids at a node mean equal groups. */
    int groupId(int node, int dest) {
        return groupOf[node * destCount + dest];
    }

    /** Member {@code i} of the ECMP group (ascending port order). */
    public int groupPort(int node, int dest, int i) {
        int g = groupOf[node * destCount + dest];
        if (g < 0 || i < 0 || i >= groupLength[g]) {
            throw new IndexOutOfBoundsException("no member " + i + " in group of node " + node + " for dest " + dest);
        }
        return groupPorts[groupStart[g] + i];
    }

    /** A copy of the ECMP group (for reports, not the packet path). */
    public int[] group(int node, int dest) {
        int g = groupOf[node * destCount + dest];
        return g < 0 ? new int[0] : Arrays.copyOfRange(groupPorts, groupStart[g], groupStart[g] + groupLength[g]);
    }

    /** Deterministic shortest-path egress: the lowest port of the group, or {@link #NO_ROUTE}. */
    public int egressPort(int node, int dest) {
        int g = groupOf[node * destCount + dest];
        return g < 0 ? NO_ROUTE : groupPorts[groupStart[g]];
    }

    /** Per-flow ECMP egress port at {@code node} for {@code dest}, or {@link #NO_ROUTE}. Allocation-free. */
    public int egressPort(int node, int dest, long flowHash) {
        int g = groupOf[node * destCount + dest];
        if (g < 0) {
            return NO_ROUTE;
        }
        int len = groupLength[g];
        int i = len == 1 ? 0 : EcmpSelector.select(flowHash, salt[node], len);
        return groupPorts[groupStart[g] + i];
    }

    /**
     * As {@link #route(int, int, long)}, the flow hash computed only when the packet's ECMP group
     * has more than one port (a one-port group's port does not depend on it): the per-packet
     * forwarding of a network, where most groups (every host's own switch port) have one port.
     */
    public int route(int node, int dstIpv4, PacketRecord flow) {
        int d = lookup(dstIpv4);
        if (d < 0) {
            return NO_ROUTE;
        }
        int g = groupOf[node * destCount + d];
        if (g < 0) {
            return NO_ROUTE;
        }
        int len = groupLength[g];
        int i = len == 1 ? 0 : EcmpSelector.select(FlowKey.hash(flow), salt[node], len);
        return groupPorts[groupStart[g] + i];
    }

    /** LPM then ECMP: egress port at {@code node} for a packet to {@code dstIpv4}, or {@link #NO_ROUTE}. */
    public int route(int node, int dstIpv4, long flowHash) {
        int d = lookup(dstIpv4);
        return d < 0 ? NO_ROUTE : egressPort(node, d, flowHash);
    }

    /**
     * The hops a flow with this hash takes from one host to another, or null if
     * {@code dstHost} is unreachable from {@code srcHost}.
     */
    public FlowPath path(int srcHost, int dstHost, long flowHash) {
        int d = hostDest[dstHost];
        if (hostDest[srcHost] < 0 || d < 0) {
            throw new IllegalArgumentException("path endpoints must be hosts");
        }
        List<Hop> hops = new ArrayList<>();
        int node = srcHost;
        int in = -1;
        int limit = topology.nodes().size();
        while (node != dstHost) {
            int out = egressPort(node, d, flowHash);
            if (out < 0) {
                return null;
            }
            hops.add(new Hop(node, topology.node(node).name(), in, out, topology.linkAt(node, out)));
            Endpoint next = topology.sendsTo(node, out);
            node = next.node();
            in = next.port();
            if (hops.size() > limit) {
                throw new IllegalStateException("forwarding loop from " + srcHost + " to " + dstHost);
            }
        }
        hops.add(new Hop(node, topology.node(node).name(), in, -1, -1));
        return new FlowPath(hops);
    }

    /** Path between hosts by name; see {@link #path(int, int, long)}. */
    public FlowPath path(String srcHost, String dstHost, long flowHash) {
        return path(requireHost(srcHost), requireHost(dstHost), flowHash);
    }

    private int requireHost(String name) {
        Node n = topology.node(name);
        if (n == null || !n.isHost()) {
            throw new IllegalArgumentException("no host named '" + name + "'");
        }
        return n.index();
    }

    /**
     * The forwarding table of one node as text, one line per reachable
     * destination in destination order: {@code 10.0.1.2/32 h1 dist=3 ports=[1, 2]}.
     */
    public String describe(int node) {
        StringBuilder sb = new StringBuilder();
        for (int d = 0; d < destCount; d++) {
            if (groupSize(node, d) == 0) {
                continue;
            }
            Node h = topology.node(destHost[d]);
            sb.append(h.address()).append(' ').append(h.name()).append(" dist=").append(distance(node, d))
                    .append(" ports=").append(Arrays.toString(group(node, d))).append('\n');
        }
        return sb.toString();
    }

    /** Equal if computed for equal topologies with identical tables. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Routing r && topology.equals(r.topology) && Arrays.equals(distance, r.distance)
                && Arrays.equals(groupOf, r.groupOf) && Arrays.equals(groupStart, r.groupStart)
                && Arrays.equals(groupLength, r.groupLength) && Arrays.equals(groupPorts, r.groupPorts)
                && Arrays.equals(rangeStart, r.rangeStart) && Arrays.equals(rangeDest, r.rangeDest)
                && Arrays.equals(salt, r.salt);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(groupOf) + Arrays.hashCode(groupPorts);
    }
}

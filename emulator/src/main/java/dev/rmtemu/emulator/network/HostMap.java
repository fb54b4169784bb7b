package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.AddressTable;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Puts a trace's packets onto the topology's hosts, deterministically and
 * without allocating:
 * <ul>
 *   <li>an IPv4 destination inside a sink host's prefix (the longest, if several)
 *       goes to that host; a source inside the prefix of a source host other than
 *       the destination comes from it; an IPv4 address inside any host's prefix is
 *       kept (routing looks at destinations only). So hosts whose prefixes cover the
 *       trace's addresses (e.g. 0.0.0.0/1 and 128.0.0.0/1) replay it with its own
 *       addresses;</li>
 *   <li>otherwise source host = sources[h(src address) mod #sources], sources being
 *       the hosts with role source or both, in node order (the next one if that is
 *       the kept destination);</li>
 *   <li>and destination host = the sinks other than that source (hosts with role
 *       sink or both, node order) indexed by h(dst address) mod their count;</li>
 *   <li>an address not kept is rewritten to IPv4 (an IPv6 packet becomes IPv4):
 *       the host's prefix with the original address's host bits (low 32 bits for
 *       IPv6) below the prefix. With /32 host prefixes that is the host's address.</li>
 * </ul>
 * h is the SplitMix64 finaliser, so every packet of a flow (same addresses)
 * takes the same pair of hosts, and the mapping depends on the trace only.
 */
public final class HostMap {
    private final int[] sourceNodes;
    private final int[][] sinksFor;
    private final int[] prefixAddress;
    private final int[] prefixMask;
    /** Node indices of the sink hosts, in node order. */
    private final int[] sinkNodes;
    /**
     * The prefix every sink's (source's) prefix lies in, as mask and address: an address outside
     * it is in no host's prefix, which one comparison tells instead of a scan of every host.
     */
    private final int sinkCoverMask;
    private final int sinkCoverAddress;
    private final int sourceCoverMask;
    private final int sourceCoverAddress;
    /**
     * When every source's (sink's) prefix is a distinct /32, its address → its position in
     * {@link #sourceNodes} ({@link #sinkNodes}): the one host whose prefix holds an address, found
     * without a scan of every host (else null).
     */
    private final AddressTable sourceAddresses;
    private final AddressTable sinkAddresses;

    public HostMap(Topology t) {
        List<Node> hosts = t.hosts();
        List<Node> sources = new ArrayList<>();
        List<Node> sinks = new ArrayList<>();
        for (Node h : hosts) {
            if (h.role().sends()) {
                sources.add(h);
            }
            if (h.role().receives()) {
                sinks.add(h);
            }
        }
        if (sources.isEmpty() || sinks.isEmpty()) {
            throw new UserError(t.source() + ": a network replay needs at least one source host and one sink host");
        }
        int n = t.nodes().size();
        prefixAddress = new int[n];
        prefixMask = new int[n];
        for (Node h : hosts) {
            Ipv4Prefix p = h.address();
            prefixMask[h.index()] = Ipv4Prefix.mask(p.length());
            prefixAddress[h.index()] = p.address() & prefixMask[h.index()];
        }
        sinkNodes = sinks.stream().mapToInt(Node::index).toArray();
        sourceNodes = new int[sources.size()];
        sinksFor = new int[sources.size()][];
        for (int i = 0; i < sources.size(); i++) {
            Node s = sources.get(i);
            sourceNodes[i] = s.index();
            List<Integer> others = new ArrayList<>();
            for (Node k : sinks) {
                if (k.index() != s.index()) {
                    others.add(k.index());
                }
            }
            if (others.isEmpty()) {
                throw new UserError(t.source() + ": source host " + s.name() + " has no sink host other than itself");
            }
            sinksFor[i] = others.stream().mapToInt(Integer::intValue).toArray();
        }
        sinkCoverMask = coverMask(sinkNodes);
        sinkCoverAddress = prefixAddress[sinkNodes[0]] & sinkCoverMask;
        sourceCoverMask = coverMask(sourceNodes);
        sourceCoverAddress = prefixAddress[sourceNodes[0]] & sourceCoverMask;
        sourceAddresses = hostAddresses(sourceNodes);
        sinkAddresses = hostAddresses(sinkNodes);
    }

    /** {@code nodes}' addresses → positions, or null unless every prefix is a /32 and no two are the same. */
    private AddressTable hostAddresses(int[] nodes) {
        int[] addresses = new int[nodes.length];
        int[] positions = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            if (prefixMask[nodes[i]] != -1) {
                return null;
            }
            addresses[i] = prefixAddress[nodes[i]];
            positions[i] = i;
        }
        int[] sorted = addresses.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                return null;
            }
        }
        return new AddressTable(addresses, positions);
    }

    /** Mask of the longest prefix that holds the prefixes of all {@code nodes}. */
    private int coverMask(int[] nodes) {
        int mask = -1;
        int differ = 0;
        for (int n : nodes) {
            mask &= prefixMask[n];
            differ |= prefixAddress[n] ^ prefixAddress[nodes[0]];
        }
        if (differ != 0) {
            mask &= ~((Integer.highestOneBit(differ) << 1) - 1); // bits from the highest differing one down
        }
        return mask;
    }

    private static int lowBits(PacketRecord r, boolean src) {
        if (r.ipVersion() == 6) {
            return (int) (src ? r.srcIpv6Lo() : r.dstIpv6Lo());
        }
        return src ? r.srcIpv4() : r.dstIpv4();
    }

    private static long addressKey(PacketRecord r, boolean src) {
        if (r.ipVersion() == 6) {
            return src ? r.srcIpv6Hi() * 31 + r.srcIpv6Lo() : r.dstIpv6Hi() * 31 + r.dstIpv6Lo();
        }
        return (src ? r.srcIpv4() : r.dstIpv4()) & 0xFFFFFFFFL;
    }

    private static int index(long key, int n) {
        return (int) Long.remainderUnsigned(FlowKey.mix(key), n);
    }

    /**
     * Chooses the hosts of {@code r}, rewrites its addresses in place and returns
     * the source host's node index; the destination is then {@code r.dstIpv4()}.
     */
    public int assign(PacketRecord r) {
        boolean v4 = r.ipVersion() == 4;
        int keptDst = v4 && inSinkCover(r.dstIpv4()) ? containing(sinkNodes, sinkAddresses, r.dstIpv4(), -1) : -1;
        int keptSi = v4 && inSourceCover(r.srcIpv4()) ? containingIndex(sourceNodes, sourceAddresses, r.srcIpv4(), keptDst) : -1;
        int si = keptSi >= 0 ? keptSi : index(addressKey(r, true), sourceNodes.length);
        if (keptSi < 0 && sourceNodes[si] == keptDst) {
            if (sourceNodes.length > 1) {
                si = (si + 1) % sourceNodes.length;
            } else {
                keptDst = -1; // the only source cannot send to itself: the destination is hashed
            }
        }
        int src = sourceNodes[si];
        int dst = keptDst >= 0 ? keptDst : sinksFor[si][index(addressKey(r, false), sinksFor[si].length)];
        boolean keepSrc = keptSi >= 0 || v4 && inSinkCover(r.srcIpv4()) && containingIndex(sinkNodes, sinkAddresses, r.srcIpv4(), -1) >= 0
                || v4 && inSourceCover(r.srcIpv4()) && containingIndex(sourceNodes, sourceAddresses, r.srcIpv4(), -1) >= 0;
        int srcAddr = keepSrc ? r.srcIpv4() : prefixAddress[src] | (lowBits(r, true) & ~prefixMask[src]);
        int dstAddr = keptDst >= 0 ? r.dstIpv4() : prefixAddress[dst] | (lowBits(r, false) & ~prefixMask[dst]);
        r.ipVersion(4);
        r.srcIpv4(srcAddr);
        r.dstIpv4(dstAddr);
        return src;
    }

    private boolean inSinkCover(int addr) {
        return (addr & sinkCoverMask) == sinkCoverAddress;
    }

    private boolean inSourceCover(int addr) {
        return (addr & sourceCoverMask) == sourceCoverAddress;
    }

    /** The node among {@code nodes} whose prefix holds {@code addr}, the longest prefix first; -1 if none. */
    private int containing(int[] nodes, AddressTable exact, int addr, int except) {
        int i = containingIndex(nodes, exact, addr, except);
        return i < 0 ? -1 : nodes[i];
    }

    /**
     * Position in {@code nodes} of the node other than {@code except} whose prefix holds {@code addr}
     * (the longest such prefix, the first on a tie), or -1. With {@code exact} (every prefix a distinct
     * /32) the node with that address is the only candidate.
     */
    private int containingIndex(int[] nodes, AddressTable exact, int addr, int except) {
        if (exact != null) {
            int i = exact.get(addr);
            return i >= 0 && nodes[i] != except ? i : -1;
        }
        int best = -1;
        for (int i = 0; i < nodes.length; i++) {
            int n = nodes[i];
            if (n != except && (addr & prefixMask[n]) == prefixAddress[n]
                    && (best < 0 || Integer.bitCount(prefixMask[n]) > Integer.bitCount(prefixMask[nodes[best]]))) {
                best = i;
            }
        }
        return best;
    }

    /** Node indices of the source hosts, in node order. */
    public int[] sources() {
        return sourceNodes.clone();
    }
}

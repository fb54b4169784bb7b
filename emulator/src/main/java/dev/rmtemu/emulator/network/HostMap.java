package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.FlowKey;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * Puts a trace's packets onto the topology's hosts, deterministically and
 * without allocating:
 * <ul>
 *   <li>source host = sources[h(src address) mod #sources], sources being the
 *       hosts with role source or both, in node order;</li>
 *   <li>destination host = the sinks other than that source (hosts with role
 *       sink or both, node order) indexed by h(dst address) mod their count;</li>
 *   <li>the record is rewritten to IPv4 (an IPv6 packet becomes IPv4): source
 *       address = the source host's prefix with the original address's host
 *       bits (low 32 bits for IPv6) below the prefix, destination likewise.
 *       With /32 host prefixes that is the host's address.</li>
 * </ul>
 * h is the SplitMix64 finaliser, so every packet of a flow (same addresses)
 * takes the same pair of hosts, and the mapping depends on the trace only.
 */
public final class HostMap {
    private final int[] sourceNodes;
    private final int[][] sinksFor;
    private final int[] prefixAddress;
    private final int[] prefixMask;

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
        int si = index(addressKey(r, true), sourceNodes.length);
        int[] sinks = sinksFor[si];
        int src = sourceNodes[si];
        int dst = sinks[index(addressKey(r, false), sinks.length)];
        int srcAddr = prefixAddress[src] | (lowBits(r, true) & ~prefixMask[src]);
        int dstAddr = prefixAddress[dst] | (lowBits(r, false) & ~prefixMask[dst]);
        r.ipVersion(4);
        r.srcIpv4(srcAddr);
        r.dstIpv4(dstAddr);
        return src;
    }

    /** Node indices of the source hosts, in node order. */
    public int[] sources() {
        return sourceNodes.clone();
    }
}

package dev.rmtemu.emulator.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * An immutable, validated network: nodes (programmable switches, regular
 * switches, hosts) and links between their ports. Built only by
 * {@link TopologyBuilder} (directly, from a file by {@link TopologyFile}, or by
 * {@link BuiltinTopologies}), so every instance has passed validation.
 * Equality compares nodes and links, not the source name.
 */
public final class Topology {
    private final String source;
    private final List<Node> nodes;
    private final List<Link> links;
    private final TreeMap<String, Integer> byName = new TreeMap<>();
    /** portBase[n] + port - 1 indexes portLink; the entry is a link id or -1. */
    private final int[] portBase;
    private final int[] portLink;

    Topology(String source, List<Node> nodes, List<Link> links) {
        this.source = source;
        this.nodes = List.copyOf(nodes);
        this.links = List.copyOf(links);
        portBase = new int[this.nodes.size()];
        int total = 0;
        for (Node n : this.nodes) {
            portBase[n.index()] = total;
            total += n.ports();
            byName.put(n.name(), n.index());
        }
        portLink = new int[total];
        Arrays.fill(portLink, -1);
        for (Link l : this.links) {
            portLink[portBase[l.a().node()] + l.a().port() - 1] = l.id();
            portLink[portBase[l.b().node()] + l.b().port() - 1] = l.id();
        }
    }

    /** Where the topology came from: a file path or a {@code builtin:...} spec (for messages). */
    public String source() {
        return source;
    }

    public List<Node> nodes() {
        return nodes;
    }

    public List<Link> links() {
        return links;
    }

    public Node node(int index) {
        return nodes.get(index);
    }

    public Link link(int id) {
        return links.get(id);
    }

    /** The node with this name, or null. */
    public Node node(String name) {
        Integer i = byName.get(name);
        return i == null ? null : nodes.get(i);
    }

    /** Index of the node with this name, or -1. */
    public int nodeIndex(String name) {
        Integer i = byName.get(name);
        return i == null ? -1 : i;
    }

    /** The link attached to {@code node:port}, or -1 if the port is unused or out of range. */
    public int linkAt(int node, int port) {
        if (port < 1 || port > nodes.get(node).ports()) {
            return -1;
        }
        return portLink[portBase[node] + port - 1];
    }

    /** The far end of the link at {@code node:port}, or null if the port is unused. */
    public Endpoint peer(int node, int port) {
        int l = linkAt(node, port);
        return l < 0 ? null : links.get(l).opposite(node, port);
    }

    /**
     * The endpoint a packet sent out of {@code node:port} arrives at, or null if
     * the port is unused or its link is unidirectional the other way.
     */
    public Endpoint sendsTo(int node, int port) {
        int l = linkAt(node, port);
        if (l < 0 || !links.get(l).carriesFrom(node, port)) {
            return null;
        }
        return links.get(l).opposite(node, port);
    }

    /** Hosts in node order. */
    public List<Node> hosts() {
        return ofKind(NodeKind.HOST, null);
    }

    /** Programmable and regular switches in node order. */
    public List<Node> switches() {
        return ofKind(NodeKind.PROGRAMMABLE_SWITCH, NodeKind.REGULAR_SWITCH);
    }

    /** Programmable switches in node order. */
    public List<Node> programmableSwitches() {
        return ofKind(NodeKind.PROGRAMMABLE_SWITCH, null);
    }

    private List<Node> ofKind(NodeKind k1, NodeKind k2) {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.kind() == k1 || n.kind() == k2) {
                out.add(n);
            }
        }
        return List.copyOf(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Topology t && nodes.equals(t.nodes) && links.equals(t.links);
    }

    @Override
    public int hashCode() {
        return 31 * nodes.hashCode() + links.hashCode();
    }

    @Override
    public String toString() {
        return "Topology(" + source + ": " + nodes.size() + " nodes, " + links.size() + " links)";
    }
}

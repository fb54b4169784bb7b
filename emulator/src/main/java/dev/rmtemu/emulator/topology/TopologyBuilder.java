package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds a {@link Topology}, validating as it goes. Every error is a
 * {@link UserError} with one line: {@code SOURCE: ELEMENT: what is wrong}, where
 * ELEMENT is {@code nodes[i]} or {@code links[i]} (0-based positions in the
 * file's lists, which are also node indices and link ids). Nodes must be added
 * before the links that use them.
 */
public final class TopologyBuilder {
    /** Node names: no ':' (endpoint syntax) and no spaces, so names print unambiguously. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");
    /** Impairment keys and program parameter names: identifiers. */
    static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_\\-]*");
    /**
     * Upper bound on ports per node: Tofino 2 has 4 pipes × 16 × 400G MACs
     * channelised to at most 256 front-panel ports; 1024 leaves room for
     * abstract targets while catching typos like 80000.
     */
    public static final int MAX_PORTS_PER_NODE = 1024;

    private final String source;
    private final List<Node> nodes = new ArrayList<>();
    private final List<Link> links = new ArrayList<>();
    // Lookup only, never iterated.
    private final Map<String, Integer> byName = new HashMap<>();
    private final Map<String, Integer> portUser = new HashMap<>();
    private final Map<Ipv4Prefix, Integer> addressOwner = new HashMap<>();

    /** @param source file path or built-in spec, prefixed to every error message */
    public TopologyBuilder(String source) {
        this.source = source;
    }

    public String source() {
        return source;
    }

    /** A user error about {@code element} of this source. */
    public UserError error(String element, String message) {
        return new UserError(source + ": " + element + ": " + message);
    }

    /** Adds a programmable switch and returns its node index. */
    public int programmableSwitch(String name, String target, int ports, String program, KeyValues params) {
        String where = "nodes[" + nodes.size() + "]";
        if (target == null || !NAME.matcher(target).matches()) {
            throw error(where, "bad target profile name '" + target + "'");
        }
        if (program != null && !NAME.matcher(program).matches()) {
            throw error(where, "bad program name '" + program + "'");
        }
        checkKeys(where, "params", params);
        return addNode(where, name, NodeKind.PROGRAMMABLE_SWITCH, ports, target, program,
                params == null ? KeyValues.EMPTY : params, null, null);
    }

    /** Adds a non-programmable switch (forwards by routing only) and returns its node index. */
    public int regularSwitch(String name, int ports) {
        String where = "nodes[" + nodes.size() + "]";
        return addNode(where, name, NodeKind.REGULAR_SWITCH, ports, null, null, KeyValues.EMPTY, null, null);
    }

    /** Adds a host with one port ({@link Node#HOST_PORT}) and returns its node index. */
    public int host(String name, Ipv4Prefix address, HostRole role) {
        String where = "nodes[" + nodes.size() + "]";
        if (address == null) {
            throw error(where, "host has no address");
        }
        Integer owner = addressOwner.get(address);
        if (owner != null) {
            throw error(where, "address " + address + " of " + name + " already owned by host " + nodes.get(owner).name());
        }
        int index = addNode(where, name, NodeKind.HOST, 1, null, null, KeyValues.EMPTY, address,
                role == null ? HostRole.BOTH : role);
        addressOwner.put(address, index);
        return index;
    }

    private int addNode(String where, String name, NodeKind kind, int ports, String target, String program,
                        KeyValues params, Ipv4Prefix address, HostRole role) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw error(where, "bad node name '" + name + "' (use letters, digits, '_', '-', '.')");
        }
        Integer prior = byName.get(name);
        if (prior != null) {
            throw error(where, "duplicate node name '" + name + "' (also nodes[" + prior + "])");
        }
        if (ports < 1 || ports > MAX_PORTS_PER_NODE) {
            throw error(where, "ports " + ports + " of " + name + " not in 1.." + MAX_PORTS_PER_NODE);
        }
        int index = nodes.size();
        nodes.add(new Node(index, name, kind, ports, target, program, params, address, role));
        byName.put(name, index);
        return index;
    }

    /**
     * Adds a link and returns its id.
     *
     * @param impairAtoB impairments a→b (may be null or empty)
     * @param impairBtoA impairments b→a (must be empty for a unidirectional link)
     */
    public int link(String aNode, int aPort, String bNode, int bPort, boolean bidirectional,
                    long latencyNs, double rateGbps, KeyValues impairAtoB, KeyValues impairBtoA) {
        int id = links.size();
        String where = "links[" + id + "]";
        Endpoint a = endpoint(where, aNode, aPort);
        Endpoint b = endpoint(where, bNode, bPort);
        if (a.node() == b.node()) {
            throw error(where, "link connects " + a.name() + " to itself");
        }
        if (nodes.get(a.node()).isHost() && nodes.get(b.node()).isHost()) {
            throw error(where, "links host " + a.name() + " to host " + b.name() + " (hosts attach to switches)");
        }
        if (latencyNs < 0) {
            throw error(where, "latency_ns " + latencyNs + " is negative");
        }
        if (!(rateGbps > 0) || Double.isInfinite(rateGbps)) {
            throw error(where, "rate_gbps " + rateGbps + " must be a positive finite number");
        }
        KeyValues ab = impairAtoB == null ? KeyValues.EMPTY : impairAtoB;
        KeyValues ba = impairBtoA == null ? KeyValues.EMPTY : impairBtoA;
        if (!bidirectional && !ba.isEmpty()) {
            throw error(where, "unidirectional link " + a + " -> " + b + " has impairments for " + b + " -> " + a);
        }
        checkImpairments(where, ab);
        checkImpairments(where, ba);
        for (Endpoint e : new Endpoint[] {a, b}) {
            Integer used = portUser.get(e.toString());
            if (used != null) {
                throw error(where, "port " + e + " already used by links[" + used + "]");
            }
            portUser.put(e.toString(), id);
        }
        links.add(new Link(id, a, b, bidirectional, latencyNs, rateGbps, ab, ba));
        return id;
    }

    private Endpoint endpoint(String where, String name, int port) {
        Integer n = byName.get(name);
        if (n == null) {
            throw error(where, "unknown node '" + name + "' in endpoint " + name + ":" + port);
        }
        Node node = nodes.get(n);
        if (port < 1 || port > node.ports()) {
            throw error(where, "port " + name + ":" + port + " out of range (" + name + " has "
                    + node.ports() + (node.ports() == 1 ? " port)" : " ports)"));
        }
        return new Endpoint(n, name, port);
    }

    private void checkKeys(String where, String what, KeyValues kv) {
        if (kv == null) {
            return;
        }
        for (KeyValues.Entry e : kv.entries()) {
            if (!KEY.matcher(e.key()).matches()) {
                throw error(where, "bad " + what + " key '" + e.key() + "'");
            }
            if (e.value().isBlank() || e.value().indexOf('\n') >= 0 || e.value().indexOf('\r') >= 0) {
                throw error(where, what + " '" + e.key() + "' needs a one-line, non-empty value");
            }
        }
    }

    private void checkImpairments(String where, KeyValues kv) {
        checkKeys(where, "impairment", kv);
    }

    /** Validates connectivity and returns the immutable topology. */
    public Topology build() {
        int n = nodes.size();
        List<List<Integer>> adj = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (Link l : links) {
            adj.get(l.a().node()).add(l.b().node());
            adj.get(l.b().node()).add(l.a().node());
        }
        int firstHost = -1;
        for (Node node : nodes) {
            if (node.isHost() && adj.get(node.index()).isEmpty()) {
                throw error("nodes[" + node.index() + "]", "host " + node.name() + " is not connected to any link");
            }
            if (node.isHost() && firstHost < 0) {
                firstHost = node.index();
            }
        }
        if (firstHost >= 0) {
            // Undirected reachability from the first host; every host must be in its component.
            boolean[] seen = new boolean[n];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            seen[firstHost] = true;
            queue.add(firstHost);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                if (nodes.get(u).isHost() && u != firstHost) {
                    continue; // hosts do not forward
                }
                for (int v : adj.get(u)) {
                    if (!seen[v]) {
                        seen[v] = true;
                        queue.add(v);
                    }
                }
            }
            for (Node node : nodes) {
                if (node.isHost() && !seen[node.index()]) {
                    throw error("nodes[" + node.index() + "]", "host " + node.name() + " cannot reach host "
                            + nodes.get(firstHost).name() + " (the topology is disconnected)");
                }
            }
        }
        return new Topology(source, nodes, links);
    }
}

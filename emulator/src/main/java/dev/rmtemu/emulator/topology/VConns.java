package dev.rmtemu.emulator.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * WBMon's static views of a topology: virtual connections between
 * programmable switches, and neighbourhoods of regular switches.
 */
public final class VConns {
    private VConns() {
    }

    /** {@link #vconns(Routing)} with freshly computed routing. */
    public static List<VConn> vconns(Topology t) {
        return vconns(Routing.of(t));
    }

    /**
     * Every vconn the routing can produce for some flow hash, distinct by link
     * sequence, sorted by (from, to, link ids lexicographically). A programmable
     * switch P starts a vconn towards destination d only if traffic from some
     * source host ({@link HostRole#sends()}) to a sink host d
     * ({@link HostRole#receives()}) can pass P; from P every member of its ECMP
     * group for d is followed, and at each regular switch every member of that
     * switch's group, until a programmable switch ends the vconn (a host ends
     * the walk with no vconn).
     */
    public static List<VConn> vconns(Routing r) {
        Topology t = r.topology();
        int n = t.nodes().size();
        List<Node> regular = new ArrayList<>();
        for (Node node : t.nodes()) {
            if (node.isRegular()) {
                regular.add(node);
            }
        }
        // Destinations whose groups agree at every regular switch give the same walks from
        // a given (P, port); walk once per such class (hosts under one edge switch, typically).
        Map<String, Integer> classOf = new HashMap<>(); // lookup only
        List<Integer> representative = new ArrayList<>();
        List<TreeSet<Long>> starts = new ArrayList<>(); // (P << 32 | port), sorted
        int[] column = new int[regular.size()];
        for (int d = 0; d < r.destinationCount(); d++) {
            int dstHost = r.destinationHost(d);
            if (!t.node(dstHost).role().receives()) {
                continue;
            }
            for (int i = 0; i < column.length; i++) {
                column[i] = r.groupId(regular.get(i).index(), d);
            }
            String key = Arrays.toString(column);
            Integer c = classOf.get(key);
            if (c == null) {
                c = representative.size();
                classOf.put(key, c);
                representative.add(d);
                starts.add(new TreeSet<>());
            }
            boolean[] used = reachedBySources(r, d, dstHost, n);
            for (Node p : t.nodes()) {
                if (p.isProgrammable() && used[p.index()]) {
                    int size = r.groupSize(p.index(), d);
                    for (int i = 0; i < size; i++) {
                        starts.get(c).add(((long) p.index() << 32) | r.groupPort(p.index(), d, i));
                    }
                }
            }
        }
        TreeSet<VConn> found = new TreeSet<>(ORDER);
        for (int c = 0; c < representative.size(); c++) {
            for (long s : starts.get(c)) {
                int p = (int) (s >>> 32);
                List<Integer> nodes = new ArrayList<>();
                nodes.add(p);
                walk(r, t, representative.get(c), p, (int) s, nodes, new ArrayList<>(), found);
            }
        }
        return List.copyOf(found);
    }

    /**
     * The vconns a flow's path crosses, in path order: each stretch from one
     * programmable switch to the next whose switches in between are all
     * regular. Stretches from or to a host are not vconns.
     */
    public static List<VConn> segments(Topology t, FlowPath path) {
        List<VConn> out = new ArrayList<>();
        List<Hop> hops = path.hops();
        int start = -1;
        for (int i = 0; i < hops.size(); i++) {
            Node n = t.node(hops.get(i).node());
            if (n.isProgrammable()) {
                if (start >= 0) {
                    List<Integer> nodes = new ArrayList<>();
                    List<Integer> links = new ArrayList<>();
                    for (int j = start; j <= i; j++) {
                        nodes.add(hops.get(j).node());
                        if (j < i) {
                            links.add(hops.get(j).linkOut());
                        }
                    }
                    out.add(new VConn(hops.get(start).node(), n.index(), hops.get(start).outPort(),
                            hops.get(i).inPort(), nodes, links));
                }
                start = i;
            } else if (n.isHost()) {
                start = -1;
            }
        }
        return List.copyOf(out);
    }

    /** Nodes some source host's traffic to destination d can visit (following every ECMP member). */
    private static boolean[] reachedBySources(Routing r, int d, int dstHost, int n) {
        Topology t = r.topology();
        boolean[] seen = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (Node h : t.hosts()) {
            if (h.index() != dstHost && h.role().sends() && r.groupSize(h.index(), d) > 0) {
                seen[h.index()] = true;
                queue.add(h.index());
            }
        }
        while (!queue.isEmpty()) {
            int u = queue.poll();
            int size = r.groupSize(u, d);
            for (int i = 0; i < size; i++) {
                int v = t.sendsTo(u, r.groupPort(u, d, i)).node();
                if (!seen[v]) {
                    seen[v] = true;
                    queue.add(v);
                }
            }
        }
        return seen;
    }

    private static void walk(Routing r, Topology t, int d, int at, int outPort, List<Integer> nodes,
                             List<Integer> links, TreeSet<VConn> found) {
        Endpoint next = t.sendsTo(at, outPort);
        links.add(t.linkAt(at, outPort));
        Node m = t.node(next.node());
        nodes.add(m.index());
        if (m.isProgrammable()) {
            VConn v = new VConn(nodes.get(0), m.index(), firstPort(t, nodes, links), next.port(), nodes, links);
            found.add(v);
        } else if (m.isRegular()) {
            int size = r.groupSize(m.index(), d);
            for (int i = 0; i < size; i++) {
                walk(r, t, d, m.index(), r.groupPort(m.index(), d, i), new ArrayList<>(nodes), new ArrayList<>(links), found);
            }
        }
    }

    private static int firstPort(Topology t, List<Integer> nodes, List<Integer> links) {
        Link l = t.link(links.get(0));
        return l.a().node() == nodes.get(0) ? l.a().port() : l.b().port();
    }

    /** Order of vconns: from, to, then link ids lexicographically (a prefix sorts first). */
    static final Comparator<VConn> ORDER = (x, y) -> {
        int c = Integer.compare(x.from(), y.from());
        if (c == 0) {
            c = Integer.compare(x.to(), y.to());
        }
        for (int i = 0; c == 0 && i < Math.min(x.links().size(), y.links().size()); i++) {
            c = Integer.compare(x.links().get(i), y.links().get(i));
        }
        return c != 0 ? c : Integer.compare(x.links().size(), y.links().size());
    };

    /** Connected components of regular switches (links in either direction count), ordered by lowest member. */
    public static List<Neighborhood> neighborhoods(Topology t) {
        int n = t.nodes().size();
        int[] comp = new int[n];
        Arrays.fill(comp, -1);
        List<Neighborhood> out = new ArrayList<>();
        for (Node start : t.nodes()) {
            if (!start.isRegular() || comp[start.index()] >= 0) {
                continue;
            }
            int id = out.size();
            TreeSet<Integer> switches = new TreeSet<>();
            TreeSet<Integer> programmable = new TreeSet<>();
            TreeSet<Integer> hosts = new TreeSet<>();
            TreeSet<Integer> links = new TreeSet<>();
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            comp[start.index()] = id;
            queue.add(start.index());
            while (!queue.isEmpty()) {
                int u = queue.poll();
                switches.add(u);
                Node node = t.node(u);
                for (int p = 1; p <= node.ports(); p++) {
                    Endpoint peer = t.peer(u, p);
                    if (peer == null) {
                        continue;
                    }
                    links.add(t.linkAt(u, p));
                    Node m = t.node(peer.node());
                    if (m.isRegular()) {
                        if (comp[m.index()] < 0) {
                            comp[m.index()] = id;
                            queue.add(m.index());
                        }
                    } else if (m.isProgrammable()) {
                        programmable.add(m.index());
                    } else {
                        hosts.add(m.index());
                    }
                }
            }
            out.add(new Neighborhood(id, new ArrayList<>(switches), new ArrayList<>(programmable),
                    new ArrayList<>(hosts), new ArrayList<>(links)));
        }
        return List.copyOf(out);
    }
}

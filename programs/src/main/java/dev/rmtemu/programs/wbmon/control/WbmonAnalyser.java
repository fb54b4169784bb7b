package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Neighborhood;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * WBMon's analyser: from the drop and packet counters of every vconn, which links
 * lose packets. Each neighbourhood (a connected component of regular switches) is
 * solved on its own with {@link NetBouncer}: its unknowns are the directed links its
 * vconns cross (loss is per direction), its observations the vconns' success rates.
 * A vconn that is one direct link between m-switches is a problem of its own. Links
 * with x below the threshold are blamed; since links crossed by exactly the same
 * vconns cannot be told apart, the analyser reports such indistinguishable sets and
 * blames a set when one of its links is blamed.
 */
public final class WbmonAnalyser {
    /**
     * @param blameBelow a directed link is blamed when its success probability is below this
     *                   (99.8 %, the thesis' threshold)
     */
    public record Params(double blameBelow, NetBouncer.Params solver) {
        public static final double DEFAULT_BLAME_BELOW = 0.998;
        public static final Params DEFAULTS = new Params(DEFAULT_BLAME_BELOW, NetBouncer.Params.DEFAULTS);
    }

    /** A link in one direction: {@code 2 × link id + direction} (0 = a→b). */
    public static int directed(int link, int direction) {
        return 2 * link + direction;
    }

    /**
     * Directed links crossed by exactly the same vconns.
     *
     * @param links      directed link ids, ascending
     * @param vconns     the vconn ids crossing them, ascending
     * @param minSuccess the least x among the links
     * @param blamed     some link's x is below the threshold
     */
    public record LinkSet(List<Integer> links, List<Integer> vconns, double minSuccess, boolean blamed) {
    }

    /**
     * @param success per directed link id, the inferred success probability (NaN: no vconn crosses it)
     * @param sets    the indistinguishable sets, ordered by their first link
     */
    public record Analysis(double[] success, List<LinkSet> sets) {
        public List<LinkSet> blamed() {
            List<LinkSet> out = new ArrayList<>();
            for (LinkSet s : sets) {
                if (s.blamed()) {
                    out.add(s);
                }
            }
            return out;
        }
    }

    private WbmonAnalyser() {
    }

    /** The directed links of a vconn, in path order. */
    public static int[] directedLinks(Topology t, VConn v) {
        int[] out = new int[v.links().size()];
        for (int k = 0; k < out.length; k++) {
            Link l = t.link(v.links().get(k));
            out[k] = directed(l.id(), l.a().node() == v.nodes().get(k) ? 0 : 1);
        }
        return out;
    }

    /**
     * @param counters per vconn id (positions in {@code vconns}): packets received and drops detected
     */
    public static Analysis analyse(Topology t, List<VConn> vconns, List<WbmonCollector.VconnCounters> counters, Params p) {
        if (counters.size() != vconns.size()) {
            throw new IllegalArgumentException(counters.size() + " counters for " + vconns.size() + " vconns");
        }
        int[] neighborhoodOf = new int[t.nodes().size()];
        Arrays.fill(neighborhoodOf, -1);
        List<Neighborhood> hoods = VConns.neighborhoods(t);
        for (Neighborhood h : hoods) {
            for (int s : h.switches()) {
                neighborhoodOf[s] = h.id();
            }
        }
        // group vconns: by neighbourhood, direct links alone (key: hood id, or -1 - first directed link)
        TreeMap<Integer, List<Integer>> groups = new TreeMap<>();
        for (int id = 0; id < vconns.size(); id++) {
            VConn v = vconns.get(id);
            int key = v.nodes().size() > 2 ? neighborhoodOf[v.nodes().get(1)] : -1 - directedLinks(t, v)[0];
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(id);
        }
        double[] success = new double[2 * t.links().size()];
        Arrays.fill(success, Double.NaN);
        for (List<Integer> group : groups.values()) {
            solveGroup(t, vconns, counters, group, p, success);
        }
        // indistinguishable sets: directed links with the same vconn list
        TreeMap<String, List<Integer>> byVconns = new TreeMap<>();
        TreeMap<String, List<Integer>> vconnLists = new TreeMap<>();
        List<List<Integer>> crossing = new ArrayList<>();
        for (int i = 0; i < success.length; i++) {
            crossing.add(new ArrayList<>());
        }
        for (int id = 0; id < vconns.size(); id++) {
            for (int d : directedLinks(t, vconns.get(id))) {
                crossing.get(d).add(id);
            }
        }
        for (int d = 0; d < success.length; d++) {
            if (crossing.get(d).isEmpty()) {
                continue;
            }
            String key = crossing.get(d).toString();
            byVconns.computeIfAbsent(key, k -> new ArrayList<>()).add(d);
            vconnLists.putIfAbsent(key, crossing.get(d));
        }
        List<LinkSet> sets = new ArrayList<>();
        for (String key : byVconns.keySet()) {
            List<Integer> links = byVconns.get(key);
            double min = 1.0;
            for (int d : links) {
                min = Math.min(min, success[d]);
            }
            sets.add(new LinkSet(List.copyOf(links), List.copyOf(vconnLists.get(key)), min, min < p.blameBelow()));
        }
        sets.sort((a, b) -> Integer.compare(a.links().get(0), b.links().get(0)));
        return new Analysis(success, List.copyOf(sets));
    }

    private static void solveGroup(Topology t, List<VConn> vconns, List<WbmonCollector.VconnCounters> counters,
                                   List<Integer> group, Params p, double[] success) {
        TreeMap<Integer, Integer> local = new TreeMap<>();
        int[][] paths = new int[group.size()][];
        double[] y = new double[group.size()];
        double[] w = new double[group.size()];
        for (int j = 0; j < group.size(); j++) {
            int id = group.get(j);
            int[] dl = directedLinks(t, vconns.get(id));
            paths[j] = new int[dl.length];
            for (int k = 0; k < dl.length; k++) {
                Integer idx = local.get(dl[k]);
                if (idx == null) {
                    idx = local.size();
                    local.put(dl[k], idx);
                }
                paths[j][k] = idx;
            }
            WbmonCollector.VconnCounters c = counters.get(id);
            y[j] = c.successRate();
            w[j] = c.sent();
        }
        NetBouncer.Result r = NetBouncer.solve(local.size(), paths, y, w, p.solver());
        for (var e : local.entrySet()) {
            success[e.getKey()] = r.x()[e.getValue()];
        }
    }
}

package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.control.WbmonAnalyser;

import java.util.function.Consumer;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The thesis' Figure 7 set-up on Abilene (Section 5.2): m-switch placements and their
 * scores with the thesis' definitions. Random placements R(X) put X % of the 11 PoPs as
 * m-switches; the hand-made placements P1–P3 of its Figure 6 are not in the text (only
 * that P2 and P3 use 64 % and 73 % of the switches, 7 and 8, and aimed to leave the fewest
 * indistinguishable links with the fewest m-switches), so they are rebuilt here as the
 * placement of 6, 7 and 8 m-switches, searched exhaustively, that leaves the fewest directed
 * switch-to-switch links unidentifiable (crossed by no vconn, or by exactly the same vconns as
 * another link); ties go to the first placement in PoP order.
 */
public final class WbmonPlacement {
    /** m-switches of the rebuilt P1, P2, P3: P2 and P3 from the thesis' 64 % and 73 %; P1's size is not given (6 assumed). */
    public static final int[] HAND_MADE_SIZES = {6, 7, 8};

    private WbmonPlacement() {
    }

    /** The Abilene spec with the given PoPs programmable. */
    public static String abilene(List<String> pops) {
        return "builtin:abilene?hosts=1&programmable=" + String.join(",", new TreeSet<>(pops));
    }

    /** The 11 PoP names in node order. */
    public static List<String> pops() {
        List<String> out = new ArrayList<>();
        for (Node n : TopologySpec.parse("builtin:abilene?hosts=1&programmable=all").switches()) {
            out.add(n.name());
        }
        return out;
    }

    /**
     * Directed switch-to-switch links of a placement that cannot be told apart: crossed by no
     * vconn, or crossed by exactly the same vconns as another link.
     */
    public static int unidentifiable(String spec) {
        Topology t = TopologySpec.parse(spec);
        List<VConn> vc = VConns.vconns(t);
        TreeMap<Integer, List<Integer>> crossedBy = new TreeMap<>();
        for (int v = 0; v < vc.size(); v++) {
            for (int d : WbmonAnalyser.directedLinks(t, vc.get(v))) {
                crossedBy.computeIfAbsent(d, k -> new ArrayList<>()).add(v);
            }
        }
        TreeMap<String, Integer> signatures = new TreeMap<>();
        int unseen = 0;
        for (Link l : t.links()) {
            if (t.node(l.a().node()).isHost() || t.node(l.b().node()).isHost()) {
                continue;
            }
            for (int dir = 0; dir < 2; dir++) {
                List<Integer> on = crossedBy.get(WbmonAnalyser.directed(l.id(), dir));
                if (on == null) {
                    unseen++;
                } else {
                    signatures.merge(on.toString(), 1, Integer::sum);
                }
            }
        }
        int shared = 0;
        for (int n : signatures.values()) {
            shared += n > 1 ? n : 0;
        }
        return unseen + shared;
    }

    /** Searched placements by size (the search visits every placement of that size: done once per process). */
    private static final TreeMap<Integer, String> BEST = new TreeMap<>();

    /** The placement of {@code k} m-switches with the fewest unidentifiable links (exhaustive search). */
    public static synchronized String best(int k) {
        return BEST.computeIfAbsent(k, WbmonPlacement::search);
    }

    private static String search(int k) {
        List<String> pops = pops();
        String[] bestSpec = {null};
        int[] bestScore = {Integer.MAX_VALUE};
        choose(pops, k, 0, new ArrayList<>(), spec -> {
            int s = unidentifiable(spec);
            if (s < bestScore[0]) {
                bestScore[0] = s;
                bestSpec[0] = spec;
            }
        });
        return bestSpec[0];
    }

    private static void choose(List<String> pops, int k, int from, List<String> chosen, Consumer<String> f) {
        if (chosen.size() == k) {
            f.accept(abilene(chosen));
            return;
        }
        for (int i = from; i <= pops.size() - (k - chosen.size()); i++) {
            chosen.add(pops.get(i));
            choose(pops, k, i + 1, chosen, f);
            chosen.remove(chosen.size() - 1);
        }
    }

    /**
     * The thesis' scores of one localisation (Section 5.2.1): F the faulty links, B the blamed
     * links (those below the threshold and every link indistinguishable from one), recall
     * #TP / #F and precision #TP / #B; precision is NaN when nothing is blamed.
     */
    public record Score(double recall, double precision) {
        public static Score of(WbmonLocalisation.Outcome x) {
            double recall = x.faulty() == 0 ? 1 : (double) x.found() / x.faulty();
            double precision = x.blamedLinks() == 0 ? Double.NaN : (double) x.found() / x.blamedLinks();
            return new Score(recall, precision);
        }
    }
}

package dev.rmtemu.programs.wbmon.experiment;

import dev.rmtemu.programs.wbmon.control.WbmonAnalyser;
import dev.rmtemu.programs.wbmon.control.WbmonCollector;
import dev.rmtemu.programs.wbmon.control.WbmonControlPlane;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.reference.SequenceNumbering;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.traces.gen.SplitMix64;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * (e) Link localisation: m-switches placed on a topology, a few directed links made
 * lossy, every vconn carries traffic through the reference window (per-link Bernoulli
 * loss along its path, in order), the analyser blames indistinguishable link sets,
 * and the blame is scored against the lossy links.
 *
 * <p>Each vconn (each path the routing can take between two m-switches) gets its own
 * traffic through the window, the thesis' vconn-per-path model of drop reports, fast
 * enough for Figure 7's thousands of runs (the packet-level engine numbers ECMP vconns
 * too, from flow entries: {@link WbmonControlPlane#withFlows}).
 */
public final class WbmonLocalisation {
    /** One scenario's setup. */
    public record Setup(String topologySpec, int faults, double faultLoss, int packetsPerVconn) {
    }

    /**
     * @param vconns       vconns of the placement
     * @param observable   directed links some vconn crosses
     * @param faulty       lossy directed links
     * @param found        lossy links inside a blamed set
     * @param blamedSets   blamed sets
     * @param trueSets     blamed sets containing a lossy link
     * @param blamedLinks  directed links in blamed sets
     */
    public record Outcome(int vconns, int observable, int faulty, int found, int blamedSets, int trueSets, int blamedLinks) {
    }

    private WbmonLocalisation() {
    }

    /** The Abilene spec with a random {@code fraction} of the 11 PoPs programmable (at least 2). */
    public static String abilenePlacement(double fraction, long seed) {
        Topology all = TopologySpec.parse("builtin:abilene?hosts=1&programmable=all");
        List<String> pops = new ArrayList<>();
        for (Node n : all.switches()) {
            pops.add(n.name());
        }
        int m = Math.max(2, (int) Math.round(fraction * pops.size()));
        SplitMix64 rnd = new SplitMix64(seed);
        for (int i = pops.size() - 1; i > 0; i--) { // Fisher-Yates
            int j = rnd.nextInt(i + 1);
            String x = pops.get(i);
            pops.set(i, pops.get(j));
            pops.set(j, x);
        }
        TreeSet<String> chosen = new TreeSet<>(pops.subList(0, m));
        return "builtin:abilene?hosts=1&programmable=" + String.join(",", chosen);
    }

    public static Outcome run(Setup s, WbmonConfig c, WbmonAnalyser.Params p, long seed) {
        Topology t = TopologySpec.parse(s.topologySpec());
        List<VConn> vc = VConns.vconns(t);
        int[][] paths = new int[vc.size()][];
        TreeSet<Integer> observable = new TreeSet<>();
        for (int i = 0; i < vc.size(); i++) {
            paths[i] = WbmonAnalyser.directedLinks(t, vc.get(i));
            for (int d : paths[i]) {
                observable.add(d);
            }
        }
        List<Integer> candidates = new ArrayList<>(observable);
        SplitMix64 rnd = new SplitMix64(SplitMix64.derive(seed, 1));
        TreeSet<Integer> faulty = new TreeSet<>();
        while (faulty.size() < Math.min(s.faults(), candidates.size())) {
            faulty.add(candidates.get(rnd.nextInt(candidates.size())));
        }
        double[] loss = new double[2 * t.links().size()];
        for (int d : faulty) {
            loss[d] = s.faultLoss();
        }
        WindowMonitor m = new WindowMonitor(c.withVconns(Math.max(1, vc.size())));
        SplitMix64 traffic = new SplitMix64(SplitMix64.derive(seed, 2));
        SequenceNumbering upstream = new SequenceNumbering(Math.max(1, vc.size()));
        for (int v = 0; v < vc.size(); v++) {
            for (int i = 0; i < s.packetsPerVconn(); i++) {
                long sn = upstream.stamp(v);
                boolean delivered = true;
                for (int d : paths[v]) {
                    if (loss[d] > 0 && traffic.nextDouble() < loss[d]) {
                        delivered = false;
                        break;
                    }
                }
                if (delivered) {
                    m.receive(v, sn);
                }
            }
        }
        List<WbmonCollector.VconnCounters> counters = new ArrayList<>();
        for (int v = 0; v < vc.size(); v++) {
            counters.add(new WbmonCollector.VconnCounters(v, upstream.sent(v), m.packets(v), m.drops(v)));
        }
        WbmonAnalyser.Analysis a = WbmonAnalyser.analyse(t, vc, counters, p);
        int found = 0;
        for (int d : faulty) {
            for (WbmonAnalyser.LinkSet set : a.blamed()) {
                if (set.links().contains(d)) {
                    found++;
                    break;
                }
            }
        }
        int trueSets = 0;
        int blamedLinks = 0;
        for (WbmonAnalyser.LinkSet set : a.blamed()) {
            blamedLinks += set.links().size();
            for (int d : set.links()) {
                if (faulty.contains(d)) {
                    trueSets++;
                    break;
                }
            }
        }
        return new Outcome(vc.size(), observable.size(), faulty.size(), found, a.blamed().size(), trueSets, blamedLinks);
    }
}

package dev.rmtemu.programs.wbmon;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.results.NoteResults;
import dev.rmtemu.emulator.results.ProgramResults;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.replay.NetworkReplay;
import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * WBMon's results of {@code rmtemu replay}: per vconn, read from the m-switches'
 * registers after the run (every pipe), the packets its upstream numbered, the
 * packets and drops its downstream counted, and how far the downstream has judged
 * (sequence numbers below the slot to clean; later ones may still be counted).
 * Vconn ids are positions in {@link VConns#vconns}, as {@link WbmonControlPlane}
 * assigns them; the window parameters come from the switch's program. Then the analyser's
 * step: NetBouncer's link inference over the vconns' drop rates and the links it blames, beside
 * the losses the network counted on each link (its ground truth).
 */
public final class WbmonReport implements ProgramReport {
    @Override
    public String program() {
        return WbmonProgram.NAME;
    }

    /** What the registers say about one vconn. */
    public record Row(int vconn, String path, long numbered, long received, long drops, long judgedBelow) {
        /** Drops per judged sequence number, 0 before anything was judged. */
        public double dropRate() {
            return judgedBelow == 0 ? 0 : (double) drops / judgedBelow;
        }
    }

    /** The window configuration a switch's {@code wbmon} program was built with. */
    static WbmonConfig config(StageProgram p) {
        return new WbmonConfig(Integer.parseInt(p.params().get("vconns")), Integer.parseInt(p.params().get("registers")),
                Integer.parseInt(p.params().get("bits")), Integer.parseInt(p.params().get("tolerance")));
    }

    /** Every vconn of the network whose two ends run {@code wbmon} and whose id the program tracks. */
    public static List<Row> rows(NetworkEngine net) {
        Topology t = net.topology();
        List<VConn> vc = VConns.vconns(t);
        List<Row> out = new ArrayList<>();
        for (int id = 0; id < vc.size(); id++) {
            VConn v = vc.get(id);
            String up = t.node(v.from()).name();
            String down = t.node(v.to()).name();
            if (!runsWbmon(net, up) || !runsWbmon(net, down)) {
                continue;
            }
            SwitchEngine upEngine = net.switchEngine(up);
            SwitchEngine downEngine = net.switchEngine(down);
            WbmonConfig c = config(downEngine.state().program());
            if (id >= c.vconns() || id >= config(upEngine.state().program()).vconns()) {
                continue;
            }
            long judged = 0; // one pipe receives the vconn; the others never started it
            for (int p = 0; p < downEngine.state().pipes(); p++) {
                if (downEngine.state().readRegister(p, WbmonPipeline.STARTED, id) != 0) {
                    judged = (downEngine.state().readRegister(p, WbmonPipeline.TO_CLEAN, id)
                            - (long) c.tolerance() * c.bitsPerRegister()) & WbmonPipeline.SEQ_MASK;
                }
            }
            out.add(new Row(id, WbmonControlPlane.describe(t, v), WbmonDeployment.readAllPipes(upEngine, WbmonPipeline.NEXT_SEQ, id),
                    WbmonDeployment.readAllPipes(downEngine, WbmonPipeline.PACKETS, id),
                    WbmonDeployment.readAllPipes(downEngine, WbmonPipeline.DROPS, id), judged));
        }
        return out;
    }

    private static boolean runsWbmon(NetworkEngine net, String name) {
        for (int s = 0; s < net.switchCount(); s++) {
            if (net.switchNode(s).name().equals(name)) {
                return WbmonProgram.NAME.equals(net.switchProgram(s));
            }
        }
        return false;
    }

    /** One vconn of the results: its row, with the drop rate the analyser reads. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record VconnResult(int vconn, String path, long numbered, long received, long drops, long judged, double dropRate) {
        static VconnResult of(Row r) {
            return new VconnResult(r.vconn(), r.path(), r.numbered(), r.received(), r.drops(), r.judgedBelow(), r.dropRate());
        }
    }

    /**
     * One link on a judged vconn's path: NetBouncer's inferred success probability from the
     * vconns' drop rates, whether it is blamed (below {@code blame_below}), and the ground truth
     * the network counted on it (both directions: packets carried and lost).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LinkResult(int linkId, String link, double success, boolean blamed, long trueCarried, long trueLost) {
    }

    /** WBMon's results of a network replay: per vconn from the m-switches' registers, per link NetBouncer's inference. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(double blameBelow, List<VconnResult> vconns, List<LinkResult> links, List<String> blamed,
                          List<String> notes) implements ProgramResults {
        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "WBMon per vconn (registers of every pipe; judged = sequence numbers below the slot to clean)%n"));
            b.append(String.format(Locale.ROOT, "  %5s  %-32s %12s %12s %10s %12s %9s%n", "vconn", "path", "numbered", "received",
                    "drops", "judged", "drop %"));
            for (VconnResult r : vconns) {
                b.append(String.format(Locale.ROOT, "  %5d  %-32s %12d %12d %10d %12d %9.4f%n", r.vconn(), r.path(), r.numbered(),
                        r.received(), r.drops(), r.judged(), 100 * r.dropRate()));
            }
            for (String n : notes) {
                b.append("  ").append(n).append('\n');
            }
            if (!links.isEmpty()) {
                b.append(String.format(Locale.ROOT, "WBMon blamed links (NetBouncer on the judged vconns' drop rates; blamed below %s)%n",
                        blameBelow));
                int width = "link".length();
                for (LinkResult l : links) {
                    width = Math.max(width, l.link().length());
                }
                String row = "  %-" + width + "s %10s %7s %14s %12s%n";
                b.append(String.format(Locale.ROOT, row, "link", "success", "blamed", "true carried", "true lost"));
                for (LinkResult l : links) {
                    b.append(String.format(Locale.ROOT, row, l.link(), String.format(Locale.ROOT, "%.6f", l.success()),
                            l.blamed() ? "yes" : "no", l.trueCarried(), l.trueLost()));
                }
                b.append("  blamed: ").append(blamed.isEmpty() ? "none" : String.join(", ", blamed)).append('\n');
            }
            return b.toString();
        }
    }

    @Override
    public Results networkResults(NetworkReplay.Result result) {
        return results(result.network(), WbmonAnalyser.Params.DEFAULT_BLAME_BELOW);
    }

    /** The results of {@code net} after its run, blaming links whose inferred success is below {@code blameBelow}. */
    static Results results(NetworkEngine net, double blameBelow) {
        List<Row> rows = rows(net);
        List<VconnResult> vconns = new ArrayList<>();
        long numbered = 0;
        for (Row r : rows) {
            vconns.add(VconnResult.of(r));
            numbered += r.numbered();
        }
        List<String> notes = new ArrayList<>();
        if (rows.isEmpty()) {
            notes.add("no vconn between two m-switches running wbmon");
        } else if (numbered == 0) {
            notes.add("nothing numbered: the port tables are empty; write them with"
                    + " 'rmtemu experiment wbmon --opt control=FILE --opt topology=SPEC' and pass --control FILE");
        }
        List<LinkResult> links = new ArrayList<>();
        List<String> blamed = new ArrayList<>();
        blame(net, rows, blameBelow, links, blamed);
        return new Results(blameBelow, vconns, links, blamed, notes);
    }

    /**
     * NetBouncer over the vconns with judged sequence numbers: each is a path over its links with
     * success rate 1 - drops / judged, weighted by what was judged; links in topology id order.
     */
    private static void blame(NetworkEngine net, List<Row> rows, double blameBelow, List<LinkResult> links, List<String> blamed) {
        List<VConn> all = VConns.vconns(net.topology());
        java.util.TreeMap<Integer, Integer> index = new java.util.TreeMap<>();
        List<Row> judged = new ArrayList<>();
        for (Row r : rows) {
            if (r.judgedBelow() > 0) {
                judged.add(r);
                for (int l : all.get(r.vconn()).links()) {
                    index.put(l, 0);
                }
            }
        }
        if (judged.isEmpty()) {
            return;
        }
        List<Integer> ids = new ArrayList<>(index.keySet());
        for (int i = 0; i < ids.size(); i++) {
            index.put(ids.get(i), i);
        }
        int[][] paths = new int[judged.size()][];
        double[] y = new double[judged.size()];
        double[] weight = new double[judged.size()];
        for (int j = 0; j < judged.size(); j++) {
            List<Integer> path = all.get(judged.get(j).vconn()).links();
            paths[j] = new int[path.size()];
            for (int k = 0; k < path.size(); k++) {
                paths[j][k] = index.get(path.get(k));
            }
            y[j] = 1 - judged.get(j).dropRate();
            weight[j] = judged.get(j).judgedBelow();
        }
        double[] x = NetBouncer.solve(ids.size(), paths, y, weight, NetBouncer.Params.DEFAULTS).x();
        for (int i = 0; i < ids.size(); i++) {
            Link l = net.topology().links().get(ids.get(i));
            String name = l.a() + (l.bidirectional() ? "<->" : "->") + l.b();
            boolean bad = x[i] < blameBelow;
            links.add(new LinkResult(l.id(), name, x[i], bad, net.carried(l.id(), 0) + net.carried(l.id(), 1),
                    net.lost(l.id(), 0) + net.lost(l.id(), 1)));
            if (bad) {
                blamed.add(name);
            }
        }
    }

    /**
     * A single-switch replay has no vconn: no packet arrives with a WBMon header (there is no
     * upstream) and {@code wbmon} leaves forwarding to the network's routing, so there is nothing to report.
     */
    @Override
    public NoteResults results(ReplayResult result) {
        return new NoteResults("WBMon: a single switch has no vconns (no packet carries a WBMon header); replay a network with"
                + " --topology and the control script from 'rmtemu experiment wbmon --opt control=FILE --opt topology=SPEC'");
    }
}

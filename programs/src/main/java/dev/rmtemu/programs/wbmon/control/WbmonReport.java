package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.programs.wbmon.program.WbmonProgram;

import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.NoteResults;
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ReplayResult;
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
 * step ({@link WbmonAnalyser}): NetBouncer's inference over the vconns' loss rates, per set of
 * directed links it cannot tell apart, and the sets it blames, beside the losses the network
 * counted on those links (its ground truth).
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
        return WbmonConfig.of(p);
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
            out.add(new Row(id, WbmonControlPlane.describe(t, v), WbmonPipeline.readAllPipes(upEngine, WbmonPipeline.NEXT_SEQ, id),
                    WbmonPipeline.readAllPipes(downEngine, WbmonPipeline.PACKETS, id),
                    WbmonPipeline.readDrops(downEngine, c, id), judged));
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
     * A set of directed links crossed by exactly the same vconns (which WBMon cannot tell apart):
     * the least success probability NetBouncer inferred among them, whether the set is blamed
     * (below {@code blame_below}), and the ground truth the network counted on those directed
     * links: packets carried (that entered them) and lost, and the least true success rate among
     * them, (carried - lost) / carried, the truth {@code min_success} estimates (null when none
     * of them carried a packet).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LinkSetResult(List<String> links, List<Integer> vconns, double minSuccess, boolean blamed, long trueCarried,
                                long trueLost, Double trueMinSuccess) {
    }

    /** WBMon's results of a network replay: per vconn from the m-switches' registers, per link NetBouncer's inference. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(double blameBelow, List<VconnResult> vconns, List<LinkSetResult> linkSets, List<String> notes)
            implements ProgramResults {
        /** Each link set's least inferred success rate against its least true one, and the difference. */
        @Override
        public List<PlotSpec> plots() {
            return List.of(PlotSpec.estimateVsTruth("link_sets", "link sets: inferred least success rate against true",
                    "true_min_success", "least success rate of the set's links", PlotSpec.ErrorMeasure.DIFFERENCE,
                    "min_success").labelled("links"));
        }

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
            if (!linkSets.isEmpty()) {
                b.append(String.format(Locale.ROOT, "WBMon analyser (NetBouncer on the vconns' loss rates; directed links crossed by the"
                        + " same vconns are one set; blamed below %s)%n", blameBelow));
                b.append(String.format(Locale.ROOT, "  %-40s %-8s %11s %7s %14s %10s %12s%n", "directed links", "vconns", "min success",
                        "blamed", "true carried", "true lost", "true success"));
                for (LinkSetResult l : linkSets) {
                    b.append(String.format(Locale.ROOT, "  %-40s %-8s %11.6f %7s %14d %10d %12s%n", String.join(" ", l.links()),
                            l.vconns().stream().map(String::valueOf).collect(Collectors.joining(" ")),
                            l.minSuccess(), l.blamed() ? "yes" : "no", l.trueCarried(), l.trueLost(),
                            l.trueMinSuccess() == null ? "-" : String.format(Locale.ROOT, "%.6f", l.trueMinSuccess())));
                }
            }
            return b.toString();
        }
    }

    @Override
    public Results networkResults(ReplayResult result) {
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
        return new Results(blameBelow, vconns, analyse(net, rows, blameBelow), notes);
    }

    /**
     * {@link WbmonAnalyser} over the vconns the m-switches counted (sent = numbered by the
     * upstream, received and drops by the downstream), with each set's ground truth.
     */
    private static List<LinkSetResult> analyse(NetworkEngine net, List<Row> rows, double blameBelow) {
        Topology t = net.topology();
        List<VConn> all = VConns.vconns(t);
        List<VConn> counted = new ArrayList<>();
        List<WbmonCollector.VconnCounters> counters = new ArrayList<>();
        for (Row r : rows) {
            if (r.numbered() > 0) {
                counted.add(all.get(r.vconn()));
                counters.add(new WbmonCollector.VconnCounters(counters.size(), r.numbered(), r.received(), r.drops()));
            }
        }
        List<LinkSetResult> out = new ArrayList<>();
        if (counted.isEmpty()) {
            return out;
        }
        WbmonAnalyser.Analysis a = WbmonAnalyser.analyse(t, counted, counters,
                new WbmonAnalyser.Params(blameBelow, NetBouncer.Params.DEFAULTS));
        for (WbmonAnalyser.LinkSet set : a.sets()) {
            List<String> names = new ArrayList<>();
            long carried = 0;
            long lost = 0;
            Double trueMin = null;
            for (int d : set.links()) {
                Link l = t.link(d / 2);
                int dir = d % 2;
                names.add(dir == 0 ? l.a() + "->" + l.b() : l.b() + "->" + l.a());
                long c = net.carried(l.id(), dir);
                long x = net.lost(l.id(), dir);
                carried += c;
                lost += x;
                if (c > 0) {
                    trueMin = Math.min(trueMin == null ? 1.0 : trueMin, (double) (c - x) / c);
                }
            }
            List<Integer> ids = new ArrayList<>();
            for (int v : set.vconns()) {
                ids.add(rows.stream().filter(r -> r.numbered() > 0).toList().get(v).vconn());
            }
            out.add(new LinkSetResult(names, ids, set.minSuccess(), set.blamed(), carried, lost, trueMin));
        }
        return out;
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

package dev.rmtemu.programs.midst;

import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayOptions;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.replay.NetworkReplay;
import dev.rmtemu.model.target.TargetProfile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MIDST's section of {@code rmtemu replay}. First what the control plane
 * ({@link MidstControlPlane}) saw: monitoring epochs and cleanings, and the flows the
 * per-packet reports flagged as heavy losers (read from the run's export journal), each
 * beside its S_loss, its true arrivals (a second pass over the trace) and its true loss
 * (arrivals minus departures from the monitored port), with the precision of the flagged
 * set. Then the end-of-run S_loss query over the trace's IPv4 flows, the top heavy losers
 * and the top bursty flows (heavy hitters of S_in), and the drops the traffic manager
 * counted at the monitored port. With reactive monitoring the sketches hold only the
 * epoch since monitoring last started (earlier ones were cleaned); a {@code --control}
 * script holding {@code midst_monitor} on keeps everything since the start.
 */
public final class MidstReport implements ProgramReport {
    @Override
    public String program() {
        return MidstProgram.NAME;
    }

    /** A flow of the trace with its estimates and its true arrivals. */
    public record Row(MidstLossQuery.FlowKey flow, long loss, long arrivalsEstimate, long arrivals) {
    }

    /** The query's answer for every IPv4 flow among the first {@code packets} records of {@code trace}, in 5-tuple order. */
    public static List<Row> flows(MidstLossQuery q, String trace, long packets) {
        return flows(q, trace, packets, null, 1, 0);
    }

    /**
     * As {@link #flows(MidstLossQuery, String, long)}; with {@code elsewhere} non-null, also
     * counts into {@code elsewhere[0]} the packets arriving on a port ({@code ingressPort % ports})
     * outside {@code pipe}'s {@code portsPerPipe} ports (the replay's port mapping).
     */
    static List<Row> flows(MidstLossQuery q, String trace, long packets, long[] elsewhere, int ports, int pipe) {
        Map<MidstLossQuery.FlowKey, long[]> arrivals = new HashMap<>();
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
                if (elsewhere != null && (r.ingressPort() % ports) / elsewhere[1] != pipe) {
                    elsewhere[0]++;
                }
                if (r.ipVersion() == 4) {
                    arrivals.computeIfAbsent(new MidstLossQuery.FlowKey(r.srcIpv4(), r.dstIpv4(), r.protocol(), r.srcPort(),
                            r.dstPort()), k -> new long[1])[0]++;
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<MidstLossQuery.FlowKey, long[]> e : arrivals.entrySet()) {
            rows.add(new Row(e.getKey(), q.loss(e.getKey()), q.arrivals(e.getKey()), e.getValue()[0]));
        }
        rows.sort(TUPLE_ORDER); // hash-map order never reaches the output
        return rows;
    }

    static final Comparator<Row> TUPLE_ORDER = Comparator.<Row>comparingLong(r -> r.flow().src() & 0xFFFFFFFFL)
            .thenComparingLong(r -> r.flow().dst() & 0xFFFFFFFFL).thenComparingInt(r -> r.flow().proto())
            .thenComparingInt(r -> r.flow().srcPort()).thenComparingInt(r -> r.flow().dstPort());

    @Override
    public String summarize(ReplayResult result) {
        ReplayOptions o = result.options();
        ProgramParams p = new ProgramParams(MidstProgram.NAME, new MidstProgram().params(), o.params());
        MidstConfig cfg = MidstProgram.config(p);
        int top = p.intValue("top");
        MidstLossQuery q = MidstLossQuery.readAllPipes(result.engine(), cfg);
        SwitchConfig sc = result.engine().config();
        int pipe = sc.pipeOf(cfg.dataPort());
        long[] elsewhere = {0, sc.profile().portsPerPipe() == TargetProfile.UNLIMITED ? Integer.MAX_VALUE : sc.profile().portsPerPipe()};
        List<Row> rows = flows(q, o.trace(), result.packetsRead(), elsewhere, sc.frontPanelPorts(), pipe);
        long drops = 0;
        for (DropCause c : DropCause.values()) {
            drops += result.engine().trafficManager().droppedPackets(cfg.dataPort(), c);
        }
        StringBuilder b = new StringBuilder();
        Path journal = o.out() == null ? null : o.out().resolve("journal");
        if (journal == null || !Files.isDirectory(journal)) {
            b.append("MIDST per-packet reports: no export journal (run with --out DIR)\n");
        } else {
            monitoring(b, MidstJournal.read(journal), rows, cfg, top, pipe, elsewhere[0], result.packetsRead(), elsewhere[1]);
        }
        long lossSum = 0;
        long counted = 0;
        for (Row r : rows) {
            lossSum += r.loss();
            counted += r.arrivalsEstimate();
        }
        b.append(String.format(Locale.ROOT, "MIDST S_loss query at the end of the run (%d x %d counters per sketch, all pipes added):"
                + " port %d dropped %d packets; the trace's %d IPv4 flows: sum of S_loss %d%n", cfg.rows(), cfg.columns(),
                cfg.dataPort(), drops, rows.size(), lossSum));
        if (counted == 0) {
            b.append("  nothing was counted: monitoring was off at the end (never started, or cleaned after the last epoch);"
                    + " to count the whole run, hold it on with --control and a line 'register " + MidstPipeline.MONITOR
                    + " write 0 1' (pipe=N for other pipes)\n");
            return b.toString();
        }
        List<Row> byLoss = new ArrayList<>(rows);
        byLoss.sort(Comparator.comparingLong(Row::loss).reversed().thenComparing(TUPLE_ORDER));
        table(b, "heavy losers (S_loss = min_i(S_in - S_out))", byLoss, top, true);
        List<Row> byIn = new ArrayList<>(rows);
        byIn.sort(Comparator.comparingLong(Row::arrivalsEstimate).reversed().thenComparing(TUPLE_ORDER));
        table(b, "bursty flows (S_in = min_i S_in)", byIn, top, false);
        return b.toString();
    }

    /**
     * A network replay: per switch running {@code midst}, what its control plane saw (from the
     * journal) beside the drops at its monitored port. True per-flow arrivals at a switch
     * inside a network are not known here, so this section gives no precision.
     */
    @Override
    public String summarizeNetwork(NetworkReplay.Result result) {
        NetworkEngine net = result.network();
        Path out = result.options().out();
        Path journal = out == null ? null : out.resolve("journal");
        StringBuilder b = new StringBuilder();
        for (int s = 0; s < net.switchCount(); s++) {
            if (!MidstProgram.NAME.equals(net.switchProgram(s))) {
                continue;
            }
            SwitchEngine sw = net.switchEngine(s);
            Map<String, String> given = result.options().program() != null ? result.options().params()
                    : net.switchNode(s).params().asMap();
            MidstConfig cfg = MidstProgram.config(new ProgramParams(MidstProgram.NAME, new MidstProgram().params(), given));
            long drops = 0;
            for (DropCause c : DropCause.values()) {
                drops += sw.trafficManager().droppedPackets(cfg.dataPort(), c);
            }
            b.append(String.format(Locale.ROOT, "MIDST on switch %s (port %d, topology port %d): the port dropped %d packets%n",
                    net.switchNode(s).name(), cfg.dataPort(), cfg.dataPort() + 1, drops));
            if (journal == null || !Files.isDirectory(journal)) {
                b.append("  no export journal (run with --out DIR)\n");
                continue;
            }
            MidstJournal.Readout j = MidstJournal.read(journal, s);
            Map<MidstLossQuery.FlowKey, Long> reported = j.lossByFlow();
            long flagged = 0;
            long sum = 0;
            for (long v : reported.values()) {
                flagged += v > 0 ? 1 : 0;
                sum += v;
            }
            long departed = 0;
            for (long v : j.departed().values()) {
                departed += v;
            }
            b.append(String.format(Locale.ROOT, "  monitoring (%s): %d epochs, %d stops, %d cleanings finished; %d flows flagged"
                            + " as heavy losers, reported losses %d; %d packets left the port%n",
                    j.held() ? "held on by the control script" : j.probeNs() == 0 ? "no probes" : "probe every " + j.probeNs() + " ns",
                    j.epochs(), j.count(MidstPipeline.KIND_MONITOR_OFF), j.count(MidstPipeline.KIND_CLEAN_DONE), flagged, sum,
                    departed));
        }
        return b.toString();
    }

    /** A flow the per-packet reports flagged, with its truth. */
    record Flagged(Row row, long reported, long departed) {
        long trueLoss() {
            return row.arrivals() - departed;
        }
    }

    private static void monitoring(StringBuilder b, MidstJournal.Readout j, List<Row> rows, MidstConfig cfg,
                                   int top, int pipe, long elsewhere, long packets, long portsPerPipe) {
        String how = j.held() ? "held on by the control script, no probes"
                : j.probeNs() == 0 ? "no probes (probe_ns=0)"
                : String.format(Locale.ROOT, "probe every %d ns on pipe %d, h=%d l=%d cells", j.probeNs(), pipe, cfg.highWater(),
                cfg.lowWater());
        b.append(String.format(Locale.ROOT, "MIDST monitoring (%s): %d monitoring"
                        + " epochs, %d stops, %d cleanings finished; %d (flow, epoch) reports in the journal%n",
                how, j.epochs(), j.count(MidstPipeline.KIND_MONITOR_OFF),
                j.count(MidstPipeline.KIND_CLEAN_DONE), j.reports().size()));
        if (elsewhere > 0) {
            b.append(String.format(Locale.ROOT, "  %d of %d packets arrived on ports outside pipe %d and are never counted"
                    + " (probes see the monitored port's depth only in its own pipe)%s%n", elsewhere, packets, pipe,
                    pipe == 0 ? "; --ports " + portsPerPipe + " keeps the trace in pipe 0" : ""));
        }
        Map<MidstLossQuery.FlowKey, Long> reported = j.lossByFlow();
        List<Flagged> flagged = new ArrayList<>();
        long trueLosers = 0;
        long trueLossSum = 0;
        for (Row r : rows) {
            long dep = j.departed().getOrDefault(r.flow(), 0L);
            long loss = reported.getOrDefault(r.flow(), 0L);
            trueLossSum += r.arrivals() - dep;
            trueLosers += r.arrivals() - dep >= cfg.lossThreshold() ? 1 : 0;
            if (loss > 0) {
                flagged.add(new Flagged(r, loss, dep));
            }
        }
        flagged.sort(Comparator.comparingLong(Flagged::reported).reversed().thenComparing(Flagged::row, TUPLE_ORDER));
        long precise = 0;
        for (Flagged f : flagged) {
            precise += f.trueLoss() >= cfg.lossThreshold() ? 1 : 0;
        }
        b.append(String.format(Locale.ROOT, "  heavy losers flagged by the per-packet reports: %d flows, %d of them truly lost"
                        + " >= %d packets (precision %s); %d flows truly did, %d packets lost in all%n", flagged.size(), precise,
                cfg.lossThreshold(), flagged.isEmpty() ? "n/a" : String.format(Locale.ROOT, "%.3f", (double) precise / flagged.size()),
                trueLosers, trueLossSum));
        if (flagged.isEmpty()) {
            return;
        }
        b.append("  top ").append(Math.min(top, flagged.size())).append(" flagged heavy losers (reported: each epoch's largest"
                + " estimate, summed over epochs; true loss = arrivals - departures)\n");
        b.append(String.format(Locale.ROOT, "  %4s  %-52s %10s %10s %10s %10s%n", "rank", "flow", "reported", "S_loss", "arrivals",
                "true loss"));
        for (int i = 0; i < Math.min(top, flagged.size()); i++) {
            Flagged f = flagged.get(i);
            b.append(String.format(Locale.ROOT, "  %4d  %-52s %10d %10d %10d %10d%n", i + 1, tuple(f.row().flow()), f.reported(),
                    f.row().loss(), f.row().arrivals(), f.trueLoss()));
        }
    }

    private static void table(StringBuilder b, String title, List<Row> rows, int top, boolean losers) {
        b.append("  top ").append(Math.min(top, rows.size())).append(' ').append(title).append('\n');
        b.append(String.format(Locale.ROOT, "  %4s  %-52s %10s %10s %10s%n", "rank", "flow", "S_loss", "S_in", "arrivals"));
        for (int i = 0; i < Math.min(top, rows.size()); i++) {
            Row r = rows.get(i);
            if (losers && r.loss() == 0) {
                break;
            }
            b.append(String.format(Locale.ROOT, "  %4d  %-52s %10d %10d %10d%n", i + 1, tuple(r.flow()), r.loss(),
                    r.arrivalsEstimate(), r.arrivals()));
        }
    }

    static String tuple(MidstLossQuery.FlowKey f) {
        return ip(f.src()) + ":" + f.srcPort() + " > " + ip(f.dst()) + ":" + f.dstPort() + " proto " + f.proto();
    }

    private static String ip(int a) {
        return ((a >>> 24) & 0xFF) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }
}

package dev.rmtemu.programs.midst.control;

import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstParams;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.program.MidstProgram;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
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
 * MIDST's results of {@code rmtemu replay}. First what the control plane
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

    /** A flow the per-packet reports flagged as a heavy loser: reported loss, its S_loss, true arrivals and true loss. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FlaggedFlow(int rank, String fiveTuple, long reported, long sLoss, long arrivals, long trueLoss) {
    }

    /** A flow of the end-of-run query: S_loss, S_in and its true arrivals. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record QueriedFlow(int rank, String fiveTuple, long sLoss, long sIn, long arrivals) {
    }

    /**
     * What the control plane saw in the journal: how monitoring ran ({@code how}), its epochs,
     * stops and cleanings, the (flow, epoch) reports, the packets that arrived outside the
     * monitored pipe, and the flagged heavy losers against the truth (flows whose arrivals minus
     * departures reach {@code loss_threshold}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Monitoring(String how, long epochs, long stops, long cleanings, long reports, int pipe, long packets,
                             long packetsElsewhere, long portsPerPipe, long lossThreshold, int flaggedFlows,
                             long truePositives, Double precision, long trueLosers, long trueLossSum) {
    }

    /**
     * MIDST's results of a single-switch replay: {@code monitoring} (null without a journal), the
     * flagged heavy losers, and the end-of-run query's top heavy losers (S_loss) and bursty flows (S_in).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(int rows, int columns, int port, long portDrops, int flows, long sLossSum, int top,
                          Monitoring monitoring, List<FlaggedFlow> flagged, List<QueriedFlow> heavyLosers,
                          List<QueriedFlow> burstyFlows, List<String> notes) implements ProgramResults {
        /**
         * Estimates against their truth: the flagged heavy losers' reported loss and S_loss against their true loss
         * (arrivals - departures; a false positive has a true loss of 0, so the error is the difference), the bursty
         * flows' S_in against their true arrivals; and the end-of-run query's top heavy losers by rank (no truth).
         */
        @Override
        public List<PlotSpec> plots() {
            return List.of(
                    PlotSpec.estimateVsTruth("flagged", "flagged heavy losers: reported loss and S_loss against true loss",
                            "true_loss", "loss (packets)", PlotSpec.ErrorMeasure.DIFFERENCE, "reported", "s_loss").labelled("five_tuple"),
                    PlotSpec.estimateVsTruth("bursty_flows", "bursty flows: S_in against true arrivals", "arrivals",
                            "arrivals (packets)", PlotSpec.ErrorMeasure.RELATIVE, "s_in").labelled("five_tuple"),
                    PlotSpec.of("heavy_losers", "top heavy losers of the end-of-run query: S_loss by rank", "rank", "rank",
                            "lost packets (estimate)", "s_loss"));
        }

        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            if (monitoring == null) {
                b.append("MIDST per-packet reports: no export journal (run with --out DIR)\n");
            } else {
                renderMonitoring(b);
            }
            b.append(String.format(Locale.ROOT, "MIDST S_loss query at the end of the run (%d x %d counters per sketch, all pipes added):"
                    + " port %d dropped %d packets; the trace's %d IPv4 flows: sum of S_loss %d%n", rows, columns, port, portDrops,
                    flows, sLossSum));
            for (String n : notes) {
                b.append("  ").append(n).append('\n');
            }
            if (!notes.isEmpty()) {
                return b.toString();
            }
            table(b, "heavy losers (S_loss = min_i(S_in - S_out))", heavyLosers, top);
            table(b, "bursty flows (S_in = min_i S_in)", burstyFlows, top);
            return b.toString();
        }

        private void renderMonitoring(StringBuilder b) {
            Monitoring m = monitoring;
            b.append(String.format(Locale.ROOT, "MIDST monitoring (%s): %d monitoring"
                    + " epochs, %d stops, %d cleanings finished; %d (flow, epoch) reports in the journal%n",
                    m.how(), m.epochs(), m.stops(), m.cleanings(), m.reports()));
            if (m.packetsElsewhere() > 0) {
                b.append(String.format(Locale.ROOT, "  %d of %d packets arrived on ports outside pipe %d and are never counted"
                        + " (probes see the monitored port's depth only in its own pipe)%s%n", m.packetsElsewhere(), m.packets(),
                        m.pipe(), m.pipe() == 0 ? "; --ports " + m.portsPerPipe() + " keeps the trace in pipe 0" : ""));
            }
            b.append(String.format(Locale.ROOT, "  heavy losers flagged by the per-packet reports: %d flows, %d of them truly lost"
                    + " >= %d packets (precision %s); %d flows truly did, %d packets lost in all%n", m.flaggedFlows(),
                    m.truePositives(), m.lossThreshold(),
                    m.precision() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", m.precision()), m.trueLosers(),
                    m.trueLossSum()));
            if (flagged.isEmpty()) {
                return;
            }
            b.append("  top ").append(flagged.size()).append(" flagged heavy losers (reported: each epoch's largest"
                    + " estimate, summed over epochs; true loss = arrivals - departures)\n");
            b.append(String.format(Locale.ROOT, "  %4s  %-52s %10s %10s %10s %10s%n", "rank", "flow", "reported", "S_loss",
                    "arrivals", "true loss"));
            for (FlaggedFlow f : flagged) {
                b.append(String.format(Locale.ROOT, "  %4d  %-52s %10d %10d %10d %10d%n", f.rank(), f.fiveTuple(), f.reported(),
                        f.sLoss(), f.arrivals(), f.trueLoss()));
            }
        }

        private static void table(StringBuilder b, String title, List<QueriedFlow> rows, int top) {
            b.append("  top ").append(top).append(' ').append(title).append('\n');
            b.append(String.format(Locale.ROOT, "  %4s  %-52s %10s %10s %10s%n", "rank", "flow", "S_loss", "S_in", "arrivals"));
            for (QueriedFlow r : rows) {
                b.append(String.format(Locale.ROOT, "  %4d  %-52s %10d %10d %10d%n", r.rank(), r.fiveTuple(), r.sLoss(), r.sIn(),
                        r.arrivals()));
            }
        }
    }

    @Override
    public Results results(ReplayResult result) {
        ReplayOptions o = result.options();
        MidstParams p = MidstParams.of(result.engine().state().program());
        MidstConfig cfg = p.config();
        int top = p.top();
        MidstLossQuery q = MidstLossQuery.readAllPipes(result.engine(), cfg);
        SwitchConfig sc = result.engine().config();
        int pipe = sc.pipeOf(cfg.dataPort());
        long[] elsewhere = {0, sc.profile().portsPerPipe() == TargetProfile.UNLIMITED ? Integer.MAX_VALUE : sc.profile().portsPerPipe()};
        List<Row> rows = flows(q, o.trace(), result.packetsRead(), elsewhere, sc.frontPanelPorts(), pipe);
        long drops = 0;
        for (DropCause c : DropCause.values()) {
            drops += result.engine().trafficManager().droppedPackets(cfg.dataPort(), c);
        }
        Path journal = o.out() == null ? null : o.out().resolve("journal");
        Monitoring monitoring = null;
        List<FlaggedFlow> flagged = new ArrayList<>();
        if (journal != null && Files.isDirectory(journal)) {
            monitoring = monitoring(MidstJournal.read(journal), rows, cfg, top, pipe, elsewhere[0], result.packetsRead(),
                    elsewhere[1], flagged);
        }
        long lossSum = 0;
        long counted = 0;
        for (Row r : rows) {
            lossSum += r.loss();
            counted += r.arrivalsEstimate();
        }
        List<String> notes = new ArrayList<>();
        List<QueriedFlow> losers = new ArrayList<>();
        List<QueriedFlow> bursty = new ArrayList<>();
        if (counted == 0) {
            notes.add("nothing was counted: monitoring was off at the end (never started, or cleaned after the last epoch);"
                    + " to count the whole run, hold it on with --control and a line 'register_write " + MidstPipeline.MONITOR
                    + " 0 1' (every pipe)");
        } else {
            List<Row> byLoss = new ArrayList<>(rows);
            byLoss.sort(Comparator.comparingLong(Row::loss).reversed().thenComparing(TUPLE_ORDER));
            for (int i = 0; i < Math.min(top, byLoss.size()) && byLoss.get(i).loss() != 0; i++) {
                losers.add(queried(i + 1, byLoss.get(i)));
            }
            List<Row> byIn = new ArrayList<>(rows);
            byIn.sort(Comparator.comparingLong(Row::arrivalsEstimate).reversed().thenComparing(TUPLE_ORDER));
            for (int i = 0; i < Math.min(top, byIn.size()); i++) {
                bursty.add(queried(i + 1, byIn.get(i)));
            }
        }
        return new Results(cfg.rows(), cfg.columns(), cfg.dataPort(), drops, rows.size(), lossSum, Math.min(top, rows.size()),
                monitoring, flagged, losers, bursty, notes);
    }

    private static QueriedFlow queried(int rank, Row r) {
        return new QueriedFlow(rank, tuple(r.flow()), r.loss(), r.arrivalsEstimate(), r.arrivals());
    }

    /** One switch running {@code midst} in a network replay: its monitored port's drops and what its control plane saw. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SwitchResult(String switchName, int port, int topologyPort, long portDrops, String how, long epochs,
                               long stops, long cleanings, long flaggedFlows, long reportedLosses, long departed) {
    }

    /**
     * MIDST's results of a network replay, per switch running it (the monitoring columns are
     * null without a journal). True per-flow arrivals at a switch inside a network are not known
     * here, so there is no precision.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record NetworkResults(List<SwitchResult> switches, List<String> notes) implements ProgramResults {
        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            for (SwitchResult s : switches) {
                b.append(String.format(Locale.ROOT, "MIDST on switch %s (port %d, topology port %d): the port dropped %d packets%n",
                        s.switchName(), s.port(), s.topologyPort(), s.portDrops()));
                if (s.how() == null) {
                    b.append("  no export journal (run with --out DIR)\n");
                    continue;
                }
                b.append(String.format(Locale.ROOT, "  monitoring (%s): %d epochs, %d stops, %d cleanings finished; %d flows flagged"
                        + " as heavy losers, reported losses %d; %d packets left the port%n", s.how(), s.epochs(), s.stops(),
                        s.cleanings(), s.flaggedFlows(), s.reportedLosses(), s.departed()));
            }
            for (String n : notes) {
                b.append("  ").append(n).append('\n');
            }
            return b.toString();
        }
    }

    @Override
    public NetworkResults networkResults(ReplayResult result) {
        NetworkEngine net = result.network();
        Path out = result.options().out();
        Path journal = out == null ? null : out.resolve("journal");
        List<SwitchResult> switches = new ArrayList<>();
        for (int s = 0; s < net.switchCount(); s++) {
            if (!MidstProgram.NAME.equals(net.switchProgram(s))) {
                continue;
            }
            SwitchEngine sw = net.switchEngine(s);
            MidstConfig cfg = MidstParams.of(sw.state().program()).config();
            long drops = 0;
            for (DropCause c : DropCause.values()) {
                drops += sw.trafficManager().droppedPackets(cfg.dataPort(), c);
            }
            String name = net.switchNode(s).name();
            if (journal == null || !Files.isDirectory(journal)) {
                switches.add(new SwitchResult(name, cfg.dataPort(), cfg.dataPort() + 1, drops, null, 0, 0, 0, 0, 0, 0));
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
            String how = j.held() ? "held on by the control script" : j.probeNs() == 0 ? "no probes" : "probe every " + j.probeNs() + " ns";
            switches.add(new SwitchResult(name, cfg.dataPort(), cfg.dataPort() + 1, drops, how, j.epochs(),
                    j.count(MidstPipeline.KIND_MONITOR_OFF), j.count(MidstPipeline.KIND_CLEAN_DONE), flagged, sum, departed));
        }
        return new NetworkResults(switches, List.of());
    }

    /** A flow the per-packet reports flagged, with its truth. */
    record Flagged(Row row, long reported, long departed) {
        long trueLoss() {
            return row.arrivals() - departed;
        }
    }

    private static Monitoring monitoring(MidstJournal.Readout j, List<Row> rows, MidstConfig cfg, int top, int pipe,
                                         long elsewhere, long packets, long portsPerPipe, List<FlaggedFlow> shown) {
        String how = j.held() ? "held on by the control script, no probes"
                : j.probeNs() == 0 ? "no probes (probe_ns=0)"
                : String.format(Locale.ROOT, "probe every %d ns on pipe %d, h=%d l=%d cells", j.probeNs(), pipe, cfg.highWater(),
                cfg.lowWater());
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
        for (int i = 0; i < Math.min(top, flagged.size()); i++) {
            Flagged f = flagged.get(i);
            shown.add(new FlaggedFlow(i + 1, tuple(f.row().flow()), f.reported(), f.row().loss(), f.row().arrivals(), f.trueLoss()));
        }
        return new Monitoring(how, j.epochs(), j.count(MidstPipeline.KIND_MONITOR_OFF), j.count(MidstPipeline.KIND_CLEAN_DONE),
                j.reports().size(), pipe, packets, elsewhere, portsPerPipe, cfg.lossThreshold(), flagged.size(), precise,
                flagged.isEmpty() ? null : (double) precise / flagged.size(), trueLosers, trueLossSum);
    }

    static String tuple(MidstLossQuery.FlowKey f) {
        return ip(f.src()) + ":" + f.srcPort() + " > " + ip(f.dst()) + ":" + f.dstPort() + " proto " + f.proto();
    }

    private static String ip(int a) {
        return ((a >>> 24) & 0xFF) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }
}

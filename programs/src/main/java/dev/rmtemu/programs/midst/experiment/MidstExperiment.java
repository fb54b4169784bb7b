package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.midst.control.MidstCollector;
import dev.rmtemu.programs.midst.control.MidstLossQuery;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.rmtemu.emulator.spi.ExperimentJson;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.spi.Experiment;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.traces.PacketRecord;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code rmtemu experiment midst}: (a) heavy-loser precision / recall / F1 against memory
 * and loss rate, on bursty incast traffic through a congested tofino1 port with reactive
 * monitoring and data-plane cleaning running, next to the end-of-interval S_loss query;
 * (b) cleaning time against sketch size, control plane vs recirculation vs recirculation
 * plus 10G / 40G traffic (the paper's Table 1 shape); (c) a shrew attack on TCP-like flows
 * ({@link MidstShrew}); (d) drop volume against a negative-mirroring baseline
 * ({@link MidstDropVolume}).
 */
public final class MidstExperiment implements Experiment {
    static final String NAME = "midst";

    /** Paper (Landau Feibish et al., SOSR 2022), Table 1, 160 KB row: control plane, recirculation, +10G, +40G (ms). */
    static final double[] PAPER_160KB_MS = {95.32, 4.53, 0.55, 0.13};
    /** Paper, Figure 7 (text of section 4): what negative mirroring and MIDST do as the offered rate grows. */
    static final String PAPER_DROP_VOLUME = "paper (Figure 7): drops start once more than 10 Gb/s is offered to the 10 Gb/s port;"
            + " the negative-mirroring port is overwhelmed above 20 Gb/s offered (overload 2) and mirrors a small fraction of"
            + " the drops; MIDST tracks them accurately up to 70 Gb/s";
    /** Paper's headline: 95–98% heavy-loser accuracy at 320 KB. */
    static final String PAPER_ACCURACY = "95-98% at 320 KB";

    /**
     * The paper's heavy-loser accuracy against memory (F1, and precision and recall, one line per overload, one panel
     * per burst size) and its Table 1 cleaning times as a figure (one line per method against sketch size).
     */
    @Override
    public List<PlotSpec> plots() {
        return List.of(
                PlotSpec.of("accuracy", "heavy-loser F1 against memory", "memory_kb", "memory per sketch (KB)", "F1",
                        "f1").logX().series("overload").panel("burst_packets"),
                PlotSpec.of("accuracy", "heavy-loser precision and recall against memory", "memory_kb",
                        "memory per sketch (KB)", "share", "precision", "recall").logX().series("overload").panel("burst_packets"),
                PlotSpec.of("cleaning_ms", "Table 1: cleaning time against sketch size (paper: Table 4 at 160 KB)", "size_kb",
                        "sketch size (KB)", "cleaning time (ms)", "control_plane", "recirculation", "recirc_10g", "recirc_40g")
                        .logX().paperPoints(paperCleaning()));
    }

    /** Table 4's cleaning times at 160 KB as marked points, one per method (the run's sizes are powers of two). */
    private static PlotSpec.PaperPoint[] paperCleaning() {
        String[] lines = {"control_plane", "recirculation", "recirc_10g", "recirc_40g"};
        PlotSpec.PaperPoint[] points = new PlotSpec.PaperPoint[lines.length];
        for (int i = 0; i < lines.length; i++) {
            points[i] = new PlotSpec.PaperPoint(lines[i], PAPER_CLEANING_SIZE_KB, PAPER_CLEANING_160KB_MS.get(i));
        }
        return points;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "MIDST Δ-sketches: (a) heavy-loser accuracy vs memory and loss rate; (b) cleaning time vs sketch size (Table 1);"
                + " (c) shrew attack; (d) drop volume vs negative mirroring; (e) several pipes and queues";
    }

    @Override
    public List<String> options() {
        return List.of(
                "memories=8,16,...,1024     KB per sketch (S_in; S_out is the same), rounded down to power-of-two rows",
                "overloads=1.2,2.0          arrival rate / port rate during a burst (sets the loss rate)",
                "rows=2                     count-min rows r (1..4)",
                "flows=100000 zipf=1.0      flows and their Zipf popularity",
                "bursts=6 burst_packets=20000 interval_us=30000  incast bursts, packets each (parts c, d), spacing",
                "burst_sizes=20000,2000     part (a): packets per burst, each size a sweep of its own",
                "bytes=1000 gbps=10         packet size; rate of every port (the monitored port is congested)",
                "queue_cells=1000           tail-drop limit of the monitored queue (80 B cells)",
                "high=250 low=25            water marks h and l (cells)",
                "probe_ns=2000              probe (queue-depth report) interval",
                "hl_fraction=0.001          heavy loser: true loss >= this share of all drops",
                "clean_sizes=128,256,512,1024 clean_bytes=512  part (b): sketch sizes (KB, as memories), data packet size",
                "shrew_memories=1,256       part (c): KB per sketch",
                "shrew_flows=100 shrew_rtt_us=1000,100000 shrew_min_rto_us=10000 shrew_load=0.8",
                "                           TCP-like flows, RTT range (spread evenly), min RTO, share of the port they may fill",
                "shrew_periods_ms=30,50,70 shrew_burst_us=1000 shrew_attack_gbps=10 shrew_start_ms=20",
                "                           one UDP attacker per period: line-rate bursts of this length from this time",
                "shrew_together=0           0: one attacker per run, each period separately (the paper); 1: all at once",
                "shrew_ms=300 shrew_burst_threshold=300  senders stop; bursty flow: S_in estimate in an epoch at least this",
                "shrew_query_ms=10          S_loss query interval of the control-plane variant",
                "drop_overloads=1.5,2,4,8 drop_memory=256  part (d): overloads (drop volumes) of the (a) traffic; KB per sketch",
                "mirror_gbps=1 mirror_cells=250 mirror_bytes=64  negative mirroring: mirror port rate, queue limit, copy size",
                "pq_pipes=2 pq_queues=2 pq_memory=256 pq_overload=1.5 pq_burst_packets=20000,2000",
                "                           part (e): P pipes x Q queues, KB per sketch per pipe, offered load per monitored port,",
                "                           burst sizes; next to the same arrivals on 1 pipe x 1 queue with the P pipes' memory",
                "seed=1 target=tofino1 part=abcde seed; target profile; which parts to run (any of a, b, c, d, e)");
    }

    /** One accuracy run's result. */
    public record AccuracyRow(int memoryKb, double overload, int burstPackets, long packets, long drops, double lossRate,
                              int trueHeavy, int reportedHeavy, double precision, double recall, double f1,
                              int trueHeavyAll, int reportedTrueAll, double recallAllDrops, double precisionAll, double f1All,
                              int monitorIntervals,
                              long queryDrops, int queryTrueHeavy, int queryReported, double queryPrecision,
                              double queryRecall, double queryF1, String target) {
    }

    /** One shrew row. */
    public record ShrewRow(int memoryKb, String mode, long periodMs, MidstShrew.Result result, MidstShrew.Result calm) {
    }

    /** One cleaning-time row (ms). */
    public record CleaningRow(int sizeKb, double controlPlane, double recirculation, double with10g, double with40g,
                              double recirculationNoDirtyWords, String target, MidstCleaning.ControlPlane api,
                              MidstCleaning.Result recirculationRun) {
    }

    /**
     * The target a size runs on: the chosen one when the sketches fit it, else the same
     * target with its memory limits lifted (the row names it), so a sweep past what fits
     * still shows the algorithm's behaviour at that size, marked as not fitting.
     */
    public static TargetProfile fitting(MidstConfig cfg, TargetProfile profile) {
        return ProgramCompiler.compile(new MidstPipeline(cfg).program, profile).accepted() ? profile : profile.withoutMemoryLimits();
    }

    @Override
    public Output produce(Map<String, String> given, PrintWriter err) {
        MidstOptions o = MidstOptions.parse(given);
        TargetProfile profile = TargetProfiles.builtIn(o.target());
        String part = o.part();
        List<AccuracyRow> acc = new ArrayList<>();
        List<CleaningRow> clean = new ArrayList<>();
        List<ShrewRow> shrew = new ArrayList<>();
        MidstShrew.Result shrewBaseline = null;
        List<MidstDropVolume.Result> volume = new ArrayList<>();
        List<PqRow> pq = new ArrayList<>();
        if (part.contains("e")) {
            for (int burst : o.pqBurstPackets()) {
                pq.addAll(pipesAndQueues(o, profile, burst));
            }
        }
        if (part.contains("a")) {
            for (int burst : o.burstSizes()) {
                for (double overload : o.overloads()) {
                    for (int kb : o.memories()) {
                        acc.add(accuracy(o, profile, kb, overload, burst));
                    }
                }
            }
        }
        if (part.contains("b")) {
            int rows = o.rows();
            int bytes = o.cleanBytes();
            for (int kb : o.cleanSizes()) {
                MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb, rows));
                TargetProfile used = fitting(cfg, profile);
                MidstCleaning.ControlPlane api = MidstCleaning.controlPlane(cfg, used);
                MidstCleaning.Result recirculation = MidstCleaning.dataPlane(cfg, used, 0, bytes);
                clean.add(new CleaningRow(cfg.sketchKb(), api.hostMs(), recirculation.milliseconds(),
                        MidstCleaning.dataPlane(cfg, used, 10, bytes).milliseconds(),
                        MidstCleaning.dataPlane(cfg, used, 40, bytes).milliseconds(),
                        MidstCleaning.dataPlane(cfg.withDirtyWords(false), used, 0, bytes).milliseconds(), used.name(),
                        api, recirculation));
            }
        }
        if (part.contains("c")) {
            long queryNs = o.shrewQueryMs() * 1_000_000;
            // the paper attacks with one period at a time; shrew_together=1 runs every attacker at once (period 0 in the rows)
            List<long[]> runs = new ArrayList<>();
            if (o.shrewTogether()) {
                runs.add(o.shrewPeriodsMs());
            } else {
                for (long p : o.shrewPeriodsMs()) {
                    runs.add(new long[] {p});
                }
            }
            for (long[] periods : runs) {
                long label = periods.length == 1 ? periods[0] : 0;
                MidstShrew.Result calm = shrew(o, profile, o.shrewMemories()[0], 0, false, periods);
                for (int kb : o.shrewMemories()) {
                    int actual = MidstConfig.defaults().withRows(o.rows(), MidstConfig.columnsFor(kb, o.rows())).sketchKb();
                    shrew.add(new ShrewRow(actual, "reports", label, shrew(o, profile, kb, 0, true, periods), calm));
                    shrew.add(new ShrewRow(actual, "query", label, shrew(o, profile, kb, queryNs, true, periods), calm));
                }
                shrewBaseline = calm;
            }
        }
        if (part.contains("d")) {
            for (double overload : o.dropOverloads()) {
                volume.add(dropVolume(o, profile, overload));
            }
        }
        StringWriter json = new StringWriter();
        StringWriter tables = new StringWriter();
        printJson(new PrintWriter(json), o.text(), acc, clean, shrew, shrewBaseline, volume, pq);
        PrintWriter t = new PrintWriter(tables);
        printTables(t, o, acc, clean, shrew, shrewBaseline);
        printVolume(t, o, volume);
        printPipesAndQueues(t, o, pq);
        return new Output(json.toString(), tables.toString());
    }

    /** A part (e) row: one layout's run for one burst size. */
    public record PqRow(int burstPackets, MidstPipesQueues.Result result) {
    }

    /**
     * Part (e) for one burst size: P pipes × Q queues, then the same arrivals on 1 × 1 with the
     * P pipes' sketch memory in its one pipe.
     */
    static List<PqRow> pipesAndQueues(MidstOptions o, TargetProfile chosen, int burstPackets) {
        int pipes = o.pqPipes();
        int queues = o.pqQueues();
        int kb = o.pqMemory();
        if (pipes < 2 || pipes > Math.min(MidstConfig.MAX_PIPES, chosen.pipes()) || Integer.bitCount(pipes) != 1) {
            throw new UserError("experiment midst: pq_pipes must be 2 or 4 and at most the " + chosen.pipes() + " pipe(s) of "
                    + chosen.name() + ", got " + pipes);
        }
        int rows = o.rows();
        double gbps = o.gbps();
        MidstConfig base = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb, rows))
                .withWaterMarks(o.high(), o.low());
        MidstConfig multi = base.withPipesAndQueues(pipes, queues, chosen.portsPerPipe());
        MidstConfig single = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb * pipes, rows))
                .withWaterMarks(base.highWater(), base.lowWater());
        List<PqRow> out = new ArrayList<>();
        for (MidstConfig cfg : List.of(multi, single)) {
            // the spec's rate is the P ports' together, so each monitored port is offered pq_overload x its rate
            MidstTraffic.Spec spec = new MidstTraffic.Spec(o.flows(), o.zipf(), o.bytes(), gbps * pipes, o.pqOverload(),
                    burstPackets, o.bursts(), o.intervalUs() * 1_000,
                    MidstPipesQueues.inputPorts(cfg.pipes(), chosen.portsPerPipe()), o.seed());
            out.add(new PqRow(burstPackets, MidstPipesQueues.run(new MidstPipesQueues.Setup(cfg, fitting(cfg, chosen), pipes,
                    queues, gbps, o.queueCells(), spec, o.probeNs(), o.hlFraction()))));
        }
        return out;
    }

    private static void printPipesAndQueues(PrintWriter out, MidstOptions o, List<PqRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        out.println();
        out.printf(Locale.ROOT, "MIDST (e): %s pipes x %s queues vs 1 x 1; heavy losers (loss >= %s of all drops) against the full"
                        + " ground truth; %s flows zipf %s, %s bursts, %s B, %s x the rate of each %s Gb/s monitored port,"
                        + " queue %s cells, h=%s l=%s, every queue probed every %s ns%n",
                o.given("pq_pipes"), o.given("pq_queues"), o.given("hl_fraction"), o.given("flows"), o.given("zipf"), o.given("bursts"),
                o.given("bytes"), o.given("pq_overload"), o.given("gbps"), o.given("queue_cells"), o.given("high"), o.given("low"),
                o.given("probe_ns"));
        out.printf(Locale.ROOT, "%6s %7s %9s %8s %8s %-17s %6s %6s %9s %7s %7s %6s %7s %9s  %s%n", "burst", "layout", "mem/pipe",
                "total", "drops", "drops by queue", "true", "rep", "precision", "recall", "F1", "true'", "F1'", "intervals", "engine");
        for (PqRow row : rows) {
            MidstPipesQueues.Result r = row.result();
            StringBuilder q = new StringBuilder();
            for (long d : r.dropsByQueue()) {
                q.append(q.length() == 0 ? "" : "/").append(d);
            }
            out.printf(Locale.ROOT, "%6d %7s %6d KB %5d KB %8d %-17s %6d %6d %8.2f%% %6.2f%% %6.2f%% %6d %6.2f%% %9d  %s%n",
                    row.burstPackets(), r.pipes() + " x " + r.queues(), r.memoryKbPerPipe(), r.memoryKbTotal(), r.drops(), q,
                    r.trueHeavy(), r.reportedHeavy(), 100 * r.precision(), 100 * r.recall(), 100 * r.f1(), r.trueObservable(),
                    100 * r.f1Observable(), r.monitorIntervals(), r.engine());
        }
        out.println("P x Q: flows enter in P pipes and leave on a port of the next pipe, queue by flow rank (the heaviest in"
                + " queue 0, the lowest strict priority); 1 x 1: the same arrivals from pipe 0 to one port at P x the rate,"
                + " one queue of P x Q x the cells; drops by queue: the traffic's queues (1 x 1 counts them by the same flows);"
                + " ' = against the observable truth (drops followed by a later departure of the flow); intervals: monitoring"
                + " starts, per ingress pipe and queue");
        out.println("paper: no multi-pipe or multi-queue measurement (section 2 assumes per-flow FIFO per ingress pipe and queue)");
    }

    /** Part (d) for one overload. */
    static MidstDropVolume.Result dropVolume(MidstOptions o, TargetProfile profile, double overload) {
        int rows = o.rows();
        MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(o.dropMemory(), rows));
        MidstTraffic.Spec spec = new MidstTraffic.Spec(o.flows(), o.zipf(), o.bytes(), o.gbps(), overload, o.burstPackets(),
                o.bursts(), o.intervalUs() * 1_000, inputPorts(profile), o.seed());
        return MidstDropVolume.run(cfg, profile, spec, o.queueCells(), o.mirrorGbps(), o.mirrorCells(), o.mirrorBytes(),
                o.hlFraction());
    }

    /** Ports 3.. of pipe 0 (0..2 are spare, the monitored port and the collector's). */
    static int[] inputPorts(TargetProfile profile) {
        int[] inputs = new int[profile.portsPerPipe() - 3];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = 3 + i;
        }
        return inputs;
    }


    private static void printVolume(PrintWriter out, MidstOptions o, List<MidstDropVolume.Result> volume) {
        if (volume.isEmpty()) {
            return;
        }
        out.println();
        out.printf(Locale.ROOT, "MIDST (d): drop volume, negative mirroring (%s B copies to a %s Gb/s mirror port, queue %s cells)"
                        + " vs MIDST's S_loss query (%s KB, read at the end of each burst interval); traffic as (a)%n",
                o.given("mirror_bytes"), o.given("mirror_gbps"), o.given("mirror_cells"), o.given("drop_memory"));
        out.printf(Locale.ROOT, "%8s %8s %8s %7s %6s | %8s %8s %7s %7s %7s | %8s %7s %7s %7s %7s%n", "overload", "packets",
                "drops", "losers", "heavy", "m.deliv", "m.lost", "m.loss%", "m.losR", "m.hvyR", "q.loss", "q.losR", "q.losP",
                "q.hvyR", "q.hvyP");
        for (MidstDropVolume.Result v : volume) {
            out.printf(Locale.ROOT, "%8.2f %8d %8d %7d %6d | %8d %8d %6.1f%% %6.1f%% %6.1f%% | %8d %6.1f%% %6.1f%% %6.1f%% %6.1f%%%n",
                    v.overload(), v.packets(), v.drops(), v.trueLosers(), v.trueHeavy(), v.mirrorDelivered(), v.mirrorLost(),
                    v.drops() == 0 ? 0 : 100.0 * v.mirrorLost() / v.drops(), 100 * v.mirrorLoserRecall(), 100 * v.mirrorHeavyRecall(),
                    v.midstLoss(), 100 * v.midstLoserRecall(), 100 * v.midstLoserPrecision(), 100 * v.midstHeavyRecall(),
                    100 * v.midstHeavyPrecision());
        }
        out.printf(Locale.ROOT, "losers: flows with a drop; heavy: at least %s of all drops; m.: reports that reached the collector"
                + " (never more than the truth); q.: per-flow S_loss summed over intervals; R recall, P precision%n",
                o.given("hl_fraction"));
        out.println(PAPER_DROP_VOLUME);
    }

    /**
     * Part (c) for one memory size with the given attack periods (ms), one attacker each; queryNs 0 =
     * per-packet reports; without the attack when {@code attack} is false.
     */
    static MidstShrew.Result shrew(MidstOptions o, TargetProfile profile, int kb, long queryNs, boolean attack, long[] periodsMs) {
        int rows = o.rows();
        long[] periods = periodsMs.clone();
        for (int i = 0; i < periods.length; i++) {
            periods[i] *= 1_000_000;
        }
        long burstThreshold = o.shrewBurstThreshold();
        MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb, rows))
                .withWaterMarks(o.high(), o.low())
                .withThresholds(MidstConfig.DEFAULT_LOSS_THRESHOLD, burstThreshold);
        MidstShrew.Spec spec = new MidstShrew.Spec(o.shrewFlows(), o.shrewRttMinUs() * 1_000, o.shrewRttMaxUs() * 1_000,
                o.shrewMinRtoUs() * 1_000, o.shrewLoad(), periods, o.shrewBurstUs() * 1_000, o.shrewAttackGbps(),
                attack ? o.shrewStartMs() * 1_000_000 : Long.MAX_VALUE / 2, o.shrewMs() * 1_000_000,
                o.bytes(), o.gbps(), o.queueCells(), o.probeNs());
        long ppm = Math.round(o.hlFraction() * 1_000_000);
        return new MidstShrew(spec, cfg, profile, queryNs).run(ppm, burstThreshold);
    }

    /** Part (a) for one memory size and overload, bursts of {@code burst_packets}. */
    static AccuracyRow accuracy(MidstOptions o, TargetProfile chosen, int kb, double overload) {
        return accuracy(o, chosen, kb, overload, o.burstPackets());
    }

    /** Part (a) for one memory size, overload and burst size. */
    static AccuracyRow accuracy(MidstOptions o, TargetProfile chosen, int kb, double overload, int burstPackets) {
        if (burstPackets < 1) {
            throw new UserError("experiment midst: burst sizes must be positive, got " + burstPackets);
        }
        int rows = o.rows();
        int flows = o.flows();
        double gbps = o.gbps();
        MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb, rows))
                .withWaterMarks(o.high(), o.low());
        TargetProfile profile = fitting(cfg, chosen);
        MidstSwitch sw = new MidstSwitch(cfg, profile, gbps, o.queueCells());
        int[] inputs = inputPorts(profile);
        MidstTraffic.Spec spec = new MidstTraffic.Spec(flows, o.zipf(), o.bytes(), gbps, overload, burstPackets, o.bursts(),
                o.intervalUs() * 1_000, inputs, o.seed());
        int[] departed = new int[flows];
        int[] lastSeq = new int[flows];
        int dataPort = cfg.dataPort();
        sw.onDeparture((c, port, s, pool) -> {
            if (port == dataPort) {
                int f = MidstTraffic.flowOf(pool.record(s));
                departed[f]++;
                lastSeq[f] = pool.record(s).tcpSeq();
            }
        });
        long durationCycles = sw.engine().clock().nsToCycles(spec.bursts() * spec.burstIntervalNs());
        long probeCycles = Math.max(1, sw.engine().clock().nsToCycles(o.probeNs()));
        sw.startProbes(0, probeCycles, durationCycles / probeCycles);
        MidstTraffic t = new MidstTraffic(spec);
        SwitchFeed feed = new SwitchFeed(sw.engine());
        long packets = feed.feed(t::next, PacketRecord::ingressPort, null);
        feed.drainAndCheck();
        // ground truth from the traffic manager: all drops of a flow, and the observable ones (followed by a
        // later departure of the same flow, which is when egress can compute an estimate)
        long drops = 0;
        long[] loss = new long[flows];
        long[] observable = new long[flows];
        for (int f = 0; f < flows; f++) {
            loss[f] = t.arrivals(f) - departed[f];
            observable[f] = lastSeq[f] - departed[f];
            drops += loss[f];
        }
        long threshold = Math.max(1, (long) Math.ceil(o.hlFraction() * drops));
        HeavyLoserScore score = HeavyLoserScore.of(loss, observable, HeavyLoserScore.estimates(sw.collector(), flows), threshold);
        int intervals = 0;
        for (MidstCollector.Event e : sw.collector().events()) {
            intervals += e.kind() == MidstPipeline.KIND_MONITOR_ON ? 1 : 0;
        }
        QueryOutcome q = queryRun(o, profile, cfg, spec, gbps);
        // the row's first scores are against the observable drops, the "all" ones against every drop (tail drops
        // that no later packet can report included)
        return new AccuracyRow(cfg.sketchKb(), overload, burstPackets, packets, drops, packets == 0 ? 0 : (double) drops / packets,
                score.truthObservable(), score.reported(), score.precisionObservable(), score.recallObservable(),
                score.f1Observable(), score.truth(), score.both(), score.recall(), score.precision(), score.f1(), intervals,
                q.drops, q.truth, q.reported, q.precision(), q.recall(), q.f1(), profile.name());
    }

    /** Heavy losers found by the end-of-interval S_loss query against every drop. */
    private record QueryOutcome(long drops, int truth, int reported, int both) {
        double precision() {
            return reported == 0 ? 1 : (double) both / reported;
        }

        double recall() {
            return truth == 0 ? 1 : (double) both / truth;
        }

        double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0 : 2 * p * r / (p + r);
        }
    }

    /**
     * The same traffic with monitoring held on by the control plane, which reads S_in and
     * S_out at the end of each burst interval (just before the next burst) and sums each
     * flow's per-interval S_loss estimates; every trace flow is a candidate. The truth is
     * every drop of the run (this query sees tail drops too, unlike per-packet reports).
     */
    private static QueryOutcome queryRun(MidstOptions o, TargetProfile profile, MidstConfig cfg, MidstTraffic.Spec spec,
                                         double gbps) {
        int flows = spec.flows();
        MidstSwitch sw = new MidstSwitch(cfg, profile, gbps, o.queueCells());
        sw.monitorAlways();
        int[] departed = new int[flows];
        int dataPort = cfg.dataPort();
        sw.onDeparture((c, port, s, pool) -> {
            if (port == dataPort) {
                departed[MidstTraffic.flowOf(pool.record(s))]++;
            }
        });
        MidstBurstQueries queries = MidstBurstQueries.schedule(sw, spec);
        MidstTraffic t = new MidstTraffic(spec);
        new SwitchFeed(sw.engine()).feed(t::next, PacketRecord::ingressPort, null);
        sw.engine().drain();
        long[] est = new long[flows];
        for (int k = 0; k < spec.bursts(); k++) {
            MidstLossQuery interval = queries.interval(k);
            for (int f = 0; f < flows; f++) {
                est[f] += interval.loss(trafficFlow(f));
            }
        }
        long drops = 0;
        long[] loss = new long[flows];
        for (int f = 0; f < flows; f++) {
            loss[f] = t.arrivals(f) - departed[f];
            drops += loss[f];
        }
        long threshold = Math.max(1, (long) Math.ceil(o.hlFraction() * drops));
        int truth = 0;
        int reported = 0;
        int both = 0;
        for (int f = 0; f < flows; f++) {
            boolean isHeavy = loss[f] >= threshold;
            boolean says = est[f] >= threshold;
            truth += isHeavy ? 1 : 0;
            reported += says ? 1 : 0;
            both += isHeavy && says ? 1 : 0;
        }
        return new QueryOutcome(drops, truth, reported, both);
    }

    /** The control plane reads this long before the next burst interval starts (the queue has drained by then). */
    static final long QUERY_GUARD_NS = 1_000;

    /** Flow f of {@link MidstTraffic} as a 5-tuple. */
    static MidstLossQuery.FlowKey trafficFlow(int f) {
        return new MidstLossQuery.FlowKey(MidstTraffic.FLOW_BASE + f, MidstTraffic.DST, PacketRecord.PROTO_TCP,
                MidstTraffic.SRC_PORT_BASE + (f & 0x7FFF), MidstTraffic.DST_PORT);
    }

    /** Under a row run with the memory limits lifted, one line saying so. */
    private static void liftedNote(PrintWriter out, String used) {
        if (used.endsWith(TargetProfile.UNLIMITED_MEMORY_SUFFIX)) {
            out.printf(Locale.ROOT, "%8s (the sketches do not fit %s: ran with its memory limits lifted)%n", "",
                    used.substring(0, used.length() - TargetProfile.UNLIMITED_MEMORY_SUFFIX.length()));
        }
    }

    private static void printTables(PrintWriter out, MidstOptions o, List<AccuracyRow> acc, List<CleaningRow> clean,
                                    List<ShrewRow> shrew, MidstShrew.Result shrewBaseline) {
        if (!acc.isEmpty()) {
            out.printf(Locale.ROOT, "MIDST (a): heavy losers (loss >= %s of all drops), %s rows, %s flows zipf %s, %s bursts x %s packets,"
                            + " %s B at %s Gb/s, queue %s cells, h=%s l=%s, probe every %s ns%n",
                    o.given("hl_fraction"), o.given("rows"), o.given("flows"), o.given("zipf"), o.given("bursts"), o.given("burst_sizes"),
                    o.given("bytes"), o.given("gbps"), o.given("queue_cells"), o.given("high"), o.given("low"), o.given("probe_ns"));
            out.printf(Locale.ROOT, "%8s %6s %9s %8s %7s %6s %6s %9s %7s %7s | %6s %9s %7s %7s %9s | %6s %6s %9s %7s %7s%n",
                    "memory", "burst", "overload", "drops", "loss", "true", "rep", "precision", "recall", "F1",
                    "true*", "precision*", "recall*", "F1*", "intervals", "q.true", "q.rep", "q.prec", "q.rec", "q.F1");
            for (AccuracyRow a : acc) {
                out.printf(Locale.ROOT, "%5d KB %6d %9.2f %8d %6.2f%% %6d %6d %8.2f%% %6.2f%% %6.2f%% | %6d %9.2f%% %6.2f%% %6.2f%% %9d"
                                + " | %6d %6d %8.2f%% %6.2f%% %6.2f%%%n",
                        a.memoryKb(), a.burstPackets(), a.overload(), a.drops(), 100 * a.lossRate(), a.trueHeavy(), a.reportedHeavy(),
                        100 * a.precision(), 100 * a.recall(), 100 * a.f1(), a.trueHeavyAll(), 100 * a.precisionAll(),
                        100 * a.recallAllDrops(), 100 * a.f1All(), a.monitorIntervals(),
                        a.queryTrueHeavy(), a.queryReported(), 100 * a.queryPrecision(), 100 * a.queryRecall(), 100 * a.queryF1());
                liftedNote(out, a.target());
            }
            out.println("left: per-packet reports under reactive monitoring; true = flows whose observable loss (drops followed"
                    + " by a later departure of the flow, what egress can see) reaches the threshold; * = scored against the full"
                    + " ground truth (every drop, tail drops included)");
            out.println("right (q.): end-of-interval S_loss query, monitoring held on, control plane reads S_in/S_out at the end"
                    + " of each burst interval; true = every drop (same traffic, own run)");
            out.println("paper: " + PAPER_ACCURACY + " (CAIDA traces; different traffic, same measure)");
            out.println();
        }
        if (!clean.isEmpty()) {
            out.printf(Locale.ROOT, "MIDST (b): cleaning time of S_in + S_out (ms), %s rows, data packets %s B%n", o.given("rows"), o.given("clean_bytes"));
            out.printf(Locale.ROOT, "%8s %14s %14s %14s %14s %16s%n", "size", "control plane", "recirculation", "recirc + 10G",
                    "recirc + 40G", "recirc, no dirty");
            for (CleaningRow c : clean) {
                out.printf(Locale.ROOT, "%5d KB %14.2f %14.3f %14.3f %14.3f %16.3f%n", c.sizeKb(), c.controlPlane(),
                        c.recirculation(), c.with10g(), c.with40g(), c.recirculationNoDirtyWords());
                liftedNote(out, c.target());
                if (c == clean.get(0)) {
                    // power-of-two rows: the paper's 160 KB row is next to our first size (128 KB by default)
                    out.printf(Locale.ROOT, "%8s %14.2f %14.3f %14.3f %14.3f   (paper, 160 KB)%n", "paper", PAPER_160KB_MS[0],
                            PAPER_160KB_MS[1], PAPER_160KB_MS[2], PAPER_160KB_MS[3]);
                }
            }
            out.printf(Locale.ROOT, "control plane: the host's time (driver, PCIe, RPC), not measured here: modelled at %.4f us per"
                    + " register write, calibrated to the paper's 160 KB row; data plane: measured on the emulator;"
                    + " 'no dirty' zeroes one counter per row per pass%n", MidstCleaning.CONTROL_PLANE_WRITE_NS / 1e3);
            out.printf(Locale.ROOT, "measured in the emulator per cleaning: API = register writes the control plane's reset delivered"
                    + " and their cell bytes; recirculation = the probe's pipeline cycles, passes, bytes through the recirculation"
                    + " port, and register cells it left clean (dirty words of both sketches)%n");
            out.printf(Locale.ROOT, "%8s %12s %12s | %14s %10s %14s %12s%n", "size", "API writes", "API bytes", "recirc cycles",
                    "passes", "recirc bytes", "cells clean");
            for (CleaningRow c : clean) {
                MidstCleaning.Result r = c.recirculationRun();
                out.printf(Locale.ROOT, "%5d KB %12d %12d | %14d %10d %14d %12d%n", c.sizeKb(), c.api().writes(), c.api().bytes(),
                        r.cycles(), r.probePasses(), r.recirculatedBytes(), r.cellsCleaned());
            }
        }
        if (!shrew.isEmpty()) {
            out.println();
            out.printf(Locale.ROOT, "MIDST (c): shrew attack, %s TCP-like flows (RTT %s us, min RTO %s us, windows for %s of the port),"
                            + " UDP bursts of %s us at %s Gb/s every %s ms from %s ms (one attacker per run unless shrew_together=1),"
                            + " %s ms, %s Gb/s port, queue %s cells%n",
                    o.given("shrew_flows"), o.given("shrew_rtt_us").replace(',', '-'), o.given("shrew_min_rto_us"), o.given("shrew_load"),
                    o.given("shrew_burst_us"), o.given("shrew_attack_gbps"), o.given("shrew_periods_ms").replace(',', '/'),
                    o.given("shrew_start_ms"), o.given("shrew_ms"), o.given("gbps"), o.given("queue_cells"));
            out.printf(Locale.ROOT, "%6s %8s %8s %8s %7s %7s %7s %8s %6s | %5s %5s %7s %7s | %5s %5s %7s %7s | %9s | %6s %7s %14s %7s%n",
                    "period", "memory", "mode", "packets", "drops", "tcp", "attack", "timeouts", "tcpGb", "vict", "rep", "prec",
                    "recall", "att", "rep", "prec", "recall", "intervals", "t.RTT", "t.loss", "t.Gb/s (calm)", "top RTT");
            for (ShrewRow row : shrew) {
                MidstShrew.Result r = row.result();
                MidstShrew.Target t = r.target();
                out.printf(Locale.ROOT, "%3d ms %5d KB %8s %8d %7d %7d %7d %8d %6.2f | %5d %5d %6.1f%% %6.1f%% | %5d %5d %6.1f%% %6.1f%%"
                                + " | %9d | %3d ms %6.1f%% %5.2f (%5.2f) %4d ms%n",
                        row.periodMs(), row.memoryKb(), row.mode(), r.packets(), r.drops(), r.tcpDrops(), r.attackDrops(),
                        r.tcpTimeouts(), r.tcpGbps(), r.victimsTrue(), r.victimsReported(), 100 * r.victimPrecision(),
                        100 * r.victimRecall(), r.attackers(), r.attackersReported(), 100 * r.attackerPrecision(),
                        100 * r.attackerRecall(), r.monitorIntervals(), t.rttNs() / 1_000_000, 100 * t.lossRate(), t.gbps(),
                        row.calm().target().gbps(), t.topLoserRttNs() / 1_000_000);
            }
            out.println("t. = the TCP flow whose RTT is nearest the attack period (the paper's victim): its loss, its Gb/s under"
                    + " attack and without it; top RTT = RTT of the TCP flow MIDST reports with the largest loss");
            out.println("paper (Figure 5, 6): the victim drops from 8.2 to 0.97 Gb/s and loses up to 98.1 % of its packets; MIDST"
                    + " names it the heavy loser in 10 of 10 runs; attackers found with F 0.912-0.981 over memory sizes");
            out.printf(Locale.ROOT, "victims: TCP flows whose observable loss is at least %s of all drops; reported victim = heavy"
                    + " loser (per-packet reports) that is not bursty; attackers: the UDP flows, reported = bursty (S_in estimate"
                    + " >= %s in a monitoring epoch)%n", o.given("hl_fraction"), o.given("shrew_burst_threshold"));
            out.printf(Locale.ROOT, "reports: reactive monitoring, per-packet reports (victims by observable loss); query: monitoring"
                    + " held on, S_loss read every %s ms (victims by all loss); intervals: monitoring epochs / queries%n",
                    o.given("shrew_query_ms"));
            if (shrewBaseline != null) {
                out.printf(Locale.ROOT, "without the attack: TCP %.2f Gb/s, %d drops, %d timeouts%n", shrewBaseline.tcpGbps(),
                        shrewBaseline.tcpDrops(), shrewBaseline.tcpTimeouts());
            }
        }
    }

    /** The experiment's JSON document (docs/schema/experiment.schema.json, {@code midst}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record JsonDoc(String experiment, Map<String, String> options, List<JsonAccuracy> accuracy,
                   List<JsonCleaning> cleaningMs, List<JsonShrew> shrew, List<JsonVolume> dropVolume,
                   JsonShrewCalm shrewWithoutAttack, List<JsonPipesQueues> pipesAndQueues, JsonPaper paper) {
    }

    /** Part (e): one layout's heavy losers against the full ground truth. */
    record JsonPipesQueues(int burstPackets, int pipes, int queues, int memoryKbPerPipe, int memoryKbTotal, long packets, long drops,
                           List<Long> dropsByQueue, int trueHeavy, int reportedHeavy, BigDecimal precision, BigDecimal recall,
                           BigDecimal f1, int trueHeavyObservable, BigDecimal f1Observable, int monitorIntervals, String engine) {
    }

    record JsonQuery(long drops, int trueHeavy, int reportedHeavy, BigDecimal precision, BigDecimal recall, BigDecimal f1) {
    }

    record JsonAccuracy(int memoryKb, BigDecimal overload, int burstPackets, long packets, long drops, BigDecimal lossRate,
                        int trueHeavy, int reportedHeavy, BigDecimal precision, BigDecimal recall, BigDecimal f1,
                        int trueHeavyAll, BigDecimal precisionAll, BigDecimal recallAllDrops, BigDecimal f1All,
                        long monitorIntervals, JsonQuery query) {
    }

    /** Cleaning times in ms; the link speeds are part of their keys, which the naming strategy would not split. */
    record JsonCleaning(int sizeKb, BigDecimal controlPlane, BigDecimal recirculation,
                        @JsonProperty("recirc_10g") BigDecimal recirc10g, @JsonProperty("recirc_40g") BigDecimal recirc40g,
                        BigDecimal recircNoDirtyWords, String controlPlaneIs, long apiWrites, long apiBytes, long recircCycles,
                        long recircPasses, long recircBytes, long cellsClean) {
    }

    record JsonShrewTarget(BigDecimal rttMs, BigDecimal lossRate, BigDecimal gbps, BigDecimal gbpsWithoutAttack,
                           BigDecimal topLoserRttMs) {
    }

    record JsonShrew(long periodMs, int memoryKb, String mode, long packets, long drops, long tcpDrops, long attackDrops,
                     long tcpTimeouts, BigDecimal tcpGbps, long lossThreshold, long victimsTrue, long victimsReported,
                     BigDecimal victimPrecision, BigDecimal victimRecall, long attackers, long attackersReported,
                     BigDecimal attackerPrecision, BigDecimal attackerRecall, long monitorIntervals, JsonShrewTarget target) {
    }

    record JsonShrewCalm(BigDecimal tcpGbps, long tcpDrops, long tcpTimeouts) {
    }

    record JsonMirror(long delivered, long lost, long losers, long heavy) {
    }

    record JsonMidstVolume(long loss, long losers, long losersHit, long heavy, long heavyHit) {
    }

    record JsonVolume(BigDecimal overload, long packets, long drops, long trueLosers, long trueHeavy, long heavyThreshold,
                      JsonMirror mirror, JsonMidstVolume midst) {
    }

    /** The paper's numbers beside ours: Table 4's cleaning times (ms) and the accuracy claim. */
    record JsonPaper(@JsonProperty("cleaning_160kb_ms") List<BigDecimal> cleaning160kbMs, String accuracy) {
    }

    /** The paper's Table 4 cleaning times for 160 KB (ms): control plane, recirculation, 10G, 40G. */
    static final BigDecimal PAPER_CLEANING_SIZE_KB = new BigDecimal(160);
    static final List<BigDecimal> PAPER_CLEANING_160KB_MS = List.of(new BigDecimal("95.32"), new BigDecimal("4.53"),
            new BigDecimal("0.55"), new BigDecimal("0.13"));

    private static BigDecimal d(double v, int places) {
        return ExperimentJson.decimal(v, places);
    }

    /** A double as Java prints it (the overload factors are options, kept as given). */
    private static BigDecimal plain(double v) {
        return Double.isFinite(v) ? new BigDecimal(Double.toString(v)) : null;
    }

    private static List<JsonVolume> volumeJson(List<MidstDropVolume.Result> volume) {
        List<JsonVolume> rows = new ArrayList<>();
        for (MidstDropVolume.Result v : volume) {
            rows.add(new JsonVolume(plain(v.overload()), v.packets(), v.drops(), v.trueLosers(), v.trueHeavy(),
                    v.heavyThreshold(), new JsonMirror(v.mirrorDelivered(), v.mirrorLost(), v.mirrorLosers(), v.mirrorHeavy()),
                    new JsonMidstVolume(v.midstLoss(), v.midstLosers(), v.midstLosersHit(), v.midstHeavy(), v.midstHeavyHit())));
        }
        return rows;
    }

    private static void printJson(PrintWriter out, Map<String, String> o, List<AccuracyRow> acc, List<CleaningRow> clean,
                                  List<ShrewRow> shrew, MidstShrew.Result shrewBaseline, List<MidstDropVolume.Result> volume,
                                  List<PqRow> pq) {
        List<JsonAccuracy> accuracy = new ArrayList<>();
        for (AccuracyRow a : acc) {
            accuracy.add(new JsonAccuracy(a.memoryKb(), plain(a.overload()), a.burstPackets(), a.packets(), a.drops(),
                    d(a.lossRate(), 6), a.trueHeavy(), a.reportedHeavy(), d(a.precision(), 6), d(a.recall(), 6), d(a.f1(), 6),
                    a.trueHeavyAll(), d(a.precisionAll(), 6), d(a.recallAllDrops(), 6), d(a.f1All(), 6), a.monitorIntervals(),
                    new JsonQuery(a.queryDrops(), a.queryTrueHeavy(), a.queryReported(), d(a.queryPrecision(), 6),
                            d(a.queryRecall(), 6), d(a.queryF1(), 6))));
        }
        List<JsonCleaning> cleaning = new ArrayList<>();
        for (CleaningRow c : clean) {
            cleaning.add(new JsonCleaning(c.sizeKb(), d(c.controlPlane(), 4), d(c.recirculation(), 4), d(c.with10g(), 4),
                    d(c.with40g(), 4), d(c.recirculationNoDirtyWords(), 4), "host model", c.api().writes(), c.api().bytes(),
                    c.recirculationRun().cycles(), c.recirculationRun().probePasses(),
                    c.recirculationRun().recirculatedBytes(), c.recirculationRun().cellsCleaned()));
        }
        List<JsonShrew> shrews = new ArrayList<>();
        for (ShrewRow row : shrew) {
            MidstShrew.Result r = row.result();
            shrews.add(new JsonShrew(row.periodMs(), row.memoryKb(), row.mode(), r.packets(), r.drops(), r.tcpDrops(),
                    r.attackDrops(), r.tcpTimeouts(), d(r.tcpGbps(), 4), r.lossThreshold(), r.victimsTrue(), r.victimsReported(),
                    d(r.victimPrecision(), 6), d(r.victimRecall(), 6), r.attackers(), r.attackersReported(),
                    d(r.attackerPrecision(), 6), d(r.attackerRecall(), 6), r.monitorIntervals(),
                    new JsonShrewTarget(d(r.target().rttNs() / 1e6, 3), d(r.target().lossRate(), 6), d(r.target().gbps(), 4),
                            d(row.calm().target().gbps(), 4), d(r.target().topLoserRttNs() / 1e6, 3))));
        }
        JsonShrewCalm calm = shrewBaseline == null ? null
                : new JsonShrewCalm(d(shrewBaseline.tcpGbps(), 4), shrewBaseline.tcpDrops(), shrewBaseline.tcpTimeouts());
        List<JsonPipesQueues> pipesQueues = new ArrayList<>();
        for (PqRow row : pq) {
            MidstPipesQueues.Result r = row.result();
            List<Long> byQueue = new ArrayList<>();
            for (long d : r.dropsByQueue()) {
                byQueue.add(d);
            }
            pipesQueues.add(new JsonPipesQueues(row.burstPackets(), r.pipes(), r.queues(), r.memoryKbPerPipe(), r.memoryKbTotal(),
                    r.packets(), r.drops(), byQueue, r.trueHeavy(), r.reportedHeavy(), d(r.precision(), 6), d(r.recall(), 6),
                    d(r.f1(), 6), r.trueObservable(), d(r.f1Observable(), 6), r.monitorIntervals(), r.engine()));
        }
        out.print(Json.write(new JsonDoc("midst", o, accuracy, cleaning, shrews, volumeJson(volume), calm,
                pq.isEmpty() ? null : pipesQueues, new JsonPaper(PAPER_CLEANING_160KB_MS, PAPER_ACCURACY))));
    }
}

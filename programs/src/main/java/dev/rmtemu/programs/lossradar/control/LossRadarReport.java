package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.LossRadarConfig;

import java.util.TreeMap;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.spi.NoteResults;
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * LossRadar's results of {@code rmtemu replay --topology}: the collector reads the digests
 * {@link LossRadarControlPlane} exported into the run's journal, decodes every monitored
 * link direction batch by batch, and sets what it counted and decoded beside the ground
 * truth: the link's own losses ({@link NetworkEngine#lost}) plus the sender's queue drops
 * at that egress port (the UM sits before the queue). A batch that does not peel fully is
 * reported as counted, not decoded, never as wrong packets. The root-cause analyzer
 * ({@link RootCauseAnalyzer}, the paper's defaults) classifies every decoded loss per link direction.
 */
public final class LossRadarReport implements ProgramReport {
    /** Decoded lost packets listed per link direction. */
    public static final int SHOWN_LOSSES = 3;

    @Override
    public String program() {
        return LossRadarControlPlane.PROGRAM;
    }

    /** One monitored link direction after the run. */
    public record Row(String link, int batches, int complete, long counted, long decoded, long extra, long linkLost,
                      long queueDrops, List<LostPacket> lost, List<Long> lostBatch, int batchShift, boolean timed) {
        /** Ground-truth losses between the UM and the DM. */
        public long truth() {
            return linkLost + queueDrops;
        }
    }

    /** Every monitored link direction of {@code net}, decoded from the journal at {@code journalDir}. */
    public static List<Row> rows(NetworkEngine net, Path journalDir) {
        List<LossRadarControlPlane.Monitored> monitored = LossRadarControlPlane.monitoredLinks(net);
        List<LossRadarCollector.MeterLink> links = new ArrayList<>();
        for (LossRadarControlPlane.Monitored m : monitored) {
            links.add(m.meters());
        }
        List<LossRadarCollector.BatchReport> reports = new LossRadarCollector(links).decode(LossRadarCollector.read(journalDir));
        List<Row> out = new ArrayList<>();
        for (LossRadarControlPlane.Monitored m : monitored) {
            int batches = 0;
            int complete = 0;
            long counted = 0;
            long extra = 0;
            // each decoded loss with its batch, in (batch, signature) order
            TreeMap<Long, List<LostPacket>> byBatch = new TreeMap<>();
            for (LossRadarCollector.BatchReport r : reports) {
                if (!r.link().equals(m.meters())) {
                    continue;
                }
                batches++;
                complete += r.result().complete() ? 1 : 0;
                counted += r.result().counted();
                extra += r.result().extra().size();
                byBatch.computeIfAbsent(r.batch(), b -> new ArrayList<>()).addAll(r.result().lost());
            }
            List<LostPacket> lost = new ArrayList<>();
            List<Long> lostBatch = new ArrayList<>();
            for (Map.Entry<Long, List<LostPacket>> e : byBatch.entrySet()) {
                e.getValue().sort(null);
                for (LostPacket p : e.getValue()) {
                    lost.add(p);
                    lostBatch.add(e.getKey());
                }
            }
            long queue = 0;
            for (DropCause cause : DropCause.values()) {
                queue += net.switchEngine(m.meters().umSwitch()).trafficManager().droppedPackets(m.meters().umPort(), cause);
            }
            LossRadarConfig c = LossRadarControlPlane.config(net.switchEngine(m.meters().umSwitch()).state().program());
            out.add(new Row(m.meters().name(), batches, complete, counted, lost.size(), extra, net.lost(m.linkId(), m.direction()),
                    queue, lost, lostBatch, c.batchShift(), c.timestamp()));
        }
        return out;
    }

    /** One monitored link direction of the results: what the collector counted and decoded, beside the ground truth. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record LinkResult(String link, int batches, int complete, long counted, long decoded, long extra, long linkLost,
                             long queueDrops, long trueLost) {
    }

    /**
     * One decoded lost packet: its link direction, batch, 5-tuple, IP ID, SYN flag, and, when the
     * signatures carry the µs timestamp ({@code --param timestamp=1}), its time (ns) and the root
     * cause the analyzer classified (both null without: the analyzer needs each loss's time).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Loss(String link, long batch, String fiveTuple, int ipId, boolean syn, Long timeNs, String rootCause) {
    }

    /** Per link direction, the decoded losses by root cause (LossRadar's analyzer, the paper's defaults). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record CauseCount(String link, String rootCause, long losses) {
    }

    /** LossRadar's results of a network replay. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(boolean timestamped, List<LinkResult> links, List<Loss> losses, List<CauseCount> rootCauses,
                          List<String> notes) implements ProgramResults {
        /**
         * Per link direction the losses counted (UM - DM counts) and decoded (pure cells peeled) against the true
         * losses; the error is the difference (a direction without losses has a truth of 0).
         */
        @Override
        public List<PlotSpec> plots() {
            return List.of(PlotSpec.estimateVsTruth("links", "losses per link direction: counted and decoded against true",
                    "true_lost", "lost packets", PlotSpec.ErrorMeasure.DIFFERENCE, "counted", "decoded").labelled("link"));
        }

        @Override
        public String render() {
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "LossRadar per link direction (UM at the sender's egress, DM at the receiver's ingress;"
                    + " truth = link losses + sender's queue drops)%n"));
            for (String n : notes) {
                b.append("  ").append(n).append('\n');
            }
            if (links.isEmpty()) {
                return b.toString();
            }
            b.append(String.format(Locale.ROOT, "  %-28s %8s %9s %9s %9s %10s %12s %9s%n", "link", "batches", "complete", "counted",
                    "decoded", "link lost", "queue drops", "truth"));
            for (LinkResult r : links) {
                b.append(String.format(Locale.ROOT, "  %-28s %8d %9d %9d %9d %10d %12d %9d%n", r.link(), r.batches(), r.complete(),
                        r.counted(), r.decoded(), r.linkLost(), r.queueDrops(), r.trueLost()));
                if (r.extra() > 0) {
                    b.append(String.format(Locale.ROOT, "    %d signatures only in the DM (undecodable batches)%n", r.extra()));
                }
                int shown = 0;
                for (Loss l : losses) {
                    if (l.link().equals(r.link()) && shown++ < SHOWN_LOSSES) {
                        b.append("    lost ").append(l.fiveTuple()).append(" id=").append(l.ipId()).append('\n');
                    }
                }
                StringBuilder causes = new StringBuilder();
                for (CauseCount c : rootCauses) {
                    if (c.link().equals(r.link())) {
                        causes.append(causes.length() == 0 ? "" : ", ").append(c.rootCause()).append(' ').append(c.losses());
                    }
                }
                if (causes.length() > 0) {
                    b.append("    root causes: ").append(causes).append('\n');
                }
            }
            b.append(timestamped ? "  every decoded loss with its root cause: report.json results.lossradar.losses, results/lossradar_losses.csv\n"
                    : "  every decoded loss: report.json results.lossradar.losses, results/lossradar_losses.csv; root causes need"
                    + " each loss's time: --param timestamp=1\n");
            return b.toString();
        }
    }

    @Override
    public Results networkResults(ReplayResult result) {
        NetworkEngine net = result.network();
        List<String> notes = new ArrayList<>();
        if (LossRadarControlPlane.monitoredLinks(net).isEmpty()) {
            notes.add("no link between two switches running lossradar");
            return new Results(false, List.of(), List.of(), List.of(), notes);
        }
        Path out = result.options().out();
        Path journal = out == null ? null : out.resolve("journal");
        if (journal == null || !Files.isDirectory(journal)) {
            notes.add("no export journal (run with --out DIR): nothing to decode");
            return new Results(false, List.of(), List.of(), List.of(), notes);
        }
        List<LinkResult> links = new ArrayList<>();
        List<Loss> losses = new ArrayList<>();
        List<CauseCount> causes = new ArrayList<>();
        RootCauseAnalyzer analyzer = new RootCauseAnalyzer(RootCauseAnalyzer.Params.defaults());
        boolean timed = false;
        for (Row r : rows(net, journal)) {
            links.add(new LinkResult(r.link(), r.batches(), r.complete(), r.counted(), r.decoded(), r.extra(), r.linkLost(),
                    r.queueDrops(), r.truth()));
            if (!r.timed()) {
                for (int i = 0; i < r.lost().size(); i++) {
                    LostPacket p = r.lost().get(i);
                    losses.add(new Loss(r.link(), r.lostBatch().get(i), p.flow(), p.ipId(), p.syn(), null, null));
                }
                continue;
            }
            timed = true;
            List<RootCauseAnalyzer.Loss> analysed = new ArrayList<>();
            for (int i = 0; i < r.lost().size(); i++) {
                LostPacket p = r.lost().get(i);
                long start = r.lostBatch().get(i) << r.batchShift();
                analysed.add(RootCauseAnalyzer.Loss.of(p, r.lostBatch().get(i),
                        RootCauseAnalyzer.unwrapNs(p.words()[LossRadarConfig.BASE_WORDS], start)));
            }
            RootCause[] cause = analyzer.classify(analysed);
            long[] byCause = new long[RootCause.values().length];
            for (int i = 0; i < cause.length; i++) {
                LostPacket p = r.lost().get(i);
                losses.add(new Loss(r.link(), r.lostBatch().get(i), p.flow(), p.ipId(), p.syn(), analysed.get(i).timeNs(),
                        cause[i].name().toLowerCase(Locale.ROOT)));
                byCause[cause[i].ordinal()]++;
            }
            for (RootCause c : RootCause.values()) {
                if (byCause[c.ordinal()] > 0) {
                    causes.add(new CauseCount(r.link(), c.name().toLowerCase(Locale.ROOT), byCause[c.ordinal()]));
                }
            }
        }
        return new Results(timed, links, losses, causes, notes);
    }

    /** A single switch has no link between an upstream and a downstream meter. */
    @Override
    public NoteResults results(ReplayResult result) {
        return new NoteResults("LossRadar: a single switch has no link between meters; replay a network with --topology and"
                + " --program lossradar --param route=1 to decode its losses");
    }
}

package dev.rmtemu.programs.lossradar;

import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.replay.NetworkReplay;
import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * LossRadar's section of {@code rmtemu replay --topology}: the collector reads the digests
 * {@link LossRadarControlPlane} exported into the run's journal, decodes every monitored
 * link direction batch by batch, and sets what it counted and decoded beside the ground
 * truth: the link's own losses ({@link NetworkEngine#lost}) plus the sender's queue drops
 * at that egress port (the UM sits before the queue). A batch that does not peel fully is
 * reported as counted, not decoded, never as wrong packets.
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
                      long queueDrops, List<LostPacket> lost) {
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
            List<LostPacket> lost = new ArrayList<>();
            for (LossRadarCollector.BatchReport r : reports) {
                if (!r.link().equals(m.meters())) {
                    continue;
                }
                batches++;
                complete += r.result().complete() ? 1 : 0;
                counted += r.result().counted();
                extra += r.result().extra().size();
                lost.addAll(r.result().lost());
            }
            lost.sort(null);
            long queue = 0;
            for (DropCause cause : DropCause.values()) {
                queue += net.switchEngine(m.meters().umSwitch()).trafficManager().droppedPackets(m.meters().umPort(), cause);
            }
            out.add(new Row(m.meters().name(), batches, complete, counted, lost.size(), extra, net.lost(m.linkId(), m.direction()),
                    queue, lost));
        }
        return out;
    }

    @Override
    public String summarizeNetwork(NetworkReplay.Result result) {
        NetworkEngine net = result.network();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "LossRadar per link direction (UM at the sender's egress, DM at the receiver's ingress;"
                + " truth = link losses + sender's queue drops)%n"));
        if (LossRadarControlPlane.monitoredLinks(net).isEmpty()) {
            b.append("  no link between two switches running lossradar\n");
            return b.toString();
        }
        Path out = result.options().out();
        Path journal = out == null ? null : out.resolve("journal");
        if (journal == null || !Files.isDirectory(journal)) {
            b.append("  no export journal (run with --out DIR): nothing to decode\n");
            return b.toString();
        }
        b.append(String.format(Locale.ROOT, "  %-28s %8s %9s %9s %9s %10s %12s %9s%n", "link", "batches", "complete", "counted",
                "decoded", "link lost", "queue drops", "truth"));
        for (Row r : rows(net, journal)) {
            b.append(String.format(Locale.ROOT, "  %-28s %8d %9d %9d %9d %10d %12d %9d%n", r.link(), r.batches(), r.complete(),
                    r.counted(), r.decoded(), r.linkLost(), r.queueDrops(), r.truth()));
            if (r.extra() > 0) {
                b.append(String.format(Locale.ROOT, "    %d signatures only in the DM (undecodable batches)%n", r.extra()));
            }
            for (int i = 0; i < Math.min(SHOWN_LOSSES, r.lost().size()); i++) {
                b.append("    lost ").append(r.lost().get(i)).append('\n');
            }
        }
        return b.toString();
    }

    /** A single switch has no link between an upstream and a downstream meter. */
    @Override
    public String summarize(ReplayResult result) {
        return "LossRadar: a single switch has no link between meters; replay a network with --topology and"
                + " --program lossradar --param route=1 to decode its losses\n";
    }
}

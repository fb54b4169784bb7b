package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.journal.JournalReader;
import org.agrona.DirectBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads back what a replay's MIDST control plane wrote to the export journal: the
 * collector's monitoring / cleaning events and per-(flow, epoch) reports
 * ({@link MidstCollector#writeTo}), how the run was monitored (probe period, or held on by
 * a control script), and the per-flow departure counts of the monitored
 * port ({@link DepartureTally}, ground truth).
 */
public final class MidstJournal {
    /** One (flow, epoch) report as the collector exported it. */
    public record FlowEpochReport(MidstLossQuery.FlowKey flow, int epoch, long loss, long burst) {
    }

    /** Everything MIDST exported in one run, in journal order. */
    public record Readout(long probeNs, boolean held, List<MidstCollector.Event> events, List<FlowEpochReport> reports,
                          Map<MidstLossQuery.FlowKey, Long> departed) {
        /** Monitoring epochs: times monitoring turned on. */
        public long epochs() {
            return count(MidstPipeline.KIND_MONITOR_ON);
        }

        public long count(int eventKind) {
            long n = 0;
            for (MidstCollector.Event e : events) {
                n += e.kind() == eventKind ? 1 : 0;
            }
            return n;
        }

        /** Per flow: loss estimates summed over epochs, in first-report (5-tuple) order; lookups only. */
        public Map<MidstLossQuery.FlowKey, Long> lossByFlow() {
            Map<MidstLossQuery.FlowKey, Long> out = new HashMap<>();
            for (FlowEpochReport r : reports) {
                out.merge(r.flow(), r.loss(), Long::sum);
            }
            return out;
        }
    }

    private MidstJournal() {
    }

    static MidstLossQuery.FlowKey flow(DirectBuffer b, int o) {
        return new MidstLossQuery.FlowKey(b.getInt(o), b.getInt(o + 4), b.getByte(o + 8) & 0xFF, b.getShort(o + 9) & 0xFFFF,
                b.getShort(o + 11) & 0xFFFF);
    }

    /** Reads the journal directory {@code journalDir} (a run directory's {@code journal}). */
    public static Readout read(Path journalDir) {
        return read(journalDir, -1);
    }

    /** As {@link #read(Path)}, only the messages of switch {@code switchId} (a network's ordinal; -1: all). */
    public static Readout read(Path journalDir, int switchId) {
        List<MidstCollector.Event> events = new ArrayList<>();
        List<FlowEpochReport> reports = new ArrayList<>();
        Map<MidstLossQuery.FlowKey, Long> departed = new HashMap<>();
        long[] probes = {0, 0};
        try (JournalReader r = JournalReader.open(journalDir)) {
            r.readHeaderIfPresent();
            while (r.poll((kind, cycle, sw, pipe, b, o, length) -> {
                if (switchId >= 0 && sw != switchId) {
                    return;
                }
                String name = r.kinds().name(kind);
                if (MidstCollector.KIND_EVENT.equals(name)) {
                    events.add(new MidstCollector.Event(cycle, b.getByte(o) & 0xFF, b.getShort(o + 1) & 0xFFFF,
                            b.getInt(o + 3) & 0xFFFFFFFFL));
                } else if (MidstCollector.KIND_HEAVY_LOSER.equals(name)) {
                    reports.add(new FlowEpochReport(flow(b, o), b.getShort(o + 13) & 0xFFFF, b.getLong(o + 15), b.getLong(o + 23)));
                } else if (MidstControlPlane.KIND_PROBES.equals(name)) {
                    probes[0] = b.getLong(o);
                    probes[1] = b.getByte(o + 12);
                } else if (DepartureTally.KIND.equals(name)) {
                    departed.put(flow(b, o), b.getLong(o + 13));
                }
            }, Integer.MAX_VALUE) > 0) {
                // keep polling until the journal has nothing more
            }
        }
        return new Readout(probes[0], probes[1] != 0, events, reports, departed);
    }
}

package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.MeterDigest;

import dev.rmtemu.emulator.journal.JournalReader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * LossRadar's collector: reads the digests from the export journal, pairs each
 * upstream meter's digest with the downstream meter's of the same batch across a
 * link, subtracts (UM − DM), peels, and reports each lost packet with its location
 * (link and batch). A batch that does not decode fully is reported as
 * "n losses counted, m decoded".
 */
public final class LossRadarCollector {
    /** A monitored link: UM (switch, egress port) to DM (switch, ingress port). */
    public record MeterLink(String name, int umSwitch, int umPort, int dmSwitch, int dmPort) {
    }

    /** One batch of one link, decoded. */
    public record BatchReport(MeterLink link, long batch, IbfDecoder.Result result) {
    }

    private final List<MeterLink> links;

    public LossRadarCollector(List<MeterLink> links) {
        this.links = List.copyOf(links);
    }

    /** Every digest in the journal at {@code journalDir}, in journal order. */
    public static List<MeterDigest> read(Path journalDir) {
        List<MeterDigest> out = new ArrayList<>();
        try (JournalReader r = JournalReader.open(journalDir)) {
            r.readHeaderIfPresent();
            while (r.poll((kind, cycle, switchId, pipe, payload, offset, length) -> {
                if (LossRadarExport.KIND_DIGEST.equals(r.kinds().name(kind))) {
                    out.add(LossRadarExport.decode(switchId, payload, offset));
                }
            }, Integer.MAX_VALUE) > 0) {
                // keep polling until the journal has nothing more
            }
        }
        return out;
    }

    private static String key(int sw, int role, int port, long batch, int meter) {
        return String.format("%06d/%d/%05d/%012d/%03d", sw, role, port, batch, meter);
    }

    /** Decodes every batch of every link, ordered by link, then batch. */
    public List<BatchReport> decode(List<MeterDigest> digests) {
        Map<String, MeterDigest> byKey = new TreeMap<>();
        for (MeterDigest d : digests) {
            String k = key(d.switchId(), d.role(), d.port(), d.batch(), d.meter());
            MeterDigest prev = byKey.get(k);
            if (prev != null) {
                // the same batch closed twice (e.g. a straggler after a close): its packets add up
                IbfDigest sum = prev.digest().copy();
                sum.add(d.digest());
                d = new MeterDigest(d.switchId(), d.role(), d.port(), d.batch(), sum, d.meter());
            }
            byKey.put(k, d);
        }
        List<BatchReport> out = new ArrayList<>();
        for (MeterLink l : links) {
            TreeMap<Long, MeterDigest[]> batches = new TreeMap<>();
            for (MeterDigest d : byKey.values()) {
                if (d.role() == MeterDigest.UM && d.switchId() == l.umSwitch() && d.port() == l.umPort()) {
                    batches.computeIfAbsent(d.batch(), b -> new MeterDigest[2])[0] = d;
                } else if (d.role() == MeterDigest.DM && d.switchId() == l.dmSwitch() && d.port() == l.dmPort()) {
                    batches.computeIfAbsent(d.batch(), b -> new MeterDigest[2])[1] = d;
                }
            }
            for (Map.Entry<Long, MeterDigest[]> e : batches.entrySet()) {
                MeterDigest um = e.getValue()[0];
                MeterDigest dm = e.getValue()[1];
                IbfDigest diff;
                if (um == null) {
                    diff = IbfDigest.of0(dm.digest());
                    diff = diff.minus(dm.digest());
                } else if (dm == null) {
                    diff = um.digest().copy();
                } else {
                    diff = um.digest().minus(dm.digest());
                }
                out.add(new BatchReport(l, e.getKey(), IbfDecoder.peel(diff)));
            }
        }
        out.sort(Comparator.comparing((BatchReport r) -> r.link().name()).thenComparingLong(BatchReport::batch));
        return out;
    }

    /** A black-box upstream meter: its switch, egress port and meter ID. */
    public record BlackBoxMeter(String name, int umSwitch, int umPort, int meterId) {
    }

    /**
     * Black-box mode: the network between the UMs and the DMs is opaque, so a UM's
     * packets may leave it at any DM. Each DM keeps one digest per upstream meter ID;
     * per UM and batch the collector sums the digests tagged with its ID over every DM
     * and port, subtracts the sum from the UM's digest, and peels.
     */
    public static List<BatchReport> decodeBlackBox(List<MeterDigest> digests, List<BlackBoxMeter> meters) {
        List<BatchReport> out = new ArrayList<>();
        for (BlackBoxMeter u : meters) {
            TreeMap<Long, IbfDigest[]> batches = new TreeMap<>();
            for (MeterDigest d : digests) {
                boolean mine = d.role() == MeterDigest.UM && d.switchId() == u.umSwitch() && d.port() == u.umPort();
                boolean tagged = d.role() == MeterDigest.DM && d.meter() == u.meterId();
                if (!mine && !tagged) {
                    continue;
                }
                IbfDigest[] pair = batches.computeIfAbsent(d.batch(), b -> new IbfDigest[] {IbfDigest.of0(d.digest()), IbfDigest.of0(d.digest())});
                pair[mine ? 0 : 1].add(d.digest());
            }
            MeterLink l = new MeterLink(u.name(), u.umSwitch(), u.umPort(), -1, -1);
            for (Map.Entry<Long, IbfDigest[]> e : batches.entrySet()) {
                out.add(new BatchReport(l, e.getKey(), IbfDecoder.peel(e.getValue()[0].minus(e.getValue()[1]))));
            }
        }
        return out;
    }

    /** Every lost packet decoded, over all reports, sorted. */
    public static List<LostPacket> lost(List<BatchReport> reports) {
        List<LostPacket> all = new ArrayList<>();
        for (BatchReport r : reports) {
            all.addAll(r.result().lost());
        }
        all.sort(null);
        return all;
    }

    /** Losses counted (decoded or not), over all reports. */
    public static long counted(List<BatchReport> reports) {
        long n = 0;
        for (BatchReport r : reports) {
            n += r.result().counted();
        }
        return n;
    }
}

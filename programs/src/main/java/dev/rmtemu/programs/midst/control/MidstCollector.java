package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.engine.DepartureListener;
import dev.rmtemu.emulator.engine.PacketPool;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.runtime.Phv;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * MIDST's collector half. It sits on the wire: data packets egress flags leave the monitored
 * port with the report header it added (loss estimate, S_in estimate, epoch, flags), and
 * probes that changed the monitoring state or finished cleaning leave through the
 * collector port. It keeps, per flow and monitoring epoch, the largest estimates
 * reported, and the monitoring/cleaning events in order. {@link #writeTo} puts both in
 * the export journal.
 */
public final class MidstCollector implements DepartureListener {
    public static final String KIND_HEAVY_LOSER = "midst.flow_report";
    public static final String KIND_EVENT = "midst.event";
    /** Flow report payload: src, dst (4 B each), proto (1), ports (2 + 2), epoch (2), loss (8), burst (8). */
    public static final int FLOW_PAYLOAD_BYTES = 31;
    /** Event payload: probe kind (1), epoch (2), queue depth in cells (4). */
    public static final int EVENT_PAYLOAD_BYTES = 7;

    /**
     * One monitoring or cleaning event of ingress pipe {@code pipe} about queue {@code queue}
     * (the partition j · Q + q: queue q of egress pipe j; both 0 with one pipe and one queue).
     */
    public record Event(long cycle, int kind, int epoch, long queueDepthCells, int pipe, int queue) {
        /** An event of the one-pipe, one-queue layout (what the journal carries). */
        public Event(long cycle, int kind, int epoch, long queueDepthCells) {
            this(cycle, kind, epoch, queueDepthCells, 0, 0);
        }
    }

    /** A flow's reports summed over monitoring epochs. */
    public record FlowReport(int src, int dst, int proto, int srcPort, int dstPort, long loss, long burst) {
    }

    private final MidstPipeline p;
    private final FlowEpochTable table = new FlowEpochTable();
    private final List<Event> events = new ArrayList<>();
    private long reports;

    public MidstCollector(MidstPipeline pipeline) {
        this.p = pipeline;
    }

    @Override
    public void departed(long cycle, int port, int slot, PacketPool pool) {
        Phv phv = pool.phv(slot);
        if (port == p.config.collectorPort()) {
            int kind = (int) phv.get(p.probeKind);
            if (kind >= MidstPipeline.KIND_MONITOR_ON) {
                int parts = p.config.partitions();
                events.add(new Event(cycle, kind, (int) phv.get(p.probeEpoch), phv.get(p.probeDepth),
                        p.probeHome == null ? 0 : (int) phv.get(p.probeHome), (int) (phv.get(p.tuple.dst()) & (parts - 1))));
            }
            return;
        }
        if (phv.get(p.brCounted) == 0 || phv.get(p.repValid) == 0) {
            return;
        }
        reports++;
        table.report(FlowEpochTable.key1(phv.get(p.tuple.src()), phv.get(p.tuple.dst())),
                FlowEpochTable.key2(phv.get(p.tuple.proto()), phv.get(p.tuple.srcPort()), phv.get(p.tuple.dstPort()),
                        phv.get(p.repEpoch)),
                (phv.get(p.repFlags) & MidstPipeline.FLAG_HEAVY_LOSER) != 0 ? phv.get(p.repLoss) : 0,
                (phv.get(p.repFlags) & MidstPipeline.FLAG_BURSTY) != 0 ? phv.get(p.repBurst) : 0);
    }

    /** Flagged data packets seen. */
    public long reports() {
        return reports;
    }

    public List<Event> events() {
        return Collections.unmodifiableList(events);
    }

    /**
     * Per flow: the loss estimates summed over epochs (each epoch's largest report) and the
     * largest S_in estimate of any epoch; in 5-tuple order.
     */
    public List<FlowReport> flows() {
        Map<String, long[]> byFlow = new TreeMap<>();
        Map<String, int[]> tuples = new TreeMap<>();
        for (int s : table.sortedSlots()) {
            long a = table.k1(s);
            long b = table.k2(s);
            int src = (int) (a >>> 32);
            int dst = (int) a;
            int sp = (int) ((b >>> 40) & 0xFFFF);
            int dp = (int) ((b >>> 24) & 0xFFFF);
            int proto = (int) ((b >>> 16) & 0xFF);
            String key = String.format("%016x%04x%04x%02x", a, sp, dp, proto);
            long[] v = byFlow.computeIfAbsent(key, k -> new long[2]);
            v[0] += table.loss(s);
            v[1] = Math.max(v[1], table.burst(s));
            tuples.putIfAbsent(key, new int[] {src, dst, proto, sp, dp});
        }
        List<FlowReport> out = new ArrayList<>();
        for (Map.Entry<String, long[]> e : byFlow.entrySet()) {
            int[] t = tuples.get(e.getKey());
            out.add(new FlowReport(t[0], t[1], t[2], t[3], t[4], e.getValue()[0], e.getValue()[1]));
        }
        return out;
    }

    /** Registers this collector's message kinds (before the journal is created). */
    public static void registerKinds(JournalKinds kinds) {
        kinds.register(KIND_HEAVY_LOSER);
        kinds.register(KIND_EVENT);
    }

    /** Appends every (flow, epoch) report and every event to the journal; returns the messages written. */
    public long writeTo(ExportJournal journal, long cycle, int switchId) {
        int flowKind = journal.kinds().id(KIND_HEAVY_LOSER);
        int eventKind = journal.kinds().id(KIND_EVENT);
        if (flowKind < 0 || eventKind < 0) {
            throw new IllegalStateException("midst journal kinds not registered (call registerKinds first)");
        }
        UnsafeBuffer buf = new UnsafeBuffer(new byte[FLOW_PAYLOAD_BYTES]);
        long n = 0;
        for (Event e : events) {
            buf.putByte(0, (byte) e.kind());
            buf.putShort(1, (short) e.epoch());
            buf.putInt(3, (int) e.queueDepthCells());
            journal.append(eventKind, e.cycle(), switchId, 0, buf, 0, EVENT_PAYLOAD_BYTES);
            n++;
        }
        for (int s : table.sortedSlots()) {
            long a = table.k1(s);
            long b = table.k2(s);
            buf.putInt(0, (int) (a >>> 32));
            buf.putInt(4, (int) a);
            buf.putByte(8, (byte) (b >>> 16));
            buf.putShort(9, (short) (b >>> 40));
            buf.putShort(11, (short) (b >>> 24));
            buf.putShort(13, (short) b);
            buf.putLong(15, table.loss(s));
            buf.putLong(23, table.burst(s));
            journal.append(flowKind, cycle, switchId, 0, buf, 0, FLOW_PAYLOAD_BYTES);
            n++;
        }
        return n;
    }
}

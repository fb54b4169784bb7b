package dev.rmtemu.programs.midst;

import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayOptions;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * MIDST's section of {@code rmtemu replay}: the end-of-run S_loss query over the trace's
 * IPv4 flows (a second pass over the packets the replay read gives the candidates and
 * their true arrivals), the top heavy losers and the top bursty flows (heavy hitters of
 * S_in), and the drops the traffic manager counted at the monitored port. Probes do not run
 * in a replay, so monitoring is on only if the control plane holds it on
 * ({@code --control} with {@code register midst_monitor write 0 1}, per pipe).
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
        Map<MidstLossQuery.FlowKey, long[]> arrivals = new HashMap<>();
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
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
        List<Row> rows = flows(q, o.trace(), result.packetsRead());
        long drops = 0;
        for (DropCause c : DropCause.values()) {
            drops += result.engine().trafficManager().droppedPackets(cfg.dataPort(), c);
        }
        long lossSum = 0;
        long counted = 0;
        for (Row r : rows) {
            lossSum += r.loss();
            counted += r.arrivalsEstimate();
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "MIDST S_loss query at the end of the run (%d x %d counters per sketch, all pipes added):"
                + " port %d dropped %d packets; the trace's %d IPv4 flows: sum of S_loss %d%n", cfg.rows(), cfg.columns(),
                cfg.dataPort(), drops, rows.size(), lossSum));
        if (counted == 0) {
            b.append("  nothing was counted: monitoring was off (probes do not run in a replay); hold it on with --control and"
                    + " a line 'register " + MidstPipeline.MONITOR + " write 0 1' (pipe=N for other pipes)\n");
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

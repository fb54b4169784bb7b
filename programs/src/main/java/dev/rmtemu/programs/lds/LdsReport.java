package dev.rmtemu.programs.lds;

import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;
import org.agrona.collections.Long2LongHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * LDS's section of {@code rmtemu replay} (role both): the sender sketches of every pipe's
 * ingress merged (the sketch is linear) against the receiver sketches of every pipe's
 * egress merged, and, for the largest flows of the trace (a second pass over the packets
 * the replay read), their estimated mean delay, size and loss next to their true size.
 */
public final class LdsReport implements ProgramReport {
    @Override
    public String program() {
        return LdsProgram.NAME;
    }

    /** One listed flow: 5-tuple, packets in the trace, and the estimate. */
    public record Row(int src, int dst, int proto, int srcPort, int dstPort, long packets, double meanDelayNs,
                      double packetsSent, double packetsLost, int keptCells) {
    }

    /** Sender and receiver sketches of all pipes merged. */
    public static LdsEstimator estimator(PipelineState state, LdsConfig cfg) {
        LdsSketch tx = new LdsSketch(cfg);
        LdsSketch rx = new LdsSketch(cfg);
        for (int p = 0; p < state.pipes(); p++) {
            tx.mergeFrom(LdsCollector.read(state, p, cfg, true));
            rx.mergeFrom(LdsCollector.read(state, p, cfg, false));
        }
        return new LdsEstimator(tx, rx);
    }

    /** The {@code top} largest flows among the first {@code packets} records (ties: smaller 5-tuple first). */
    public static List<Row> top(LdsEstimator est, String trace, long packets, int top) {
        Long2LongHashMap index = new Long2LongHashMap(-1);
        List<long[]> order = new ArrayList<>();
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
                long key = LdsTrace.tupleKey(r);
                int i = (int) index.get(key);
                if (i < 0) {
                    i = order.size();
                    index.put(key, i);
                    order.add(new long[] {0, r.srcIpv4() & 0xFFFFFFFFL, r.dstIpv4() & 0xFFFFFFFFL, r.protocol(), r.srcPort(), r.dstPort()});
                }
                order.get(i)[0]++;
            }
        }
        order.sort((a, b) -> {
            if (a[0] != b[0]) {
                return Long.compare(b[0], a[0]);
            }
            for (int i = 1; i < a.length; i++) {
                if (a[i] != b[i]) {
                    return Long.compare(a[i], b[i]);
                }
            }
            return 0;
        });
        List<Row> out = new ArrayList<>();
        FlowEstimate e = new FlowEstimate();
        for (int i = 0; i < Math.min(top, order.size()); i++) {
            long[] f = order.get(i);
            est.estimate((int) f[1], (int) f[2], (int) f[3], (int) f[4], (int) f[5], e);
            out.add(new Row((int) f[1], (int) f[2], (int) f[3], (int) f[4], (int) f[5], f[0], e.meanDelayNs, e.packetsSent,
                    e.packetsLost, e.keptCells));
        }
        return out;
    }

    @Override
    public String summarize(ReplayResult result) {
        ProgramParams p = new ProgramParams(LdsProgram.NAME, new LdsProgram().params(), result.options().params());
        LdsPipeline pipeline = LdsProgram.pipeline(p);
        if (pipeline.role != LdsRole.BOTH) {
            return "LDS: role " + pipeline.role.label + " holds one end only; the estimate needs the other switch's sketch\n";
        }
        LdsConfig cfg = pipeline.config;
        List<Row> rows = top(estimator(result.engine().state(), cfg), result.options().trace(), result.packetsRead(),
                p.intValue("top"));
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "LDS ingress -> egress, largest %d flows (R=%d, C=%d, k=%d; sketches of %d pipe(s) merged)%n",
                rows.size(), cfg.rows(), cfg.cells(), cfg.ldaCells(), result.engine().state().pipes()));
        b.append(String.format(Locale.ROOT, "  %-44s %9s %14s %12s %10s %5s%n", "5-tuple", "packets", "mean delay ns",
                "est. packets", "est. lost", "cells"));
        for (Row r : rows) {
            String tuple = ip(r.src()) + ":" + r.srcPort() + " > " + ip(r.dst()) + ":" + r.dstPort() + " p" + r.proto();
            b.append(String.format(Locale.ROOT, "  %-44s %9d %14s %12.0f %10.0f %5d%n", tuple, r.packets(),
                    Double.isNaN(r.meanDelayNs()) ? "none" : String.format(Locale.ROOT, "%.1f", r.meanDelayNs()),
                    r.packetsSent(), r.packetsLost(), r.keptCells()));
        }
        return b.toString();
    }

    static String ip(int a) {
        return (a >>> 24) + "." + ((a >>> 16) & 0xFF) + "." + ((a >>> 8) & 0xFF) + "." + (a & 0xFF);
    }
}

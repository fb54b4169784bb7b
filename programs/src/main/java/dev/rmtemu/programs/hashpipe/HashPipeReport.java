package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.emulator.replay.ProgramReport;
import dev.rmtemu.emulator.replay.ReplayOptions;
import dev.rmtemu.emulator.replay.ReplayResult;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.TraceSpec;

import java.util.List;
import java.util.Locale;

/**
 * HashPipe's section of {@code rmtemu replay}: the collector's top flows (all
 * pipes merged) with their estimated counts, and their true counts from a second
 * pass over the same trace (the same packets the replay read).
 */
public final class HashPipeReport implements ProgramReport {
    @Override
    public String program() {
        return HashPipeProgram.NAME;
    }

    /** A reported flow with its estimate and true count. */
    public record Row(FlowCount flow, long trueCount, String fiveTuple) {
    }

    /** The top {@code k} flows of the switch with true counts from the trace (first {@code packets} records). */
    public static List<Row> topWithTruth(dev.rmtemu.model.runtime.PipelineState state, HashPipeConfig cfg, int k,
                                         String trace, long packets) {
        List<FlowCount> top = HashPipeCollector.topK(state, cfg, k);
        KeyCountMap truth = new KeyCountMap(top.size());
        KeyCountMap rank = new KeyCountMap(top.size());
        String[] firstTuple = new String[top.size()];
        for (int i = 0; i < top.size(); i++) {
            FlowCount f = top.get(i);
            truth.add(f.keyLo(), f.keyHi(), 0);
            rank.add(f.keyLo(), f.keyHi(), i);
        }
        FlowKeys keys = new FlowKeys(cfg.key());
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
                keys.load(r);
                int slot = truth.find(keys.lo(), keys.hi());
                if (slot >= 0) {
                    truth.value(slot, truth.value(slot) + (cfg.countBytes() ? r.wireLength() : 1));
                    int i = (int) rank.get(keys.lo(), keys.hi());
                    if (firstTuple[i] == null) {
                        // the first 5-tuple seen with this key (a fingerprint or source may stand for several)
                        firstTuple[i] = fiveTuple(r);
                    }
                }
            }
        }
        List<Row> out = new java.util.ArrayList<>();
        for (int i = 0; i < top.size(); i++) {
            FlowCount f = top.get(i);
            out.add(new Row(f, truth.get(f.keyLo(), f.keyHi()), firstTuple[i] == null ? "" : firstTuple[i]));
        }
        return out;
    }

    /** A packet's 5-tuple as the summary prints it: IPv4 dotted quads or full IPv6 addresses. */
    static String fiveTuple(PacketRecord r) {
        return dev.rmtemu.traces.Addresses.format(r, true) + " > " + dev.rmtemu.traces.Addresses.format(r, false) + " proto "
                + r.protocol() + " " + r.srcPort() + ">" + r.dstPort();
    }

    @Override
    public String summarize(ReplayResult result) {
        ReplayOptions o = result.options();
        HashPipeProgram factory = new HashPipeProgram();
        ProgramParams p = new ProgramParams(HashPipeProgram.NAME, factory.params(), o.params());
        HashPipeConfig cfg = HashPipeConfig.from(p);
        int k = p.intValue("top");
        List<Row> rows = topWithTruth(result.engine().state(), cfg, k, o.trace(), result.packetsRead());
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "HashPipe top %d (d=%d, %d slots per stage, key %s, %s; tables of %d pipe(s) merged)%n",
                k, cfg.stages(), cfg.countersPerStage(), cfg.key().label(), cfg.countBytes() ? "bytes" : "packets",
                result.engine().state().pipes()));
        b.append(String.format(Locale.ROOT, "  %4s  %-14s %12s %12s %8s  %s%n", "rank", "key", "estimate", "true", "error %",
                "first 5-tuple with this key"));
        int n = 1;
        for (Row r : rows) {
            double err = r.trueCount() == 0 ? 100 : 100.0 * (r.flow().count() - r.trueCount()) / r.trueCount();
            String key = cfg.key().wide() ? "" : cfg.key().format(r.flow().keyLo(), r.flow().keyHi());
            b.append(String.format(Locale.ROOT, "  %4d  %-14s %12d %12d %8.2f  %s%n", n++, key, r.flow().count(),
                    r.trueCount(), err, r.fiveTuple()));
        }
        return b.toString();
    }
}

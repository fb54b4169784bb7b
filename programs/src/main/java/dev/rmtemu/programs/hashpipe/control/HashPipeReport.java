package dev.rmtemu.programs.hashpipe.control;

import dev.rmtemu.programs.hashpipe.program.CountedBytes;
import dev.rmtemu.emulator.spi.PlotSpec;
import dev.rmtemu.programs.hashpipe.program.FlowKeys;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.HashPipeParams;
import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;
import dev.rmtemu.programs.hashpipe.program.KeyKind;

import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.traces.Addresses;
import java.util.ArrayList;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.spi.ProgramReport;
import dev.rmtemu.emulator.spi.ProgramResults;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;

import java.util.List;
import java.util.Locale;

/**
 * HashPipe's results of {@code rmtemu replay}: the collector's top flows (all
 * pipes merged) with their estimated counts, and their true counts from a second
 * pass over the same trace (the same packets the replay read).
 */
public final class HashPipeReport implements ProgramReport {
    @Override
    public String program() {
        return HashPipeProgram.NAME;
    }

    /**
     * A reported flow with its estimate and true count. Under an IPv4-only key ({@link
     * KeyKind#ipv4Only()}) the true count is that of the IPv4 packets with the key, and {@code
     * ipv6Folded} counts the IPv6 packets the switch folded into it (see {@link FlowKeys}).
     */
    public record Row(FlowCount flow, long trueCount, long ipv6Folded, String fiveTuple) {
    }

    /** The rows, and the IPv6 packets of the whole run an IPv4-only key folded (0 for the fingerprint). */
    record Truth(List<Row> rows, long packets, long ipv6PacketsFolded) {
    }

    /** The top {@code k} flows of the switch with true counts from the trace (first {@code packets} records). */
    public static List<Row> topWithTruth(PipelineState state, HashPipeConfig cfg, int k,
                                         String trace, long packets) {
        return truth(state, cfg, k, trace, packets).rows();
    }

    static Truth truth(PipelineState state, HashPipeConfig cfg, int k, String trace,
                       long packets) {
        List<FlowCount> top = HashPipeCollector.topK(state, cfg, k);
        KeyCountMap truth = new KeyCountMap(top.size());
        KeyCountMap rank = new KeyCountMap(top.size());
        long[] folded = new long[top.size()];
        String[] firstTuple = new String[top.size()];
        String[] firstFolded = new String[top.size()];
        for (int i = 0; i < top.size(); i++) {
            FlowCount f = top.get(i);
            truth.add(f.keyLo(), f.keyHi(), 0);
            rank.add(f.keyLo(), f.keyHi(), i);
        }
        FlowKeys keys = new FlowKeys(cfg.key());
        boolean ipv4Only = cfg.key().ipv4Only();
        PacketRecord r = PacketRecord.allocate();
        long n = 0;
        long foldedPackets = 0;
        try (PacketSource src = TraceSpec.open(trace)) {
            while (n < packets && src.next(r)) {
                n++;
                if (r.ipVersion() == 0) {
                    continue; // ARP and other frames that are not IP belong to no flow
                }
                boolean fold = ipv4Only && r.ipVersion() == 6;
                if (fold) {
                    foldedPackets++;
                }
                keys.load(r);
                int slot = truth.find(keys.lo(), keys.hi());
                if (slot < 0) {
                    continue;
                }
                long inc = cfg.countBytes() ? CountedBytes.of(r) : 1;
                int i = (int) rank.get(keys.lo(), keys.hi());
                if (fold) {
                    // the switch counted it under this key, but it is no packet of the IPv4 flow the key names
                    folded[i] += inc;
                    if (firstFolded[i] == null) {
                        firstFolded[i] = fiveTuple(r);
                    }
                    continue;
                }
                truth.value(slot, truth.value(slot) + inc);
                if (firstTuple[i] == null) {
                    // the first 5-tuple seen with this key (a fingerprint or source may stand for several)
                    firstTuple[i] = fiveTuple(r);
                }
            }
        }
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < top.size(); i++) {
            FlowCount f = top.get(i);
            String tuple = firstTuple[i] != null ? firstTuple[i] : firstFolded[i] != null ? firstFolded[i] : "";
            out.add(new Row(f, truth.get(f.keyLo(), f.keyHi()), folded[i], tuple));
        }
        return new Truth(out, n, foldedPackets);
    }

    /** A packet's 5-tuple as the summary prints it: IPv4 dotted quads or full IPv6 addresses. */
    public static String fiveTuple(PacketRecord r) {
        return Addresses.format(r, true) + " > " + Addresses.format(r, false) + " proto "
                + r.protocol() + " " + r.srcPort() + ">" + r.dstPort();
    }

    /**
     * One of the top-k flows: the switch's estimate beside the true count of the packets the
     * run read. Under an IPv4-only key, {@code true} counts the key's IPv4 packets only and
     * {@code ipv6_folded} the IPv6 packets (or their bytes) the switch counted under it too;
     * {@code five_tuple} is the first IPv4 one with the key, or the first folded IPv6 one if none.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record TopFlow(int rank, String key, String fiveTuple, long estimate, @JsonProperty("true") long trueCount,
                          Double error, long ipv6Folded) {
        /** {@code error} is (estimate - true) / true, null when the true count is 0. */
        static TopFlow of(int rank, String key, String fiveTuple, long estimate, long trueCount, long ipv6Folded) {
            return new TopFlow(rank, key, fiveTuple, estimate, trueCount,
                    trueCount == 0 ? null : (double) (estimate - trueCount) / trueCount, ipv6Folded);
        }
    }

    /**
     * HashPipe's results: the configuration the top-k was read with, the IPv6 packets of the
     * run an IPv4-only key folded into IPv4 keys, and the {@code top_k} flows (the collector's
     * readout of every pipe's stage registers, merged), largest estimate first.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Results(int k, int stages, int slotsPerStage, String keyKind, String counts, int pipes,
                          long packets, long ipv6PacketsFolded, List<TopFlow> topK) implements ProgramResults {
        /** Each top-k flow's estimate against its true count (y = x is exact), and its relative error. */
        @Override
        public List<PlotSpec> plots() {
            return List.of(PlotSpec.estimateVsTruth("top_k", "top-k flows: estimate against true count", "true",
                    "flow size (" + counts + ")", PlotSpec.ErrorMeasure.RELATIVE, "estimate").labelled("key"));
        }

        @Override
        public List<String> warnings() {
            if (ipv6PacketsFolded == 0) {
                return List.of();
            }
            return List.of(HashPipeProgram.NAME + ": key=" + keyKind + " holds IPv4 flows only, and " + ipv6PacketsFolded
                    + " of " + packets + " packets were IPv6: the switch counted them under IPv4 keys folded from their"
                    + " addresses (top_k's true leaves them out, its ipv6_folded counts them); use key="
                    + KeyKind.FINGERPRINT.label() + ", which keys IPv6 flows by their whole 5-tuple");
        }

        @Override
        public String render() {
            // a column of the IPv6 packets folded into each key (which true leaves out) only when there were any
            boolean folded = ipv6PacketsFolded > 0;
            int keyWidth = 14;
            for (TopFlow f : topK) {
                keyWidth = Math.max(keyWidth, f.key().length());
            }
            StringBuilder b = new StringBuilder();
            b.append(String.format(Locale.ROOT, "HashPipe top %d (d=%d, %d slots per stage, key %s, %s; tables of %d pipe(s) merged)%n",
                    k, stages, slotsPerStage, keyKind, counts, pipes));
            if (folded) {
                b.append(String.format(Locale.ROOT, "  key %s holds IPv4 flows only: %d of %d packets were IPv6 and are counted"
                        + " under folded keys; true counts IPv4 packets only, v6 folded the rest%n", keyKind, ipv6PacketsFolded, packets));
            }
            String row = "  %4s  %-" + keyWidth + "s %12s %12s %8s" + (folded ? " %10s" : "%s") + "  %s%n";
            b.append(String.format(Locale.ROOT, row, "rank", "key", "estimate", "true", "error %", folded ? "v6 folded" : "",
                    "first 5-tuple with this key"));
            for (TopFlow f : topK) {
                b.append(String.format(Locale.ROOT, row, f.rank(), f.key(), f.estimate(), f.trueCount(),
                        f.error() == null ? "-" : String.format(Locale.ROOT, "%.2f", 100 * f.error()),
                        folded ? Long.toString(f.ipv6Folded()) : "", f.fiveTuple()));
            }
            return b.toString();
        }
    }

    /** The results of a run of {@code hashpipe} with {@code cfg}: the top {@code k} of the switch with their truth. */
    public static Results results(PipelineState state, HashPipeConfig cfg, int k, String trace,
                                  long packets) {
        Truth t = truth(state, cfg, k, trace, packets);
        List<TopFlow> top = new ArrayList<>();
        for (Row r : t.rows()) {
            top.add(TopFlow.of(top.size() + 1, cfg.key().format(r.flow().keyLo(), r.flow().keyHi()), r.fiveTuple(),
                    r.flow().count(), r.trueCount(), r.ipv6Folded()));
        }
        return new Results(k, cfg.stages(), cfg.countersPerStage(), cfg.key().label(), cfg.countBytes() ? "bytes" : "packets",
                state.pipes(), t.packets(), t.ipv6PacketsFolded(), top);
    }

    @Override
    public Results results(ReplayResult result) {
        ReplayOptions o = result.options();
        HashPipeParams x = HashPipeParams.of(result.engine().state().program());
        return results(result.engine().state(), x.config(), x.top(), o.trace(), result.packetsRead());
    }
}

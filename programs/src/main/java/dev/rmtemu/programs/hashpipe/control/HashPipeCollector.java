package dev.rmtemu.programs.hashpipe.control;

import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.HashPipeProgram;
import dev.rmtemu.programs.hashpipe.program.WideCell;

import dev.rmtemu.model.runtime.PipelineState;

import java.util.List;

/**
 * The control-plane half of HashPipe: reads every stage's table from every
 * pipe ({@code snapshot} / {@code snapshotHi} of the primary arrays), merges
 * duplicate keys (sum of counts: a flow can sit in several stages, and in
 * several pipes) and reports the flows by count.
 */
public final class HashPipeCollector {
    private HashPipeCollector() {
    }

    /** The tables of one pipe as they sit in the switch: [stage][slot] key lo, key hi, count. */
    public record Tables(long[][] keyLo, long[][] keyHi, long[][] count) {
    }

    /** Reads pipe {@code pipe}'s tables through the control plane. */
    public static Tables read(PipelineState state, HashPipeConfig cfg, int pipe) {
        int d = cfg.stages();
        long[][] lo = new long[d][];
        long[][] hi = new long[d][];
        long[][] count = new long[d][];
        for (int i = 0; i < d; i++) {
            long[] wordLo = state.snapshot(pipe, HashPipeProgram.tableName(i));
            long[] wordHi = state.snapshotHi(pipe, HashPipeProgram.tableName(i));
            if (cfg.key().wide()) {
                long[] kh = new long[wordHi.length];
                long[] c = new long[wordHi.length];
                for (int s = 0; s < wordHi.length; s++) {
                    kh[s] = WideCell.keyHi(wordHi[s]);
                    c[s] = WideCell.count(wordHi[s]);
                }
                hi[i] = kh;
                count[i] = c;
            } else {
                hi[i] = new long[wordLo.length];
                count[i] = wordHi;
            }
            lo[i] = wordLo;
        }
        return new Tables(lo, hi, count);
    }

    /** Every flow in every pipe's tables, duplicates summed, largest first. */
    public static List<FlowCount> collect(PipelineState state, HashPipeConfig cfg) {
        KeyCountMap merged = new KeyCountMap(cfg.totalCounters());
        for (int p = 0; p < state.pipes(); p++) {
            Tables t = read(state, cfg, p);
            mergeInto(merged, t.keyLo(), t.keyHi(), t.count());
        }
        return FlowCount.sorted(merged);
    }

    /** The top {@code k} flows of the switch. */
    public static List<FlowCount> topK(PipelineState state, HashPipeConfig cfg, int k) {
        return FlowCount.top(collect(state, cfg), k);
    }

    public static List<FlowCount> merge(long[][] lo, long[][] hi, long[][] count) {
        KeyCountMap merged = new KeyCountMap(lo.length * (lo.length == 0 ? 1 : lo[0].length));
        mergeInto(merged, lo, hi, count);
        return FlowCount.sorted(merged);
    }

    private static void mergeInto(KeyCountMap merged, long[][] lo, long[][] hi, long[][] count) {
        for (int i = 0; i < lo.length; i++) {
            for (int s = 0; s < lo[i].length; s++) {
                if (lo[i][s] != 0) {
                    merged.add(lo[i][s], hi[i][s], count[i][s]);
                }
            }
        }
    }

    /** (occupied slots - distinct keys) / occupied slots: the share of slots spent on duplicates. */
    public static double duplicateShare(long[][] lo, long[][] hi, long[][] count) {
        KeyCountMap distinct = new KeyCountMap(lo.length * (lo.length == 0 ? 1 : lo[0].length));
        long occupied = 0;
        for (int i = 0; i < lo.length; i++) {
            for (int s = 0; s < lo[i].length; s++) {
                if (lo[i][s] != 0) {
                    occupied++;
                    distinct.add(lo[i][s], hi[i][s], 1);
                }
            }
        }
        return occupied == 0 ? 0 : (double) (occupied - distinct.size()) / occupied;
    }
}

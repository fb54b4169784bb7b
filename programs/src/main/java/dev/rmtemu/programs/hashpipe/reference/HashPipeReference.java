package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;

import java.util.Arrays;
import java.util.List;

/**
 * HashPipe in plain Java: the same algorithm, hashes, slot layout, tie rule and
 * count arithmetic as the stage program, so its tables equal the switch's after
 * every packet. It is the test oracle and the speed baseline.
 *
 * <p>Stage 1 always inserts (hit: add; miss: write the packet's entry, carry
 * the resident out). Stage i > 1 on the carried entry: hit adds and stops; an
 * empty slot (count 0) takes the entry and stops; otherwise the entry with the
 * larger count stays (a tie keeps the resident) and the other is carried on.
 * After stage d the carried entry is dropped.
 */
public final class HashPipeReference implements HeavyHitters {
    private final HashPipeConfig cfg;
    private final KeyHash[] hashes;
    private final long[][] keyLo;
    private final long[][] keyHi;
    private final long[][] count;
    private final long countMask;
    private final boolean saturate;

    public HashPipeReference(HashPipeConfig cfg) {
        this.cfg = cfg;
        int d = cfg.stages();
        int n = cfg.countersPerStage();
        hashes = new KeyHash[d];
        keyLo = new long[d][n];
        keyHi = new long[d][n];
        count = new long[d][n];
        for (int i = 0; i < d; i++) {
            hashes[i] = new KeyHash(cfg.stageHash(i), cfg.key());
        }
        countMask = (1L << cfg.countBits()) - 1;
        saturate = cfg.countSaturates();
    }

    @Override
    public String name() {
        return "hashpipe d=" + cfg.stages();
    }

    public HashPipeConfig config() {
        return cfg;
    }

    private long plus(long a, long b) {
        return saturate ? Math.min(countMask, a + b) : (a + b) & countMask;
    }

    @Override
    public void update(long lo, long hi, long inc) {
        int size = cfg.countersPerStage();
        long cLo = lo;
        long cHi = hi;
        long cCount = inc & countMask;
        for (int i = 0; i < hashes.length; i++) {
            int s = hashes[i].index(cLo, cHi, size);
            long[] kl = keyLo[i];
            long[] kh = keyHi[i];
            long[] c = count[i];
            if (kl[s] == cLo && kh[s] == cHi) {
                c[s] = plus(c[s], cCount);
                return;
            }
            long rLo = kl[s];
            long rHi = kh[s];
            long rCount = c[s];
            if (i == 0 || rCount < cCount) {
                kl[s] = cLo;
                kh[s] = cHi;
                c[s] = cCount;
                if (rCount == 0) {
                    return; // the slot was empty
                }
                cLo = rLo;
                cHi = rHi;
                cCount = rCount;
            }
        }
    }

    @Override
    public List<FlowCount> report() {
        return HashPipeCollector.merge(keyLo, keyHi, count);
    }

    @Override
    public void reset() {
        for (int i = 0; i < hashes.length; i++) {
            Arrays.fill(keyLo[i], 0);
            Arrays.fill(keyHi[i], 0);
            Arrays.fill(count[i], 0);
        }
    }

    @Override
    public double duplicateShare() {
        return HashPipeCollector.duplicateShare(keyLo, keyHi, count);
    }

    /** Stage {@code i}'s key words (lo), a live view for tests. */
    public long[] keysLo(int i) {
        return keyLo[i];
    }

    public long[] keysHi(int i) {
        return keyHi[i];
    }

    public long[] counts(int i) {
        return count[i];
    }
}

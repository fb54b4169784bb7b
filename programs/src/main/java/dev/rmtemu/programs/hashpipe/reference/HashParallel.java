package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;

import java.util.Arrays;
import java.util.List;

/**
 * HashParallel, the paper's idealised step between space saving and HashPipe
 * (SOSR 2017, Section 3.2, Algorithm 2): one table of m slots, d hash functions;
 * a packet looks at its d slots at once: a hit increments, else an empty slot
 * takes (key, inc), else the slot with the smallest count (first of equals) takes
 * the key and keeps its count plus inc — space saving's replacement (Algorithm 1)
 * over a sample of d slots, so the newcomer inherits the evicted count as the
 * bound on its error. No key is ever duplicated. Not implementable in a pipeline (d reads of one array per
 * packet); it shows what HashPipe loses by carrying instead of looking ahead.
 */
public final class HashParallel implements HeavyHitters {
    private final int d;
    private final KeyHash[] hashes;
    private final long[] lo;
    private final long[] hi;
    private final long[] count;
    private final int[] slots;

    public HashParallel(int slots, HashPipeConfig hashesFrom) {
        this.d = hashesFrom.stages();
        this.hashes = new KeyHash[d];
        for (int i = 0; i < d; i++) {
            hashes[i] = new KeyHash(hashesFrom.stageHash(i), hashesFrom.key());
        }
        lo = new long[slots];
        hi = new long[slots];
        count = new long[slots];
        this.slots = new int[d];
    }

    @Override
    public String name() {
        return "hashparallel d=" + d;
    }

    @Override
    public void update(long l, long h, long inc) {
        int n = lo.length;
        int empty = -1;
        int min = -1;
        for (int i = 0; i < d; i++) {
            int s = hashes[i].index(l, h, n);
            slots[i] = s;
            if (lo[s] == l && hi[s] == h) {
                count[s] += inc;
                return;
            }
            if (lo[s] == 0) {
                if (empty < 0) {
                    empty = s;
                }
            } else if (min < 0 || count[s] < count[min]) {
                min = s;
            }
        }
        int s = empty >= 0 ? empty : min;
        lo[s] = l;
        hi[s] = h;
        count[s] = empty >= 0 ? inc : count[s] + inc;
    }

    @Override
    public List<FlowCount> report() {
        return HashPipeCollector.merge(new long[][] {lo}, new long[][] {hi}, new long[][] {count});
    }

    @Override
    public void reset() {
        Arrays.fill(lo, 0);
        Arrays.fill(hi, 0);
        Arrays.fill(count, 0);
    }
}

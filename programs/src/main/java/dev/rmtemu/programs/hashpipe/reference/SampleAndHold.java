package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.KeyCountMap;

import dev.rmtemu.traces.gen.SplitMix64;

import java.util.List;

/**
 * Sample and hold (Estan and Varghese, SIGCOMM 2002): a packet of an unheld
 * flow is sampled with probability p (per byte when counting bytes: 1-(1-p)^b
 * ≈ min(1, p·b)); a sampled flow is held in one of m slots from then on and
 * every later packet counted exactly. When the table is full, new samples are
 * dropped. Seeded, so runs repeat.
 */
public final class SampleAndHold implements HeavyHitters {
    private final KeyCountMap held;
    private final int slots;
    private final double p;
    private final SplitMix64 random;

    /** @param p sampling probability per counted unit (packet or byte) */
    public SampleAndHold(int slots, double p, long seed) {
        this.slots = slots;
        this.p = p;
        this.held = new KeyCountMap(slots);
        this.random = new SplitMix64(seed);
    }

    @Override
    public String name() {
        return "sample&hold";
    }

    @Override
    public void update(long lo, long hi, long inc) {
        int s = held.find(lo, hi);
        if (s >= 0) {
            held.value(s, held.value(s) + inc);
        } else if (held.size() < slots && random.nextDouble() < Math.min(1.0, p * inc)) {
            held.add(lo, hi, inc);
        }
    }

    @Override
    public List<FlowCount> report() {
        return FlowCount.sorted(held);
    }

    @Override
    public void reset() {
        // the random stream runs on across intervals
        held.clear();
    }
}

package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.programs.midst.control.MidstCollector;

/**
 * How well a run's reports find the heavy losers (flows that lost at least the threshold),
 * scored twice: against every drop (the full ground truth, from the traffic manager) and
 * against the observable drops only (those a later departure of the same flow follows out,
 * which is when egress can report them).
 *
 * @param truth           heavy losers by every drop
 * @param truthObservable heavy losers by the observable drops
 * @param reported        flows the switch reported at or above the threshold
 * @param both            reported and heavy by every drop
 * @param bothObservable  reported and heavy by the observable drops
 */
record HeavyLoserScore(int truth, int truthObservable, int reported, int both, int bothObservable) {

    /** Per flow id (source address − {@link MidstTraffic#FLOW_BASE}), the loss the collector's reports add up to. */
    static long[] estimates(MidstCollector collector, int flows) {
        long[] est = new long[flows];
        for (MidstCollector.FlowReport f : collector.flows()) {
            int id = f.src() - MidstTraffic.FLOW_BASE;
            if (id >= 0 && id < flows) {
                est[id] += f.loss();
            }
        }
        return est;
    }

    static HeavyLoserScore of(long[] loss, long[] observable, long[] estimate, long threshold) {
        int truth = 0;
        int truthObservable = 0;
        int reported = 0;
        int both = 0;
        int bothObservable = 0;
        for (int f = 0; f < loss.length; f++) {
            boolean heavy = loss[f] >= threshold;
            boolean seen = observable[f] >= threshold;
            boolean says = estimate[f] >= threshold;
            truth += heavy ? 1 : 0;
            truthObservable += seen ? 1 : 0;
            reported += says ? 1 : 0;
            both += heavy && says ? 1 : 0;
            bothObservable += seen && says ? 1 : 0;
        }
        return new HeavyLoserScore(truth, truthObservable, reported, both, bothObservable);
    }

    double precision() {
        return reported == 0 ? 1 : (double) both / reported;
    }

    double recall() {
        return truth == 0 ? 1 : (double) both / truth;
    }

    double f1() {
        return f1(precision(), recall());
    }

    double precisionObservable() {
        return reported == 0 ? 1 : (double) bothObservable / reported;
    }

    double recallObservable() {
        return truthObservable == 0 ? 1 : (double) bothObservable / truthObservable;
    }

    double f1Observable() {
        return f1(precisionObservable(), recallObservable());
    }

    private static double f1(double p, double r) {
        return p + r == 0 ? 0 : 2 * p * r / (p + r);
    }
}

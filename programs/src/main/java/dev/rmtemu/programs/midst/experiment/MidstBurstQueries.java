package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.programs.midst.control.MidstLossQuery;
import dev.rmtemu.programs.midst.control.MidstSwitch;

/**
 * The control plane's S_loss queries of a burst run: it reads S_in and S_out
 * {@link MidstExperiment#QUERY_GUARD_NS} before each next burst interval starts (the queue has
 * drained by then), at simulated cycles scheduled before the traffic flows.
 */
final class MidstBurstQueries {
    private final MidstLossQuery[] ends;

    private MidstBurstQueries(int bursts) {
        this.ends = new MidstLossQuery[bursts];
    }

    /** Schedules one query at the end of each of {@code spec}'s burst intervals on {@code sw}. */
    static MidstBurstQueries schedule(MidstSwitch sw, MidstTraffic.Spec spec) {
        MidstBurstQueries q = new MidstBurstQueries(spec.bursts());
        for (int k = 0; k < spec.bursts(); k++) {
            final int kk = k;
            long at = sw.engine().clock().nsToCycles((k + 1) * spec.burstIntervalNs() - MidstExperiment.QUERY_GUARD_NS);
            sw.engine().scheduleControl(at, (state, cycle) -> q.ends[kk] = MidstLossQuery.read(sw));
        }
        return q;
    }

    /** What burst interval {@code k} added to the sketches (the run has drained). */
    MidstLossQuery interval(int k) {
        return k == 0 ? ends[0] : ends[k].minus(ends[k - 1]);
    }
}

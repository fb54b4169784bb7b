package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.emulator.run.SwitchFeed;
import dev.rmtemu.programs.midst.control.MidstLossQuery;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.reference.NegativeMirror;

import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.traces.PacketRecord;

/**
 * Experiment (d): as the drop volume grows, a negative-mirroring baseline
 * ({@link NegativeMirror}) loses reports when its mirror port's queue overflows, while
 * MIDST's end-of-interval S_loss query ({@link MidstLossQuery}) needs no report bandwidth.
 * One run of {@link MidstTraffic} through a MIDST switch with monitoring held on; the
 * control plane reads the sketches at the end of every burst interval. The drop log is the
 * traffic manager's: a packet that never left the monitored port was tail-dropped when it
 * reached the traffic manager (arrival + the ingress pipeline's latency), which is when its
 * mirror copy is offered to the mirror queue.
 */
public final class MidstDropVolume {
    /** The control plane reads this long before the next burst interval. */
    static final long QUERY_GUARD_NS = MidstExperiment.QUERY_GUARD_NS;

    /** Losers (flows with at least one drop) and heavy losers (at least the threshold), true and as each method reports them. */
    public record Result(double overload, long packets, long drops, long mirrorDelivered, long mirrorLost, long heavyThreshold,
                         int trueLosers, int trueHeavy, int mirrorLosers, int mirrorHeavy, long midstLoss,
                         int midstLosers, int midstLosersHit, int midstHeavy, int midstHeavyHit) {
        public double mirrorLoserRecall() {
            return trueLosers == 0 ? 1 : (double) mirrorLosers / trueLosers;
        }

        public double mirrorHeavyRecall() {
            return trueHeavy == 0 ? 1 : (double) mirrorHeavy / trueHeavy;
        }

        public double midstLoserRecall() {
            return trueLosers == 0 ? 1 : (double) midstLosersHit / trueLosers;
        }

        public double midstLoserPrecision() {
            return midstLosers == 0 ? 1 : (double) midstLosersHit / midstLosers;
        }

        public double midstHeavyRecall() {
            return trueHeavy == 0 ? 1 : (double) midstHeavyHit / trueHeavy;
        }

        public double midstHeavyPrecision() {
            return midstHeavy == 0 ? 1 : (double) midstHeavyHit / midstHeavy;
        }
    }

    private MidstDropVolume() {
    }

    /**
     * @param mirrorGbps  rate of the mirror port
     * @param mirrorCells its queue limit in cells
     * @param copyBytes   bytes of each mirrored copy (truncation)
     * @param hlFraction  heavy loser: at least this share of all drops
     */
    public static Result run(MidstConfig cfg, TargetProfile profile, MidstTraffic.Spec spec, int queueCells, double mirrorGbps,
                             int mirrorCells, int copyBytes, double hlFraction) {
        MidstSwitch sw = new MidstSwitch(cfg, profile, spec.outputGbps(), queueCells);
        sw.monitorAlways();
        int total = (int) spec.totalPackets();
        boolean[] departed = new boolean[total];
        long[] arrivalCycle = new long[total];
        int[] flowOf = new int[total];
        int dataPort = cfg.dataPort();
        sw.onDeparture((c, port, s, pool) -> {
            if (port == dataPort) {
                departed[pool.record(s).payloadHash()] = true;
            }
        });
        MidstBurstQueries queries = MidstBurstQueries.schedule(sw, spec);
        SwitchFeed feed = new SwitchFeed(sw.engine());
        feed.feed(new MidstTraffic(spec)::next, PacketRecord::ingressPort, (cycle, r) -> {
            int g = r.payloadHash();
            arrivalCycle[g] = cycle;
            flowOf[g] = MidstTraffic.flowOf(r);
        });
        feed.drainAndCheck();

        int flows = spec.flows();
        long[] loss = new long[flows];
        long[] mirrored = new long[flows];
        NegativeMirror mirror = new NegativeMirror(profile.clockHz(), mirrorGbps, mirrorCells, copyBytes);
        long toTm = sw.engine().ingressToTmCycles();
        long drops = 0;
        for (int g = 0; g < total; g++) {
            if (!departed[g]) {
                drops++;
                loss[flowOf[g]]++;
                if (mirror.offer(arrivalCycle[g] + toTm, g)) {
                    mirrored[flowOf[g]]++;
                }
            }
        }
        long tmDrops = sw.engine().trafficManager().droppedPackets(dataPort, DropCause.QUEUE_LIMIT);
        if (tmDrops != drops) {
            throw new IllegalStateException("drop log: " + drops + " packets never left, the traffic manager dropped " + tmDrops);
        }
        long[] est = new long[flows];
        for (int k = 0; k < spec.bursts(); k++) {
            MidstLossQuery interval = queries.interval(k);
            for (int f = 0; f < flows; f++) {
                est[f] += interval.loss(MidstExperiment.trafficFlow(f));
            }
        }
        long threshold = Math.max(1, (long) Math.ceil(hlFraction * drops));
        int trueLosers = 0;
        int trueHeavy = 0;
        int mirrorLosers = 0;
        int mirrorHeavy = 0;
        int midstLosers = 0;
        int midstLosersHit = 0;
        int midstHeavy = 0;
        int midstHeavyHit = 0;
        long midstLoss = 0;
        for (int f = 0; f < flows; f++) {
            boolean loser = loss[f] > 0;
            boolean heavy = loss[f] >= threshold;
            trueLosers += loser ? 1 : 0;
            trueHeavy += heavy ? 1 : 0;
            mirrorLosers += mirrored[f] > 0 ? 1 : 0; // copies are never invented: every one is a true loser
            mirrorHeavy += mirrored[f] >= threshold ? 1 : 0;
            midstLoss += est[f];
            midstLosers += est[f] > 0 ? 1 : 0;
            midstLosersHit += est[f] > 0 && loser ? 1 : 0;
            midstHeavy += est[f] >= threshold ? 1 : 0;
            midstHeavyHit += est[f] >= threshold && heavy ? 1 : 0;
        }
        return new Result(spec.overload(), total, drops, mirror.offered() - mirror.lost(), mirror.lost(), threshold, trueLosers,
                trueHeavy, mirrorLosers, mirrorHeavy, midstLoss, midstLosers, midstLosersHit, midstHeavy, midstHeavyHit);
    }
}

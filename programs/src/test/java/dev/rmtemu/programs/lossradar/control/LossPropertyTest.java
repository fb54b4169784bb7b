package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.Signature;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.impair.BernoulliLoss;
import dev.rmtemu.traces.impair.GroundTruthLog;
import dev.rmtemu.traces.impair.ImpairmentDecision;
import dev.rmtemu.traces.PacketSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random loss sets up to a digest's designed capacity (cells / 1.5 with k = 3) decode
 * exactly to the packets the impairment dropped (its ground-truth log) in the vast
 * majority of trials; a trial that does not decode fully counts every loss and decodes
 * only packets that were lost.
 */
class LossPropertyTest {
    private static final int TRIALS = 200;
    private static final int PACKETS = 1500;
    private static final double CAPACITY_RATIO = 1.5;

    @Test
    void randomLossSetsDecodeToTheGroundTruth() {
        LossRadarConfig c = LossRadarConfig.defaults().withCells(96);
        int capacity = (int) (c.cells() / CAPACITY_RATIO);
        RecordBuffer trace;
        try (PacketSource s = TraceSpec.open("gen:tcp?packets=" + PACKETS + "&flows=40&seed=5&start=0")) {
            trace = RecordBuffer.load(s, PACKETS);
        }
        int complete = 0;
        int tried = 0;
        int[] sig = new int[c.words()];
        ImpairmentDecision d = new ImpairmentDecision();
        for (int t = 0; t < TRIALS; t++) {
            // loss rates so that the expected loss count sweeps 1..capacity
            double p = (1 + (t % capacity)) / (double) PACKETS;
            BernoulliLoss loss = new BernoulliLoss(p, 1000 + t);
            GroundTruthLog log = new GroundTruthLog();
            IbfDigest um = IbfDigest.of(c);
            IbfDigest dm = IbfDigest.of(c);
            for (int i = 0; i < trace.size(); i++) {
                PacketRecord r = trace.get(i);
                Signature.of(r, r.ttl(), 0, c, sig);
                um.insert(sig);
                d.reset();
                loss.decide(r, i, d);
                if (d.dropped()) {
                    log.add(i, GroundTruthLog.DROP, d.dropCause());
                } else {
                    dm.insert(sig);
                }
            }
            if (log.size() > capacity) {
                continue; // beyond the designed capacity: not this property
            }
            tried++;
            Set<LostPacket> truth = new HashSet<>();
            List<LostPacket> truthList = new ArrayList<>();
            for (int e = 0; e < log.size(); e++) {
                PacketRecord r = trace.get((int) log.packetIndex(e));
                Signature.of(r, r.ttl(), 0, c, sig);
                truth.add(new LostPacket(sig));
                truthList.add(new LostPacket(sig));
            }
            truthList.sort(null);
            IbfDecoder.Result res = IbfDecoder.peel(um.minus(dm));
            assertEquals(log.size(), res.counted(), "trial " + t + ": every loss is counted");
            for (LostPacket lp : res.lost()) {
                assertTrue(truth.contains(lp), "trial " + t + ": decoded a packet that was not lost: " + lp);
            }
            if (res.complete()) {
                complete++;
                assertEquals(truthList, res.lost(), "trial " + t);
            } else {
                assertTrue(res.decoded() < res.counted(), res.summary());
            }
        }
        assertTrue(tried >= TRIALS * 9 / 10, "most trials within capacity: " + tried);
        assertTrue(complete >= tried * 95 / 100, complete + " of " + tried + " decoded fully");
    }
}

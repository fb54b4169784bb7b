package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.programs.midst.program.MidstConfig;

import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MidstShrewTest {
    private static final long MS = 1_000_000;

    private static MidstShrew.Result run(long attackStartNs, long queryNs) {
        MidstShrew.Spec spec = new MidstShrew.Spec(50, MS, 4 * MS, 5 * MS, 0.5, new long[] {15 * MS, 25 * MS}, MS, 10,
                attackStartNs, 60 * MS, 1000, 10, 1000, 2000);
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 4096).withWaterMarks(250, 25).withThresholds(1, 300);
        return new MidstShrew(spec, cfg, TargetProfiles.builtIn("tofino1"), queryNs).run(1_000, 300);
    }

    /** The paper's set-up in small: one attacker, RTTs spread over 1..40 ms, a period of 20 ms. */
    private static MidstShrew.Result single(long attackStartNs) {
        MidstShrew.Spec spec = new MidstShrew.Spec(40, MS, 40 * MS, 5 * MS, 0.5, new long[] {20 * MS}, MS, 10,
                attackStartNs, 120 * MS, 1000, 10, 1000, 2000);
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 4096).withWaterMarks(250, 25).withThresholds(1, 300);
        return new MidstShrew(spec, cfg, TargetProfiles.builtIn("tofino1"), 0).run(1_000, 300);
    }

    @Test
    void oneAttackerTargetsTheFlowWhoseRttIsNearItsPeriod() {
        MidstShrew.Result attacked = single(5 * MS);
        MidstShrew.Result calm = single(Long.MAX_VALUE / 2);
        assertEquals(1, attacked.attackers());
        assertEquals(19, attacked.target().flow()); // 1 + 39 x 19 / 39 = 20 ms
        assertEquals(20 * MS, attacked.target().rttNs());
        assertEquals(attacked.target().flow(), calm.target().flow());
        assertEquals(1, attacked.attackersReported(), attacked.toString());
        assertEquals(0, calm.attackDrops());
        // the top loser MIDST reports is one of the TCP flows (its RTT is one of theirs), none without reports
        assertTrue(attacked.target().topLoserRttNs() >= MS && attacked.target().topLoserRttNs() <= 40 * MS, attacked.toString());
        assertTrue(attacked.target().lossRate() >= 0 && attacked.target().lossRate() <= 1);
    }

    @Test
    void attackersAreBurstyVictimsAreHeavyLosersAndTcpBacksOff() {
        MidstShrew.Result reports = run(5 * MS, 0);
        assertEquals(reports, run(5 * MS, 0), "deterministic");
        assertTrue(reports.attackDrops() > 500 && reports.tcpDrops() > 50, reports.toString());
        assertEquals(2, reports.attackersReported(), reports.toString());
        assertEquals(1.0, reports.attackerRecall(), 1e-9);
        assertTrue(reports.victimsReported() > 0 && reports.victimPrecision() == 1.0, reports.toString());

        // the S_loss query never underestimates: every victim is named (none of them is bursty)
        MidstShrew.Result query = run(5 * MS, 10 * MS);
        assertEquals(2, query.attackersReported(), query.toString());
        assertTrue(query.victimsTrue() > 0, query.toString());
        assertEquals(1.0, query.victimRecall(), 1e-9, query.toString());
        assertEquals(7, query.monitorIntervals(), "reads at 10, 20, ..., 60 ms and the last after the drain");

        // the closed loop: without the attack the TCP flows lose far less and deliver more
        MidstShrew.Result calm = run(Long.MAX_VALUE / 2, 0);
        assertEquals(0, calm.attackDrops());
        assertTrue(calm.tcpDrops() < reports.tcpDrops(), calm + " vs " + reports);
        assertTrue(calm.tcpGbps() > reports.tcpGbps(), calm + " vs " + reports);
        assertEquals(0, calm.attackersReported());
    }
}

package dev.rmtemu.programs.midst;

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

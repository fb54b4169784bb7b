package dev.rmtemu.programs.wbmon;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetBouncerTest {

    @Test
    void publishedUpdateRulesBySignOfR() {
        assertEquals(0.5, NetBouncer.update(2, 1), 1e-12);   // convex: T
        assertEquals(1.0, NetBouncer.update(2, 3), 1e-12);   // convex: T clamped to 1
        assertEquals(0.0, NetBouncer.update(2, -1), 1e-12);  // convex: T clamped to 0
        assertEquals(1.0, NetBouncer.update(-2, -0.5), 1e-12); // concave, T = 0.25 < 1/2: the end at 1
        assertEquals(0.0, NetBouncer.update(-2, -1.5), 1e-12); // concave, T = 0.75: the end at 0
        assertEquals(1.0, NetBouncer.update(0, 1), 1e-12);
        assertEquals(0.0, NetBouncer.update(0, -1), 1e-12);
    }

    @Test
    void initialGuessIsThePacketWeightedMeanOfThePathsThroughEachLink() {
        int[][] paths = {{0, 1}, {1, 2}, {0, 2}, {1}};
        double[] y = {0.9, 1.0, 0.8, 1.0};
        double[] w = {100, 100, 300, 100};
        NetBouncer.Result r = NetBouncer.solve(3, paths, y, w, new NetBouncer.Params(1e-4, 1e-12, 0));
        assertEquals((0.9 * 100 + 0.8 * 300) / 400, r.x()[0], 1e-12);
        assertEquals((0.9 + 1.0 + 1.0) / 3, r.x()[1], 1e-12);
        assertEquals((1.0 * 100 + 0.8 * 300) / 400, r.x()[2], 1e-12);
        assertEquals(0, r.sweeps());
    }

    @Test
    void recoversALossyLinkFromConsistentPathRates() {
        // true x = (0.9, 1, 1): every path's rate is the product of its links'
        int[][] paths = {{0, 1}, {1, 2}, {0, 2}, {1}};
        double[] y = {0.9, 1.0, 0.9, 1.0};
        double[] w = {1, 1, 1, 1};
        NetBouncer.Result r = NetBouncer.solve(3, paths, y, w, NetBouncer.Params.DEFAULTS);
        assertEquals(0.9, r.x()[0], 2e-3);
        assertEquals(1.0, r.x()[1], 2e-3);
        assertEquals(1.0, r.x()[2], 2e-3);
        assertTrue(r.objective() < 1e-4, "objective " + r.objective());
        double start = NetBouncer.objective(new double[] {0.9, 0.9667, 0.95}, paths, y, 1e-4);
        assertTrue(r.objective() < start);
    }

    @Test
    void strongRegularisationPushesToTheEnds() {
        int[][] paths = {{0}};
        NetBouncer.Result r = NetBouncer.solve(1, paths, new double[] {0.7}, new double[] {1}, new NetBouncer.Params(5, 1e-12, 100));
        assertEquals(1.0, r.x()[0], 1e-12, "R = 2 - 10 < 0, T = (1.4 - 5) / -8 = 0.45 < 1/2");
    }
}

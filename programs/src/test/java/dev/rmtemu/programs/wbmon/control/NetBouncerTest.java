package dev.rmtemu.programs.wbmon.control;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

    /**
     * NetBouncer's failure inference (Tan et al., NSDI 2019, Section 5, Algorithm 1; the WBMon
     * dissertation, Section 4.4, adopts the same objective but prints no worked example) on four
     * paths over seven links, two edge pairs joined by a shared middle link: paths {0,1,2,3},
     * {0,1,2,4}, {5,6,2,3}, {5,6,2,4} (the small system a public re-implementation of Algorithm 1
     * checks itself on). Links 5 and 6 lie on the same paths, so they are indistinguishable: one
     * of them explains a loss there.
     *
     * <p>Once a link is at 0, every other link on the paths through it has a_j = 0, so R = −2λ and
     * S = −λ: T = 1/2 exactly, a tie between the ends of a concave objective, which Algorithm 1
     * resolves to 1 (T ≤ 1/2 keeps the link). Breaking it towards 0 blamed link 5 as well.
     */
    @Test
    void healthyLinksStayHealthyOnThePublishedExample() {
        int[][] paths = {{0, 1, 2, 3}, {0, 1, 2, 4}, {5, 6, 2, 3}, {5, 6, 2, 4}};
        double[] w = {1, 1, 1, 1};
        double[] expected = {1, 1, 1, 0, 1, 1, 0};
        // links 3 and 6 fail-stop, solver defaults
        double[] failStop = {0.0, 1.0, 0.0, 0.0};
        assertArrayEquals(expected, NetBouncer.solve(7, paths, failStop, w, NetBouncer.Params.DEFAULTS).x(), 1e-9);
        // links 3 and 6 drop 75 % each; λ = 1 pushes both to 0 and must leave link 5 at 1
        double[] partial = {0.25, 1.0, 0.0625, 0.25};
        assertArrayEquals(expected, NetBouncer.solve(7, paths, partial, w, new NetBouncer.Params(1.0, 1e-12, 100)).x(), 1e-9);
    }

    @Test
    void tiesGoToTheHealthyEnd() {
        assertEquals(1.0, NetBouncer.update(-2, -1), 1e-12, "concave, T = 1/2: both ends equal, keep the link healthy");
        assertEquals(1.0, NetBouncer.update(0, 0), 1e-12, "flat objective: keep the link healthy");
    }
}

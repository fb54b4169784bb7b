package dev.rmtemu.programs.midst.experiment;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.reference.NegativeMirror;

import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MidstDropVolumeTest {
    private static MidstDropVolume.Result run(double overload, double mirrorGbps) {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, MidstConfig.columnsFor(256, 2));
        MidstTraffic.Spec spec = new MidstTraffic.Spec(3_000, 1.0, 1000, 10, overload, 4_000, 2, 3_000_000L,
                new int[] {3, 4, 5, 6, 7, 8, 9, 10}, 4);
        return MidstDropVolume.run(cfg, TargetProfiles.builtIn("tofino1"), spec, 400, mirrorGbps, 100, 64, 0.002);
    }

    @Test
    void mirrorLosesReportsUnderHeavyDropsAndTheQueryDoesNot() {
        MidstDropVolume.Result heavy = run(6, 1);
        assertTrue(heavy.drops() > 5_000, heavy.toString());
        assertTrue(heavy.mirrorLost() > heavy.drops() / 2, heavy.toString());
        assertEquals(heavy.drops(), heavy.mirrorDelivered() + heavy.mirrorLost());
        assertTrue(heavy.mirrorHeavy() < heavy.trueHeavy(), heavy.toString());
        assertEquals(1.0, heavy.midstHeavyRecall(), 1e-9);
        assertEquals(1.0, heavy.midstLoserRecall(), 1e-9);
        assertTrue(heavy.midstLoss() >= heavy.drops(), "S_loss never underestimates");

        // few drops, a fast mirror port: every report arrives
        MidstDropVolume.Result light = run(1.3, 10);
        assertTrue(light.drops() > 0, light.toString());
        assertEquals(0, light.mirrorLost());
        assertEquals(light.trueLosers(), light.mirrorLosers());
    }

    @Test
    void mirrorQueueTailDropsAtItsLimit() {
        // 1-cell copies offered in one cycle: the first starts at once, 100 wait, the rest are lost
        NegativeMirror m = new NegativeMirror(1_220_000_000L, 1, 100, 64);
        int delivered = 0;
        for (int i = 0; i < 500; i++) {
            delivered += m.offer(1_000, i) ? 1 : 0;
        }
        assertEquals(101, delivered);
        assertEquals(399, m.lost());
        // spaced wider than a copy's serialisation (84 B at 1 Gb/s = 672 ns = 820 cycles): nothing lost
        NegativeMirror slow = new NegativeMirror(1_220_000_000L, 1, 1, 64);
        for (int i = 0; i < 200; i++) {
            assertTrue(slow.offer(10_000 + i * 821L, i));
        }
        assertEquals(0, slow.lost());
    }
}

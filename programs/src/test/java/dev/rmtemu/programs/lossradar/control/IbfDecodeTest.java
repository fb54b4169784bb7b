package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.Signature;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IbfDecodeTest {
    private static final int WORDS = 4;

    private static int[] sig(int src, int dst, int sport, int dport, int proto, int ipId) {
        return new int[] {src, dst, Signature.ports(sport, dport),
                Signature.protoId(proto, ipId, 0, 0, LossRadarConfig.defaults())};
    }

    @Test
    void insertSetsExactlyOneCellPerPartition() {
        IbfDigest d = new IbfDigest(3, 8, WORDS);
        int[] s = sig(0x0A000001, 0x0A000002, 1234, 80, 6, 77);
        d.insert(s);
        int nonZero = 0;
        for (int c = 0; c < d.cells(); c++) {
            if (d.count(c) != 0) {
                nonZero++;
                assertEquals(1, d.count(c));
                for (int w = 0; w < WORDS; w++) {
                    assertEquals(s[w], d.xorWord(c, w));
                }
            }
        }
        assertEquals(3, nonZero);
        for (int j = 0; j < 3; j++) {
            int c = d.cell(j, s);
            assertTrue(c >= j * 8 && c < (j + 1) * 8, "cell of hash " + j + " in its partition");
            assertEquals(1, d.count(c));
        }
        assertEquals(1, d.packets());
        // inserting the same signature again doubles counts and cancels the xorSums
        d.insert(s);
        assertEquals(2, d.count(d.cell(0, s)));
        assertEquals(0, d.xorWord(d.cell(0, s), 0));
    }

    @Test
    void subtractionLeavesOnlyTheMissingPacket() {
        LossRadarConfig c = LossRadarConfig.defaults();
        IbfDigest um = IbfDigest.of(c);
        IbfDigest dm = IbfDigest.of(c);
        int[] a = sig(1, 2, 3, 4, 17, 10);
        int[] b = sig(1, 2, 3, 4, 17, 11);
        int[] x = sig(5, 6, 7, 8, 6, 12);
        um.insert(a);
        um.insert(b);
        um.insert(x);
        dm.insert(x);
        dm.insert(a);
        IbfDecoder.Result r = IbfDecoder.peel(um.minus(dm));
        assertTrue(r.complete());
        assertEquals(1, r.counted());
        assertEquals(List.of(new LostPacket(b)), r.lost());
        assertEquals(11, r.lost().get(0).ipId());
        assertEquals(17, r.lost().get(0).proto());
        assertEquals(3, r.lost().get(0).srcPort());
        assertTrue(r.extra().isEmpty());
        // the inputs are untouched; an equal pair decodes to nothing
        IbfDecoder.Result none = IbfDecoder.peel(dm.minus(dm));
        assertTrue(none.complete());
        assertEquals(0, none.decoded());
    }

    @Test
    void packetOnlyDownstreamIsAnExtraNotALoss() {
        IbfDigest um = new IbfDigest(3, 4, WORDS);
        IbfDigest dm = new IbfDigest(3, 4, WORDS);
        int[] a = sig(9, 9, 9, 9, 6, 1);
        dm.insert(a);
        IbfDecoder.Result r = IbfDecoder.peel(um.minus(dm));
        assertTrue(r.complete());
        assertEquals(-1, r.counted());
        assertTrue(r.lost().isEmpty());
        assertEquals(List.of(new LostPacket(a)), r.extra());
    }

    @Test
    void twoLossesInOneCellWithOneHashAreCountedNotDecoded() {
        IbfDigest um = new IbfDigest(1, 1, WORDS);
        um.insert(sig(1, 1, 1, 1, 6, 1));
        um.insert(sig(2, 2, 2, 2, 6, 2));
        IbfDecoder.Result r = IbfDecoder.peel(um.copy());
        assertFalse(r.complete());
        assertEquals(2, r.counted());
        assertEquals(0, r.decoded());
        assertEquals("2 losses counted, 0 decoded", r.summary());
    }

    @Test
    void peelingResolvesACollisionThroughAnotherPartition() {
        // k = 2, m = 4: find two signatures sharing their partition-0 cell but not their partition-1 cell
        IbfDigest d = new IbfDigest(2, 4, WORDS);
        int[] first = sig(100, 200, 1, 2, 6, 0);
        int[] second = null;
        for (int id = 1; second == null; id++) {
            int[] s = sig(100, 200, 1, 2, 6, id);
            if (d.cell(0, s) == d.cell(0, first) && d.cell(1, s) != d.cell(1, first)) {
                second = s;
            }
        }
        d.insert(first);
        d.insert(second);
        assertEquals(2, d.count(d.cell(0, first)), "shared cell holds both");
        IbfDecoder.Result r = IbfDecoder.peel(d);
        assertTrue(r.complete());
        assertEquals(2, r.decoded());
        assertTrue(r.lost().contains(new LostPacket(first)));
        assertTrue(r.lost().contains(new LostPacket(second)));
    }

    @Test
    void aStoppingSetIsReportedAsCountedNeverAsWrongPackets() {
        // two signatures with the same cell in both partitions: every cell they touch has count 2
        IbfDigest d = new IbfDigest(2, 4, WORDS);
        int[] first = sig(7, 8, 9, 10, 17, 0);
        int[] second = null;
        for (int id = 1; second == null; id++) {
            int[] s = sig(7, 8, 9, 10, 17, id);
            if (d.cell(0, s) == d.cell(0, first) && d.cell(1, s) == d.cell(1, first)) {
                second = s;
            }
        }
        int[] third = sig(1, 1, 1, 1, 6, 999);
        d.insert(first);
        d.insert(second);
        d.insert(third);
        IbfDecoder.Result r = IbfDecoder.peel(d);
        assertFalse(r.complete());
        assertEquals(3, r.counted());
        // the third may or may not peel depending on its cells; the stuck pair never does
        assertFalse(r.lost().contains(new LostPacket(first)));
        assertFalse(r.lost().contains(new LostPacket(second)));
        for (LostPacket p : r.lost()) {
            assertArrayEquals(third, p.words());
        }
    }
}

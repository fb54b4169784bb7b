package dev.rmtemu.model.runtime;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** VLIW semantics of the PHV: a stage's writes are seen from the next stage on, for slots on both sides of 64. */
class PhvTest {
    private static final int SLOTS = 130;

    private static Field meta(int slot, int width) {
        return new Field("m" + slot, width, FieldKind.METADATA, Gress.INGRESS, slot);
    }

    @Test
    void writesBecomeVisibleAtCommitLastWriteWinsMaskedToWidth() {
        Phv phv = new Phv(SLOTS);
        Field low = meta(3, 8);
        Field edge = meta(63, 64);
        Field high = meta(64, 16);
        Field top = meta(129, 32);
        phv.set(low, 0x1FF);
        phv.set(edge, -1L);
        phv.set(high, 7);
        phv.set(high, 0x12345);
        phv.set(top, 9);
        assertEquals(0, phv.get(low));
        assertEquals(0, phv.get(high));
        assertEquals(0, phv.get(top));
        phv.commitStage();
        assertEquals(0xFF, phv.get(low));
        assertEquals(-1L, phv.get(edge));
        assertEquals(0x2345, phv.get(high));
        assertEquals(9, phv.get(top));
        phv.commitStage(); // nothing pending: nothing changes
        assertEquals(0x2345, phv.get(high));
    }

    @Test
    void discardedAndClearedWritesNeverLand() {
        Phv phv = new Phv(SLOTS);
        Field low = meta(5, 32);
        Field high = meta(100, 32);
        phv.set(low, 1);
        phv.set(high, 2);
        phv.discardPendingWrites();
        phv.commitStage();
        assertEquals(0, phv.get(low));
        assertEquals(0, phv.get(high));
        phv.set(low, 3);
        phv.set(high, 4);
        phv.clear();
        phv.commitStage();
        assertEquals(0, phv.get(low));
        assertEquals(0, phv.get(high));
        phv.set(high, 5); // the slot's pending mark was reset, so a new write lands
        phv.commitStage();
        assertEquals(5, phv.get(high));
    }

    @Test
    void headerWritesAreNoted() {
        Phv phv = new Phv(SLOTS);
        Field header = new Field("h", 32, FieldKind.HEADER, null, List.of("ipv4.dst_addr"), 70);
        phv.set(meta(1, 8), 1);
        assertFalse(phv.headerWritten());
        // a bridged field never leaves the switch: writing it leaves the frame alone
        phv.set(Field.bridged("c", 16, 72), 1);
        assertFalse(phv.headerWritten());
        phv.set(header, 1);
        assertTrue(phv.headerWritten());
        phv.discardPendingWrites();
        assertFalse(phv.headerWritten());
    }

    @Test
    void matchesAPlainModelOnRandomStages() {
        SplittableRandom rnd = new SplittableRandom(9);
        Field[] fields = new Field[SLOTS];
        for (int s = 0; s < SLOTS; s++) {
            fields[s] = meta(s, 1 + rnd.nextInt(64));
        }
        Phv phv = new Phv(SLOTS);
        long[] committed = new long[SLOTS];
        for (int stage = 0; stage < 2_000; stage++) {
            long[] pending = committed.clone();
            int writes = rnd.nextInt(6);
            for (int w = 0; w < writes; w++) {
                Field f = fields[rnd.nextInt(SLOTS)];
                long v = rnd.nextLong();
                phv.set(f, v);
                pending[f.slot()] = v & f.mask();
            }
            assertArrayEquals(committed, phv.values());
            phv.commitStage();
            committed = pending;
            assertArrayEquals(committed, phv.values());
        }
    }
}

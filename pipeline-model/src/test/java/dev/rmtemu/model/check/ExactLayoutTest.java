package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exact-match table is laid out at the fewest RAMs among the formats p4c's Tofino back
 * end tries: action data immediate in the entry or in action RAMs, P entries a row over W
 * RAMs (mau/table_layout.cpp LayoutChoices::setup_exact_match; the cheapest first in
 * mau/resource_estimate.cpp StageUseEstimate::select_best_option; action RAM slots as
 * ActionDataPerWord). Hand counts on tofino1: 1024-row RAMs of 128 b, 10 ghost bits, a
 * 4-bit version, at most 32 b immediate, 5 entries a RAM, 9 a row, 64 overhead bits a RAM,
 * 16 key bytes a RAM, at least 4 ways.
 */
class ExactLayoutTest {

    /** A table keyed by fields of at most 32 bits adding up to {@code keyBits}. */
    private static TableUsage table(int keyBits, int actionBits, int entries) {
        ProgramBuilder b = ProgramBuilder.create("exact", "");
        java.util.List<Field> key = new java.util.ArrayList<>();
        for (int left = keyBits, i = 0; left > 0; left -= 32, i++) {
            key.add(b.metadata(Gress.INGRESS, "meta.key" + i, Math.min(32, left)));
        }
        b.stage(Gress.INGRESS, 0).table("t", MatchKind.EXACT, entries, actionBits, key.toArray(new Field[0]));
        ResourceReport r = ResourceChecker.check(b.build(), TargetProfiles.builtIn("tofino1"));
        return r.tables().get(0);
    }

    @Test
    void wideKeyWithImmediateSizedDataMovesTheDataToActionRams() {
        // issue 30's case, a 104-bit key (13 bytes), 32-bit data, 8,192 entries. Immediate: 104 - 10 + 4 + 32 = 130 b, 2 RAMs a
        // row: 8 deep x 2 = 16 (what rmtemu counted before); 2 entries in 3 RAMs: 4 x 3 = 12. In action RAMs: 98 b,
        // 1 a word: 8 RAMs, and 4-byte slots 4 a word: 8192 / 4096 = 2 action RAMs. 10 is the fewest.
        TableUsage t = table(104, 32, 8192);
        assertEquals(8, t.dataRams());
        assertEquals(2, t.actionRams());
        assertEquals(10, t.srams());
        assertEquals(98, t.entryBits());
        assertEquals("entries: ceil(8192 / (1024 x 1 per word)) = 8 RAMs deep in 4 ways, "
                + "action data 32 b in 2 action RAMs (fewer RAMs than in the entry)", t.sizedBy());
    }

    @Test
    void narrowKeyKeepsDataThatFitsInTheEntry() {
        // 16-bit key, 8-bit data, 20,000 entries. Immediate: 16 - 10 + 4 + 8 = 18 b, 5 a word (90 b, 40 overhead
        // bits): ceil(20000 / 5120) = 4 RAMs. In action RAMs: 10 b 5 a word = 4, plus 1-byte slots 16 a word = 2: 6.
        TableUsage t = table(16, 8, 20_000);
        assertEquals(4, t.dataRams());
        assertEquals(0, t.actionRams());
        assertEquals(18, t.entryBits());
        assertEquals(5, t.entriesPerWord());
    }

    @Test
    void immediateDataCountsAgainstARamsOverheadBits() {
        // 16-bit key, 32-bit data, 20,000 entries. Immediate 42 b entries would pack 3 a word by bits, but 3 x 32
        // immediate bits pass a RAM's 64 overhead bits: 2 a word, ceil(20000 / 2048) = 10 RAMs (3 in 2 RAMs: 7 x 2 =
        // 14). In action RAMs: 10 b, 5 a word: 4 RAMs, plus 4-byte slots 4 a word: ceil(20000 / 4096) = 5. 9 wins.
        TableUsage t = table(16, 32, 20_000);
        assertEquals(4, t.dataRams());
        assertEquals(5, t.actionRams());
        assertEquals(9, t.srams());
    }

    @Test
    void dataWiderThanImmediateGoesToActionRamsWhateverTheCost() {
        // 48-bit key, 64-bit data (over the 32 b immediate), 4,096 entries: 48 - 10 + 4 = 42 b, 3 a word:
        // 2 RAMs deep, 4 ways minimum = 4; 8-byte slots 2 a word: 4096 / 2048 = 2 action RAMs. 6.
        TableUsage t = table(48, 64, 4096);
        assertEquals(4, t.dataRams());
        assertEquals(2, t.actionRams());
        assertEquals(6, t.srams());
    }

    @Test
    void aWideRowOfSeveralEntriesWinsWhenItTakesFewerRams() {
        // 32-bit key, 9-bit data, 65,536 entries: 35 b immediate. 3 a word: ceil(65536 / 3072) = 22 RAMs;
        // 7 in a 2-RAM row (245 b <= 256, 28 key bytes <= 32, 63 overhead bits <= 64): ceil(65536 / 7168) = 10
        // deep x 2 = 20; action RAMs: 26 b 4 a word = 16 + 2-byte slots 8 a word = 8: 24. 20 wins.
        TableUsage t = table(32, 9, 65_536);
        assertEquals(20, t.dataRams());
        assertEquals(0, t.actionRams());
        assertEquals(0, t.entriesPerWord(), "a row spans two RAMs");
        assertTrue(t.sizedBy().startsWith("entries: ceil(65536 / (1024 x 7 per 2-RAM row)) = 10 RAMs deep in 5 ways, 2 RAMs wide"),
                t.sizedBy());
    }
}

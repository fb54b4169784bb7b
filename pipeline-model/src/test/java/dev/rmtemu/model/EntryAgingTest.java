package dev.rmtemu.model;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.EntryAging;
import dev.rmtemu.model.table.HitClock;
import dev.rmtemu.model.table.IdleTimeout;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;
import dev.rmtemu.model.table.TableState;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A table with an idle timeout stamps the entry a lookup hits with the pass's time; a sweep
 * reports each entry with a TTL once when it has gone its TTL without a hit, and again only
 * after a hit made it active; a removed entry, or one added under a freed handle, has no TTL.
 */
class EntryAgingTest {
    private static final Field KEY = new Field("k", 16, FieldKind.METADATA, Gress.INGRESS, 0);

    private static MatchTable table(MatchKind kind, TableOptions options) {
        return new MatchTable(0, "t", kind, List.of(KEY), 8, 0, Gress.INGRESS, 0, List.of(), TableActions.NONE, options);
    }

    private static List<String> sweep(EntryAging a, long nowNs) {
        List<String> out = new ArrayList<>();
        a.sweep(nowNs, (h, last, ttl) -> out.add(h + "@" + last + "/" + ttl));
        return out;
    }

    @Test
    void hitsKeepAnEntryActiveAndAnIdleEntryIsReportedOnceUntilHitAgain() {
        HitClock clock = new HitClock();
        TableState s = new TableState(table(MatchKind.EXACT, new TableOptions(IdleTimeout.DEFAULT, null)), clock);
        int a = s.addExact(0, 1, 0, 0);
        int b = s.addExact(0, 2, 0, 0);
        s.aging().setTtl(a, 100, 0);
        s.aging().setTtl(b, 100, 0);
        clock.nowNs(60);
        s.lookupExactSlot(0, 1);                         // a hit at 60 (generated code's lookup)
        assertEquals(List.of("1@0/100"), sweep(s.aging(), 100));
        assertEquals(List.of(), sweep(s.aging(), 150));  // b already reported; a hit 90 ns ago
        assertEquals(List.of("0@60/100"), sweep(s.aging(), 160));
        clock.nowNs(170);
        s.lookup(0, 2);                                  // b active again (the interpreter's lookup)
        assertEquals(List.of(), sweep(s.aging(), 200));
        assertEquals(List.of("1@170/100"), sweep(s.aging(), 270));
    }

    @Test
    void aRemovedEntryAndANewOneUnderItsHandleHaveNoTtl() {
        HitClock clock = new HitClock();
        TableState s = new TableState(table(MatchKind.TERNARY, new TableOptions(IdleTimeout.DEFAULT, null)), clock);
        assertEquals(-1, s.handleOfTernary(0, 5, 0, 0xFFFF, 1));
        s.addTernary(0, 5, 0, 0xFFFF, 1, 0, 0);
        int h = s.handleOfTernary(0, 5, 0, 0xFFFF, 1);
        s.aging().setTtl(h, 10, 0);
        s.removeTernary(0, 5, 0, 0xFFFF, 1);
        s.addTernary(0, 6, 0, 0xFFFF, 1, 0, 0);           // reuses handle 0
        assertEquals(0, s.handleOfTernary(0, 6, 0, 0xFFFF, 1));
        assertEquals(0, s.aging().ttlNs(0));
        assertEquals(List.of(), sweep(s.aging(), 1_000));
    }

    @Test
    void aTableWithoutAnIdleTimeoutKeepsNoHitTimes() {
        assertNull(new TableState(table(MatchKind.EXACT, TableOptions.NONE)).aging());
    }
}

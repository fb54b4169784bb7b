package dev.rmtemu.model;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;
import dev.rmtemu.model.table.TableState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables whose keys mix match kinds: the table is of the widest kind (bmv2's order), an lpm
 * field beside exact ones orders entries by its prefix alone, and a range table's other fields
 * match their values under their masks.
 */
class MixedKeyTableStateTest {
    private final ProgramBuilder b = ProgramBuilder.create("mixed", "");
    private final Field ttl = b.header("ipv4.ttl");
    private final Field dst = b.header("ipv4.dst_addr");
    private final Field port = b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port");
    private final long[] phv = new long[4096];

    private static MatchTable table(MatchKind kind, List<MatchKind> kinds, Field... key) {
        return new MatchTable(0, "t", kind, List.of(key), 8, 9, Gress.INGRESS, 0, List.of(), TableActions.NONE,
                TableOptions.NONE, kinds);
    }

    private int hit(TableState s, long ttlValue, long dstValue, long portValue) {
        phv[ttl.slot()] = ttlValue;
        phv[dst.slot()] = dstValue;
        phv[port.slot()] = portValue;
        int e = s.lookup(s.table().keyHi(phv), s.table().keyLo(phv));
        return e < 0 ? -1 : (int) s.actionData(e);
    }

    @Test
    void theWidestKindNamesTheTable() {
        assertEquals(MatchKind.LPM, MatchTable.kindOf(List.of(MatchKind.EXACT, MatchKind.LPM)));
        assertEquals(MatchKind.TERNARY, MatchTable.kindOf(List.of(MatchKind.LPM, MatchKind.TERNARY, MatchKind.EXACT)));
        assertEquals(MatchKind.RANGE, MatchTable.kindOf(List.of(MatchKind.TERNARY, MatchKind.RANGE, MatchKind.LPM)));
        assertEquals(MatchKind.EXACT, MatchTable.kindOf(List.of()));
        assertThrows(IllegalArgumentException.class, () -> table(MatchKind.TERNARY, List.of(MatchKind.EXACT, MatchKind.LPM), ttl, dst));
        IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
                () -> table(MatchKind.LPM, List.of(MatchKind.LPM, MatchKind.LPM), dst, port));
        assertTrue(two.getMessage().endsWith("an LPM table matches one lpm field"), two.getMessage());
    }

    @Test
    void anExactFieldBesideAnLpmFieldMatchesWholeAndThePrefixOrders() {
        TableState s = new TableState(table(MatchKind.LPM, List.of(MatchKind.EXACT, MatchKind.LPM), ttl, dst));
        long ttl64 = 64L << 32;
        long ttl32 = 32L << 32;
        s.addLpm(0, ttl64 | 0x0A000000L, 8, 1, 40);
        s.addLpm(0, ttl64 | 0x0A010000L, 16, 1, 41);
        s.addLpm(0, ttl32 | 0x0A010000L, 16, 1, 42);
        assertEquals(41, hit(s, 64, 0x0A010203L, 0));
        assertEquals(40, hit(s, 64, 0x0A020001L, 0));
        assertEquals(42, hit(s, 32, 0x0A010203L, 0));
        assertEquals(-1, hit(s, 32, 0x0A020001L, 0), "the exact ttl is part of every entry");
        assertEquals(1, s.handleOfLpm(0, ttl64 | 0x0A010000L, 16));
        assertTrue(s.removeLpm(0, ttl64 | 0x0A010000L, 16));
        assertEquals(40, hit(s, 64, 0x0A010203L, 0));
        UserError longer = assertThrows(UserError.class, () -> s.addLpm(0, 0, 33, 1, 0));
        assertEquals("table t: prefix length 33 outside 0..32", longer.getMessage());
    }

    @Test
    void aRangeTableMatchesItsOtherFieldsUnderTheirMasks() {
        TableState s = new TableState(table(MatchKind.RANGE, List.of(MatchKind.EXACT, MatchKind.RANGE), ttl, port));
        long all = 0xFF;
        // ttl exact 64 under mask 0xff (shifted above the 16-bit port), port 0..1023, priority 10;
        // any ttl, any port, priority 20
        s.addRange(new long[] {0, 0}, new long[] {all, 1023}, 0, 64L << 16, 0, all << 16, 10, 1, 1);
        s.addRange(new long[] {0, 0}, new long[] {all, 0xFFFF}, 0, 0, 0, 0, 20, 1, 2);
        assertEquals(1, hit(s, 64, 0, 22));
        assertEquals(2, hit(s, 63, 0, 22), "another ttl: the exact field decides");
        assertEquals(2, hit(s, 64, 0, 1024));
        assertEquals(0, s.handleOfRange(new long[] {0, 0}, new long[] {all, 1023}, 0, 64L << 16, 0, all << 16, 10));
        assertEquals(-1, s.handleOfRange(new long[] {0, 0}, new long[] {all, 1023}, 0, 63L << 16, 0, all << 16, 10));
        assertTrue(s.modifyRange(new long[] {0, 0}, new long[] {all, 1023}, 0, 64L << 16, 0, all << 16, 10, 1, 3));
        assertEquals(3, hit(s, 64, 0, 22));
        assertTrue(s.removeRange(new long[] {0, 0}, new long[] {all, 1023}, 0, 64L << 16, 0, all << 16, 10));
        assertEquals(2, hit(s, 64, 0, 22));
    }
}

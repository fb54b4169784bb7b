package dev.rmtemu.emulator.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CountersTest {

    @Test
    void dropCausesAreCountedAndListedSorted() {
        Counters c = new Counters();
        int queue = c.dropCause("tm_queue_limit");
        int buffer = c.dropCause("tm_buffer_full");
        int recirc = c.dropCause("recirc_over_budget");
        assertEquals(queue, c.dropCause("tm_queue_limit"), "registering twice gives the same id");
        c.dropped(queue);
        c.dropped(queue);
        c.dropped(recirc);
        c.dropped("parser_unknown_ethertype", 4);
        assertEquals(List.of("parser_unknown_ethertype", "recirc_over_budget", "tm_buffer_full", "tm_queue_limit"),
                List.copyOf(c.droppedByCause().keySet()));
        assertEquals(Map.of("parser_unknown_ethertype", 4L, "recirc_over_budget", 1L, "tm_buffer_full", 0L,
                "tm_queue_limit", 2L), c.droppedByCause());
        assertEquals(7, c.droppedTotal());
        assertEquals(1, buffer, "ids follow registration order");
        assertEquals(0, c.droppedFor("tm_buffer_full"));
        assertEquals(0, c.droppedFor("never-seen"));
        assertThrows(IllegalArgumentException.class, () -> c.dropped(99));
    }

    @Test
    void manyCausesGrowTheTable() {
        Counters c = new Counters();
        for (int i = 0; i < 20; i++) {
            c.dropped(c.dropCause(String.format("cause%02d", i)));
        }
        assertEquals(20, c.droppedTotal());
        assertEquals("cause00", c.droppedByCause().firstKey());
        assertEquals("cause19", c.droppedByCause().lastKey());
    }

    /** Multicast copies beyond the packet itself and mirrored copies are made in the switch: they join "in". */
    @Test
    void copiesJoinThePacketsInAndTheMessageNamesThem() {
        Counters c = new Counters();
        c.packetIn();
        c.replicatedCopy();
        c.replicatedCopy();
        c.mirroredCopy();
        c.packetsOut(3);
        c.checkConservation(1);
        assertEquals("packet conservation broken: in 1 + mirrored 1 + replicated 2 != out 3 + dropped 0 + queued 0",
                assertThrows(IllegalStateException.class, () -> c.checkConservation(0)).getMessage());
    }

    @Test
    void conservationHoldsOrThrowsWithTheNumbers() {
        Counters c = new Counters();
        c.packetsIn(10);
        c.packetOut();
        c.packetsOut(5);
        c.dropped("tm_queue_limit", 2);
        c.recirculated();
        c.violation();
        c.checkConservation(2);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.checkConservation(1));
        assertEquals("packet conservation broken: in 10 != out 6 + dropped 2 + queued 1", e.getMessage());
        assertThrows(IllegalStateException.class, () -> c.checkConservation(3));
        assertEquals(List.of("dropped", "dropped_total", "in", "out", "recirculated", "violations"),
                List.copyOf(c.toMap().keySet()));
        assertEquals(1L, c.toMap().get("recirculated"));
        assertEquals(1L, c.violations());
    }
}

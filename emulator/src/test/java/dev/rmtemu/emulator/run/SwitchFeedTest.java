package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SwitchFeedTest {
    private static SwitchEngine engine() {
        return new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"),
                new ProgramRegistry().build("counter", Map.of("port", "1")), 4, PortConfig.strictPriority(10), true));
    }

    /** Records stamped at {@code ns}, source addresses 1, 2, ... */
    private static SwitchFeed.Source records(long... ns) {
        int[] next = {0};
        return into -> {
            if (next[0] == ns.length) {
                return false;
            }
            into.clear().timestampNs(ns[next[0]]).wireLength(100).ipVersion(4).protocol(17).srcIpv4(next[0] + 1)
                    .dstIpv4(0x0A000002).srcPort(1).dstPort(2).ingressPort(next[0] % 2);
            next[0]++;
            return true;
        };
    }

    @Test
    void eachRecordArrivesOnItsPortAtItsTimestampsCycleAndNeverBeforeThePrevious() {
        SwitchEngine e = engine();
        SwitchFeed feed = new SwitchFeed(e);
        List<String> seen = new ArrayList<>();
        // 2000 ns, then a record stamped earlier (arrives with the previous one), then 5000 ns
        long fed = feed.feed(records(2000, 1000, 5000), PacketRecord::ingressPort,
                (cycle, r) -> seen.add(cycle + "@" + r.ingressPort() + ":" + r.srcIpv4()));
        long c2000 = e.clock().nsToCycles(2000);
        long c5000 = e.clock().nsToCycles(5000);
        assertEquals(List.of(c2000 + "@0:1", c2000 + "@1:2", c5000 + "@0:3"), seen);
        assertEquals(3, fed);
        assertEquals(3, feed.packets());
        feed.drainAndCheck();
        assertEquals(3, e.counters().packetsIn());
        // a single arrival after the stream, at an earlier time: the last arrival's cycle again
        assertEquals(c5000, feed.arrive(10, 1, PacketRecord.allocate().wireLength(100).ipVersion(4)));
        assertEquals(4, feed.packets());
    }

    @Test
    void anExplicitCycleBeforeThePreviousArrivalIsRefusedByTheEngine() {
        SwitchFeed feed = new SwitchFeed(engine());
        feed.arriveAtCycle(500, 0, PacketRecord.allocate().wireLength(100).ipVersion(4));
        assertThrows(IllegalArgumentException.class,
                () -> feed.arriveAtCycle(499, 0, PacketRecord.allocate().wireLength(100).ipVersion(4)));
    }
}

package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ProgramControlPlane;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.emulator.network.NetworkEngine;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pre-run hook: a control plane starts before the first packet, its scheduled operations
 * run at their cycles and may write the run's journal (kinds registered up front), it hears
 * when the input is over, and it finishes after the drain, before the journal closes.
 */
class ProgramControlPlaneTest {
    private static final String TRACE = "gen:isp?packets=3000&flows=200&seed=3";
    private static final long MARK_CYCLE = 5_000;

    /** Records what it saw; a "mark" at {@link #MARK_CYCLE} and a "finish" go to the journal. */
    static final class Recording implements ProgramControlPlane {
        final List<String> calls = new ArrayList<>();
        long pendingAtStart = -1;
        long injectedAtStart = -1;
        long inputDoneAt = -1;
        long finishedAt = -1;

        @Override
        public String program() {
            return "counter";
        }

        @Override
        public void registerKinds(JournalKinds kinds) {
            calls.add("kinds");
            kinds.register("test.mark");
        }

        private Session session(SwitchEngine sw, ExportJournal journal) {
            int kind = journal.kinds().id("test.mark");
            UnsafeBuffer one = new UnsafeBuffer(new byte[1]);
            sw.scheduleControl(MARK_CYCLE, (state, cycle) -> journal.append(kind, cycle, 0, 0, one, 0, 1));
            return new Session() {
                @Override
                public void inputDone(long lastArrivalCycle) {
                    calls.add("inputDone");
                    inputDoneAt = lastArrivalCycle;
                }

                @Override
                public void finish(long cycle) {
                    calls.add("finish");
                    finishedAt = cycle;
                    journal.append(kind, cycle, 0, 0, one, 0, 1);
                }
            };
        }

        @Override
        public Session start(SwitchEngine engine, ReplayOptions options, ExportJournal journal) {
            calls.add("start");
            pendingAtStart = engine.nextEventCycle();
            return session(engine, journal);
        }

        @Override
        public Session startNetwork(NetworkEngine network, ReplayOptions options, ExportJournal journal) {
            calls.add("startNetwork");
            long injected = 0;
            for (var h : network.topology().hosts()) {
                injected += network.injected(h.index());
            }
            injectedAtStart = injected;
            return session(network.switchEngine("s1"), journal);
        }
    }

    /** Cycles of the journal's test.mark messages, in journal order. */
    private static List<Long> marks(Path journalDir) {
        List<Long> out = new ArrayList<>();
        try (JournalReader r = JournalReader.open(journalDir)) {
            r.readHeaderIfPresent();
            while (r.poll((kind, cycle, sw, pipe, payload, offset, length) -> {
                if ("test.mark".equals(r.kinds().name(kind))) {
                    out.add(cycle);
                }
            }, Integer.MAX_VALUE) > 0) {
                // until the journal has nothing more
            }
        }
        return out;
    }

    @Test
    void oneSwitchReplayRunsTheHookAroundThePackets(@TempDir Path tmp) {
        Recording plane = new Recording();
        ReplayOptions o = new ReplayOptions("counter", Map.of(), "tofino1", TRACE, "rate:10G", 1, 0, 100, true, 0,
                tmp.resolve("run"), false);
        ReplayResult r = Replay.run(o, null, List.of(plane));
        assertEquals(List.of("kinds", "start", "inputDone", "finish"), plane.calls);
        assertEquals(Long.MAX_VALUE, plane.pendingAtStart, "nothing scheduled before the hook");
        assertEquals(r.lastArrivalCycle(), plane.inputDoneAt);
        assertEquals(r.engine().now(), plane.finishedAt);
        assertTrue(plane.finishedAt > MARK_CYCLE);
        assertEquals(List.of(MARK_CYCLE, plane.finishedAt), marks(tmp.resolve("run").resolve("journal")));
    }

    @Test
    void networkReplayRunsTheHookAroundThePackets(@TempDir Path tmp) {
        Recording plane = new Recording();
        ReplayOptions o = new ReplayOptions("counter", Map.of("port", "511"), "tofino1", TRACE, "rate:10G", 1, 0, 100, true, 0,
                tmp.resolve("run"), false, null, "builtin:line");
        ReplayResult r = NetworkReplay.run(o, null, List.of(plane));
        assertEquals(List.of("kinds", "startNetwork", "inputDone", "finish"), plane.calls);
        assertEquals(0, plane.injectedAtStart, "no packet before the hook");
        assertEquals(r.lastArrivalCycle(), plane.inputDoneAt);
        assertEquals(r.network().now(), plane.finishedAt);
        assertEquals(List.of(MARK_CYCLE, plane.finishedAt), marks(tmp.resolve("run").resolve("journal")));
    }
}

package dev.rmtemu.emulator.network;

import dev.rmtemu.emulator.RandomTopology;
import dev.rmtemu.emulator.engine.RunStopped;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.traces.impair.GroundTruthLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a network runs its switches on several threads, and what it says when it does not. */
class NetworkThreadsTest {
    private static final Topology FAT_TREE = TopologySpec.parse("builtin:fattree?k=4");

    private static NetworkEngine run(Topology t, NetworkOptions o, int packets) {
        NetworkEngine net = NetworkEngine.build(t, o);
        for (int i = 0; i < packets; i++) {
            net.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
        }
        return net;
    }

    @Test
    void fatTreeRunsOnTwoThreadsWithTheLinkAndEgressLatencyAsLookahead() {
        NetworkEngine net = run(FAT_TREE, NetworkOptions.of(1).withThreads(2), 2_000);
        net.drain();
        net.checkConservation();
        assertEquals(2, net.threadsUsed());
        assertNull(net.threadNote());
        // 1 µs links at tofino1's 1.22 GHz, plus the 192 cycles from a dequeue to the wire (egress
        // parser 16, pipeline 160, deparser 16) before a packet enters the link
        assertEquals(192, net.switchEngine(0).egressToWireCycles());
        assertEquals(1_220 + 192, net.lookaheadCycles());
        assertEquals(2_000, net.totals().delivered());
    }

    @Test
    void oneThreadAskedIsOneThreadInWindowsWithoutANote() {
        NetworkEngine net = run(FAT_TREE, NetworkOptions.of(1).withThreads(1), 10);
        assertEquals(1, net.threadsUsed());
        assertTrue(net.windowed());
        assertNull(net.threadNote());
    }

    /**
     * The event-by-event loop (which a delivery listener keeps, told nothing here), windows on one
     * thread and windows on two give the same network: every counter of every switch, link and
     * host, the ground truth of every impaired link direction, the latency histogram and the end.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void eventLoopAndWindowsOnOneAndTwoThreadsAgreeOnRandomTopologies(long seed, @TempDir Path tmp) throws IOException {
        Topology t = TopologySpec.parse(RandomTopology.write(tmp.resolve("random.yaml"), seed).toString());
        NetworkEngine loop = NetworkEngine.build(t, NetworkOptions.of(seed).withThreads(1));
        loop.onDelivery((h, c, r) -> { });
        NetworkEngine one = NetworkEngine.build(t, NetworkOptions.of(seed).withThreads(1));
        NetworkEngine two = NetworkEngine.build(t, NetworkOptions.of(seed).withThreads(2));
        List<String> expected = null;
        for (NetworkEngine net : List.of(loop, one, two)) {
            for (int i = 0; i < 3_000; i++) {
                net.inject(40L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
            }
            net.drain();
            net.checkConservation();
            List<String> f = fingerprint(net);
            if (expected == null) {
                expected = f;
            } else {
                assertEquals(expected, f);
            }
        }
        assertFalse(loop.windowed());
        assertTrue(one.windowed());
        assertEquals(2, two.threadsUsed());
    }

    private static List<String> fingerprint(NetworkEngine net) {
        List<String> f = new ArrayList<>();
        f.add(net.totals() + " now " + net.now() + " " + net.latency().summary());
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            f.add(s + ": in " + e.counters().packetsIn() + " out " + e.counters().packetsOut() + " dropped "
                    + e.counters().droppedByCause() + " now " + e.now() + " " + e.metrics().latency().summary()
                    + " hop-limit " + net.hopLimitDrops(s) + " unlinked " + net.unlinkedDropsByPort(s));
        }
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                f.add("link " + l.id() + "/" + d + ": carried " + net.carried(l.id(), d) + " lost " + net.lost(l.id(), d)
                        + " dup " + net.duplicates(l.id(), d) + " delayed " + net.delayed(l.id(), d) + " reordered "
                        + net.reordered(l.id(), d) + (net.groundTruth(l.id(), d) == null ? ""
                        : " " + events(net.groundTruth(l.id(), d))));
            }
        }
        for (int h = 0; h < net.topology().nodes().size(); h++) {
            f.add("node " + h + ": " + net.injected(h) + " " + net.delivered(h) + " " + net.misdelivered(h));
        }
        return f;
    }

    /**
     * One switch has no switch-to-switch link, so nothing bounds its lookahead: windows still end
     * every {@link NetworkEngine#MAX_WINDOW_CYCLES} cycles, so the switch runs along with the
     * injections instead of holding the whole trace as pending arrivals until the drain.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aSwitchWithoutSwitchLinksRunsAlongWithTheInjections(int threads) {
        NetworkEngine net = NetworkEngine.build(TopologySpec.parse("builtin:single"), NetworkOptions.of(1).withThreads(threads));
        int packets = 5_000;
        for (int i = 0; i < packets; i++) {
            net.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
        }
        assertTrue(net.windowed());
        assertEquals(NetworkEngine.MAX_PATH_CYCLES, net.lookaheadCycles());
        // the last window ends at least MAX_WINDOW_CYCLES before the last injection, and the one
        // after it would end by then: what waits spans at most two windows' worth of injections
        long waiting = net.totals().inFlight();
        assertTrue(waiting <= 2 * NetworkEngine.MAX_WINDOW_CYCLES / 150 + 1, "waiting " + waiting);
        assertTrue(net.switchEngine(0).counters().packetsIn() >= packets - waiting, "switch lags behind");
        net.drain();
        net.checkConservation();
        assertEquals(packets, net.totals().delivered());
    }

    /**
     * Injections wait in their part's queue until its next window: they are in flight in the
     * network's totals (conservation holds in between), and a listener added between injections,
     * which sends the network back to one thread, first sends them on their links, so the run
     * delivers the same packets at the same cycles as one with the listener from the start.
     */
    @Test
    void injectionsWaitingForAWindowAreInFlightAndAListenerAddedLaterSeesThemDelivered() {
        NetworkEngine late = NetworkEngine.build(FAT_TREE, NetworkOptions.of(1).withThreads(2));
        for (int i = 0; i < 500; i++) {
            late.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
        }
        assertEquals(2, late.threadsUsed());
        assertTrue(late.totals().inFlight() > 0);
        assertEquals(500, late.totals().injected());
        late.checkConservation(false);
        long deliveredBefore = late.totals().delivered();
        List<NetworkEngineTest.Delivery> seen = NetworkEngineTest.record(late);
        NetworkEngine early = NetworkEngine.build(FAT_TREE, NetworkOptions.of(1).withThreads(1));
        List<NetworkEngineTest.Delivery> all = NetworkEngineTest.record(early);
        for (int i = 0; i < 1_000; i++) {
            if (i >= 500) {
                late.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
            }
            early.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
        }
        late.drain();
        early.drain();
        late.checkConservation();
        assertEquals(1, late.threadsUsed());
        assertEquals(all.subList((int) deliveredBefore, all.size()), seen);
        assertEquals(early.totals(), late.totals());
        assertEquals(early.latency().summary(), late.latency().summary());
    }

    @Test
    void moreThreadsThanSwitchesUseOnePerSwitch() {
        NetworkEngine net = run(TopologySpec.parse("builtin:line"), NetworkOptions.of(1).withThreads(8), 10);
        assertEquals(2, net.threadsUsed());
    }

    @Test
    void aDeliveryListenerKeepsTheNetworkOnOneThread() {
        NetworkEngine net = NetworkEngine.build(FAT_TREE, NetworkOptions.of(1).withThreads(2));
        List<NetworkEngineTest.Delivery> d = NetworkEngineTest.record(net);
        net.inject(0, NetworkEngineTest.packet(1, 100));
        net.drain();
        assertEquals(1, d.size());
        assertEquals(1, net.threadsUsed());
        assertFalse(net.windowed());
        assertEquals("a listener follows the network's deliveries or arrivals in event order; running on one thread",
                net.threadNote());
    }

    @Test
    void aControlOperationOnASwitchKeepsTheNetworkOnOneThread() {
        NetworkEngine net = NetworkEngine.build(FAT_TREE, NetworkOptions.of(1).withThreads(2));
        net.switchEngine("edge1_0").scheduleControl(5_000, (state, cycle) -> { });
        net.inject(0, NetworkEngineTest.packet(1, 100));
        net.drain();
        assertEquals(1, net.threadsUsed());
        assertEquals("switch edge1_0 runs control-plane code in its event loop (control operations, a packet generator"
                + " or a departure listener of its own); running on one thread", net.threadNote());
    }

    @Test
    void aZeroLatencySwitchLinkLeavesNoLookahead() {
        NetworkEngine net = run(TopologySpec.parse("builtin:line?latency_ns=0"), NetworkOptions.of(1).withThreads(2), 10);
        assertEquals(1, net.threadsUsed());
        assertEquals("builtin:line?latency_ns=0: links[1] (s1 - s2) has latency_ns 0, which leaves the switches no"
                + " lookahead to run ahead of each other; running on one thread", net.threadNote());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aStopSeenInsideAWorkerEndsTheRunOnTheCallersThread(int threads) {
        NetworkEngine net = NetworkEngine.build(FAT_TREE, NetworkOptions.of(1).withThreads(threads));
        net.stopWhen(() -> true);
        assertThrows(RunStopped.class, () -> {
            for (int i = 0; i < 20_000; i++) {
                net.inject(150L * i, NetworkEngineTest.packet(i, 64 + (i * 37) % 1400));
            }
            net.drain();
        });
        assertEquals(threads, net.threadsUsed());
    }

    @Test
    void impairedLinksGiveTheSameCountsOnOneAndTwoThreads() {
        Map<String, String> imp = Map.of("loss", "gilbert:p=0.02,r=0.3", "delay", "normal:mean=2us,sigma=1us",
                "dup", "0.05");
        NetworkEngine one = run(NetworkEngineTest.line(100, imp), NetworkOptions.of(7).withThreads(1), 3_000);
        NetworkEngine two = run(NetworkEngineTest.line(100, imp), NetworkOptions.of(7).withThreads(2), 3_000);
        one.drain();
        two.drain();
        assertEquals(2, two.threadsUsed());
        assertEquals(one.totals(), two.totals());
        assertEquals(one.latency().summary(), two.latency().summary());
        assertEquals(events(one.groundTruth(1, 0)), events(two.groundTruth(1, 0)));
        assertEquals(one.now(), two.now());
    }

    private static List<String> events(GroundTruthLog log) {
        List<String> out = new ArrayList<>();
        for (int e = 0; e < log.size(); e++) {
            out.add(log.packetIndex(e) + ":" + log.kind(e) + ":" + log.value(e));
        }
        return out;
    }
}

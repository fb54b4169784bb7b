package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MIDST on several pipes and queues: every sketch row is cut into P · Q partitions, S_in of
 * ingress pipe i at (j, q, h) and S_out of egress pipe j at (i, q, h), so that each pair
 * subtracts exactly one packet stream; monitoring, epochs and cleaning are per queue.
 */
class MidstPartitionTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int PORTS_PER_PIPE = 16;
    /** Input ports: port 3 of pipe 0 and port 3 of pipe 1 (19). */
    private static final int PIPE0_INPUT = 3;
    private static final int PIPE1_INPUT = PORTS_PER_PIPE + 3;
    private static final int BYTES = 1000;

    private static MidstConfig twoByTwo(int columns) {
        return MidstConfig.defaults().withRows(2, columns).withPipesAndQueues(2, 2, PORTS_PER_PIPE);
    }

    private static void send(MidstSwitch sw, long ns, int port, int src, int dst, int seq) {
        PacketRecord r = PacketRecord.allocate();
        r.timestampNs(ns).wireLength(BYTES).ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4(src).dstIpv4(dst)
                .srcPort(1000).dstPort(2000).tcpSeq(seq).ingressPort(port);
        sw.engine().arrive(sw.engine().clock().nsToCycles(ns), port, r);
    }

    @Test
    void twoPipesTwoQueuesCountEachFlowInItsOwnPartitionAndTheDifferenceIsItsLoss() {
        MidstConfig cfg = twoByTwo(4096);
        MidstSwitch sw = new MidstSwitch(cfg, TOFINO1, 10, 40);
        sw.monitorAlways();
        int a = 0x0A800001;
        int b = 0x0A800002;
        int c = 0x0A800003;
        int toA = MidstSwitch.destination(cfg, 0x0A000000, 1, 0); // pipe 1's port, low-priority queue 0
        int toB = MidstSwitch.destination(cfg, 0x0A000000, 1, 1); // pipe 1's port, queue 1 (served first)
        int toC = MidstSwitch.destination(cfg, 0x0A000000, 0, 0); // pipe 0's port, uncongested
        int[] departed = new int[4];
        sw.onDeparture((cycle, port, slot, pool) -> {
            int src = pool.record(slot).srcIpv4();
            if (src == 0x0A800004) {
                departed[3]++;
                assertEquals(cfg.dataPort(1), port);
            } else if (src >= a && src <= c) {
                departed[src - a]++;
                assertEquals(src == c ? cfg.dataPort(0) : cfg.dataPort(1), port, "egress port of flow " + (src - a));
            }
        });
        int n = 60;
        for (int k = 0; k < n; k++) {
            // A from pipe 0 and B from pipe 1 share pipe 1's port at twice its rate; C goes to pipe 0's port
            send(sw, k * 400L, PIPE0_INPUT, a, toA, k + 1);
            send(sw, k * 400L + 100, PIPE1_INPUT, b, toB, k + 1);
            if (k % 5 == 0) {
                send(sw, k * 400L + 200, PIPE1_INPUT, c, toC, k / 5 + 1);
            }
        }
        // D enters in pipe 2, beyond the P = 2 monitored pipes, towards A's queue: forwarded, never counted
        int d = 0x0A800004;
        int outsidePort = 2 * PORTS_PER_PIPE + 3;
        // even with pipe 2's monitor flag held on (a control script writing every pipe)
        sw.engine().state().writeRegister(2, MidstPipeline.MONITOR, cfg.partitionOf(toA), 1, 0);
        for (int k = 0; k < 4; k++) {
            send(sw, n * 400L + 30_000 + k * 1_000L, outsidePort, d, toA, k + 1);
        }
        int tail = 5;
        for (int k = 0; k < tail; k++) {
            // A again once the queue has drained: these departures carry the losses before them to egress
            send(sw, n * 400L + 50_000 + k * 1_000L, PIPE0_INPUT, a, toA, n + k + 1);
        }
        sw.engine().drain();
        sw.engine().checkConservation();
        int lostA = n + tail - departed[0];
        int lostB = n - departed[1];
        assertTrue(lostA > 10, "queue 0 starves under strict priority: lost " + lostA);
        assertEquals(n / 5, departed[2]);
        // register contents: flow A's cells hold its arrivals in ingress pipe 0 (partition (1, 0)) and its
        // departures in egress pipe 1 (partition (0, 0)); B's are partition (1, 1) of ingress pipe 1 and (1, 1) of egress pipe 1
        int[][] flows = {{a, toA, 0, n + tail, departed[0]}, {b, toB, 1, n, departed[1]}, {c, toC, 1, n / 5, departed[2]}};
        for (int[] f : flows) {
            MidstLossQuery.FlowKey key = new MidstLossQuery.FlowKey(f[0], f[1], PacketRecord.PROTO_UDP, 1000, 2000);
            int[] cells = MidstLossQuery.partitionedCells(cfg, key, f[2]);
            int j = cfg.partitionOf(f[1]) / cfg.queues();
            for (int r = 0; r < cfg.rows(); r++) {
                assertEquals(f[3], sw.engine().state().readRegister(f[2], MidstPipeline.inCount(r), cells[2 * r]), "S_in row " + r);
                assertEquals(f[4], sw.engine().state().readRegister(j, MidstPipeline.outCount(r), cells[2 * r + 1]), "S_out row " + r);
            }
            assertEquals(f[3] - f[4], MidstLossQuery.partitionedLoss(sw.engine(), cfg, key, f[2]));
        }
        assertEquals(lostA, MidstLossQuery.partitionedLoss(sw.engine(), cfg,
                new MidstLossQuery.FlowKey(a, toA, PacketRecord.PROTO_UDP, 1000, 2000), 0));
        // the partitions of a row: 4 x 1,024 counters; A's S_in cells are in the third quarter (partition (1, 0) = 2)
        int[] cellsA = MidstLossQuery.partitionedCells(cfg, new MidstLossQuery.FlowKey(a, toA, PacketRecord.PROTO_UDP, 1000, 2000), 0);
        assertEquals(2, cellsA[0] / 1024);
        assertEquals(0, cellsA[1] / 1024);
        // the per-packet reports: A's last departure computed min_i(u_i - v_i) = every loss before it
        long reportedA = 0;
        for (MidstCollector.FlowReport f : sw.collector().flows()) {
            if (f.src() == a) {
                reportedA = f.loss();
            }
        }
        assertEquals(lostA, reportedA);
        // D left (4 of 4) but is in no sketch: S_out partition (0, 0) of egress pipe 1 (its pipe 2 would alias onto 0)
        // holds A's departures and nothing else, and pipe 2 has no S_in counts
        assertEquals(4, departed[3]);
        for (int r = 0; r < cfg.rows(); r++) {
            long[] out = sw.engine().state().snapshot(1, MidstPipeline.outCount(r));
            long sum = 0;
            for (int col = 0; col < cfg.partitionColumns(); col++) {
                sum += out[col];
            }
            assertEquals(departed[0], sum, "S_out row " + r + " partition (0, 0)");
            assertEquals(0, java.util.Arrays.stream(sw.engine().state().snapshot(2, MidstPipeline.inCount(r))).sum());
        }
        assertTrue(lostA > lostB && lostB > 0, "queue 1 has priority: A lost " + lostA + ", B " + lostB);
    }

    @Test
    void congestionOnOneQueueMonitorsThatQueueOnly() {
        MidstConfig cfg = MidstConfig.defaults().withRows(2, 2048).withWaterMarks(20, 2).withPipesAndQueues(1, 2, PORTS_PER_PIPE);
        MidstSwitch sw = new MidstSwitch(cfg, TOFINO1, 10, 200);
        int busy = MidstSwitch.destination(cfg, 0x0A000000, 0, 0);
        int quiet = MidstSwitch.destination(cfg, 0x0A000000, 0, 1);
        long endNs = 400_000;
        sw.startProbes(0, 1_220, sw.engine().clock().nsToCycles(endNs) / 1_220);
        for (int k = 0; k < 150; k++) {
            // queue 0: a burst at 2.5 x the port; queue 1: one packet every 10 µs (never queues)
            send(sw, k * 330L, PIPE0_INPUT, 0x0A800000 + k % 7, busy, k + 1);
            if (k % 30 == 0) {
                send(sw, k * 330L + 7, PIPE0_INPUT + 1, 0x0A900000, quiet, k / 30 + 1);
            }
        }
        sw.engine().drain();
        List<Integer> kinds = new ArrayList<>();
        for (MidstCollector.Event e : sw.collector().events()) {
            kinds.add(e.kind());
        }
        assertEquals(List.of(MidstPipeline.KIND_MONITOR_ON, MidstPipeline.KIND_MONITOR_OFF, MidstPipeline.KIND_CLEAN_DONE), kinds);
        for (MidstCollector.Event e : sw.collector().events()) {
            assertEquals(0, e.queue(), "events are about queue 0: " + e);
            assertEquals(0, e.pipe());
        }
        var state = sw.engine().state();
        assertEquals(1, state.readRegister(0, MidstPipeline.EPOCH, 0), "queue 0 had one monitoring interval");
        assertEquals(0, state.readRegister(0, MidstPipeline.EPOCH, 1), "queue 1 was never monitored");
        assertEquals(0, state.readRegister(0, MidstPipeline.MONITOR, 0));
        assertEquals(0, state.readRegister(0, MidstPipeline.MONITOR, 1));
        // the busy queue's partition was counted (counters keep stale values after cleaning), the quiet one's never
        long busyCounts = 0;
        long quietCounts = 0;
        long[] counters = state.snapshot(0, MidstPipeline.inCount(0));
        for (int col = 0; col < counters.length; col++) {
            if (col < cfg.partitionColumns()) {
                busyCounts += counters[col];
            } else {
                quietCounts += counters[col];
            }
        }
        assertTrue(busyCounts > 0);
        assertEquals(0, quietCounts);
        assertTrue(sw.engine().counters().droppedTotal() > 0, "the busy queue dropped");
    }

    @Test
    void cleaningOnePartitionLeavesTheOthersIntact() {
        MidstConfig cfg = twoByTwo(1024);
        MidstSwitch sw = new MidstSwitch(cfg, TOFINO1, 10, 100);
        var state = sw.engine().state();
        int words = cfg.dirtyWordCount();
        int perPart = cfg.partitionSteps();
        for (int pipe = 0; pipe < 2; pipe++) {
            for (int r = 0; r < cfg.rows(); r++) {
                for (int w = 0; w < words; w++) {
                    state.writeRegister(pipe, MidstPipeline.inDirty(r), w, 0xFFFFFFFFL, 0);
                    state.writeRegister(pipe, MidstPipeline.outDirty(r), w, 0xFFFFFFFFL, 0);
                }
            }
        }
        // after a monitoring interval of queue (j = 1, q = 1) in ingress pipe 0: S_in partition 3 of pipe 0 and
        // S_out partition (i = 0, q = 1) = 1 of egress pipe 1 need cleaning
        state.writeRegister(0, MidstPipeline.IN_CLEAN, 3, perPart, 0);
        state.writeRegister(1, MidstPipeline.OUT_CLEAN, 1, perPart, 0);
        // pipe 0's generator asks about partitions 0, 1, 2, 3 in turn; pipe 1's likewise (nothing to clean there)
        sw.startProbes(0, 100, 4);
        sw.engine().drain();
        assertEquals(0, sw.ingressCleanPointer(0, 1, 1));
        assertEquals(0, sw.egressCleanPointer(1, 0, 1));
        List<MidstCollector.Event> done = sw.collector().events().stream().filter(e -> e.kind() == MidstPipeline.KIND_CLEAN_DONE).toList();
        assertEquals(1, done.size());
        assertEquals(List.of(0, 3), List.of(done.get(0).pipe(), done.get(0).queue()), "ingress pipe 0 cleaned partition (1, 1)");
        for (int pipe = 0; pipe < 2; pipe++) {
            for (int r = 0; r < cfg.rows(); r++) {
                long[] in = state.snapshot(pipe, MidstPipeline.inDirty(r));
                long[] out = state.snapshot(pipe, MidstPipeline.outDirty(r));
                for (int w = 0; w < words; w++) {
                    boolean inCleaned = pipe == 0 && w / perPart == 3;
                    boolean outCleaned = pipe == 1 && w / perPart == 1;
                    assertEquals(inCleaned ? 0 : 0xFFFFFFFFL, in[w], "S_in pipe " + pipe + " row " + r + " word " + w);
                    assertEquals(outCleaned ? 0 : 0xFFFFFFFFL, out[w], "S_out pipe " + pipe + " row " + r + " word " + w);
                }
            }
        }
        // the probe went out through egress pipe 1 and came home through pipe 1's ingress and pipe 0's egress
        assertTrue(sw.engine().counters().recirculations() >= 2L * perPart, "recirculations " + sw.engine().counters().recirculations());
    }

    @Test
    void compiledEqualsInterpreterOnTwoPipesAndTwoQueues() {
        MidstConfig cfg = twoByTwo(2048).withWaterMarks(20, 2);
        List<Long> compiled = new ArrayList<>();
        List<Long> interpreted = new ArrayList<>();
        MidstSwitch c = runMixed(cfg, Backend.COMPILED, compiled);
        MidstSwitch i = runMixed(cfg, Backend.INTERPRETER, interpreted);
        assertTrue(compiled.size() > 600, "departures " + compiled.size());
        assertEquals(interpreted, compiled);
        assertEquals(i.engine().counters().droppedTotal(), c.engine().counters().droppedTotal());
        assertTrue(c.engine().counters().droppedTotal() > 0);
        assertTrue(c.collector().events().size() >= 4, "monitoring events " + c.collector().events());
        assertEquals(i.collector().events(), c.collector().events());
        // both generators' probes reported: events of ingress pipes 0 and 1
        assertEquals(java.util.Set.of(0, 1), c.collector().events().stream().map(MidstCollector.Event::pipe)
                .collect(java.util.stream.Collectors.toSet()));
        for (RegisterArray r : c.pipeline().program.registers()) {
            for (int pipe = 0; pipe < TOFINO1.pipes(); pipe++) {
                assertArrayEquals(i.engine().state().snapshot(pipe, r.name()), c.engine().state().snapshot(pipe, r.name()),
                        r.name() + " pipe " + pipe);
            }
        }
    }

    /** Bursts from both pipes to all four queues, probes from both generators. */
    private static MidstSwitch runMixed(MidstConfig cfg, Backend backend, List<Long> departures) {
        MidstSwitch sw = new MidstSwitch(cfg, TOFINO1, 10, 150, backend);
        sw.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add((long) pool.record(slot).srcIpv4());
        });
        sw.startProbes(0, 700, 1_000);
        for (int k = 0; k < 1_200; k++) {
            int j = (k / 3) % 2;
            int q = k % 2;
            send(sw, k * 250L, k % 2 == 0 ? PIPE0_INPUT : PIPE1_INPUT, 0x0A800000 + k % 11,
                    MidstSwitch.destination(cfg, 0x0A000000, j, q), k + 1);
        }
        sw.engine().drain();
        return sw;
    }

    @Test
    void fourRowsOnSeveralPipesAreRefusedByTheCompilerForStageOnesGateways() {
        MidstConfig cfg = MidstConfig.defaults().withRows(4, MidstConfig.columnsFor(256, 4)).withPipesAndQueues(2, 2, PORTS_PER_PIPE);
        Compilation c = ProgramCompiler.compile(new MidstPipeline(cfg).program, TOFINO1);
        // 18: stage 1 also takes the water marks' verdict (the probe depth's comparison moved out of stage 0's
        // gateways, past a Tofino gateway's 12 range bits, into a stateful ALU's predicate); the report's stage
        // tests each row's difference against the loss threshold (min(d_i, T) == T, one gateway a row); stage 2's
        // ingress also removes an upstream switch's report header (one gateway on its validity bit)
        assertEquals(List.of("midst: stage 1 ingress: gateways 18 > 16 [stage-resources]",
                "midst: stage 2 (ingress+egress): gateways 17 > 16 (ingress 14 + egress 3) [stage-resources]",
                "midst: stage 9 (ingress+egress): gateways 21 > 16 (ingress 7 + egress 14) [stage-resources]"), c.lines());
        // 2 and 3 rows fit on tofino1 for every P <= 4 and Q <= 32; 4 rows fit with one pipe
        for (int rows = 2; rows <= 3; rows++) {
            MidstConfig most = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(256, rows))
                    .withPipesAndQueues(MidstConfig.MAX_PIPES, MidstConfig.MAX_QUEUES, PORTS_PER_PIPE);
            assertEquals(List.of(), ProgramCompiler.compile(new MidstPipeline(most).program, TOFINO1).lines(), rows + " rows");
        }
        MidstConfig onePipe = MidstConfig.defaults().withRows(4, MidstConfig.columnsFor(256, 4)).withPipesAndQueues(1, 32, PORTS_PER_PIPE);
        assertEquals(List.of(), ProgramCompiler.compile(new MidstPipeline(onePipe).program, TOFINO1).lines());
    }

    @Test
    void shapesThatCannotBePartitionedAreUserErrors() {
        MidstConfig d = MidstConfig.defaults();
        assertEquals("midst: pipes must be a power of two from 1 to 4 (the pipe is a bit field of a sketch index), got 3",
                assertThrows(UserError.class, () -> d.withPipesAndQueues(3, 1, 16)).getMessage());
        assertEquals("midst: queues must be a power of two from 1 to 32 (the queue is a bit field of a sketch index), got 6",
                assertThrows(UserError.class, () -> d.withPipesAndQueues(1, 6, 16)).getMessage());
        assertEquals("midst: with 2 pipes x 2 queues, columns must be a power of two of at least 128 (each of the 4"
                        + " partitions of a row holds whole dirty words), got 96",
                assertThrows(UserError.class, () -> d.withRows(2, 96).withPipesAndQueues(2, 2, 16)).getMessage());
        assertEquals("midst: pipes=2 but target unconstrained has 1 pipe(s)",
                assertThrows(UserError.class, () -> new MidstSwitch(d.withPipesAndQueues(2, 1, 16),
                        TargetProfiles.builtIn("unconstrained"), 10, 100)).getMessage());
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.ge;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.or;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.shr;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property: the event-driven engine and the cycle-stepped reference produce the
 * same departures (cycle, port, packet), the same drops and the same register
 * contents, on random programs and random traffic (several pipes, queue
 * overflow, drops, recirculation, egress state that sees queue depths).
 */
class EventVsSteppedEngineTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int PORTS = 8; // two pipes of 4 on a shrunken tofino1 below

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void sameDeparturesDropsAndRegisters(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        TargetProfile profile = smallPipes();
        StageProgram program = randomProgram(rnd);
        PortConfig port = PortConfig.strictPriority(new double[] {10, 25, 40}[rnd.nextInt(3)])
                .withLimits(40 + rnd.nextInt(200), 400 + rnd.nextInt(400));
        SwitchConfig cfg = new SwitchConfig(profile, program, PORTS, port, true);
        List<SteppedReferenceEngine.Arrival> arrivals = randomTraffic(rnd, 1500);

        SwitchEngine event = new SwitchEngine(cfg);
        List<SteppedReferenceEngine.Departure> got = new ArrayList<>();
        event.onDeparture((c, p, s, pool) -> got.add(new SteppedReferenceEngine.Departure(c, p, pool.packetNumber(s))));
        for (SteppedReferenceEngine.Arrival a : arrivals) {
            event.arrive(a.cycle(), a.port(), a.record());
        }
        event.drain();
        event.checkConservation();

        SteppedReferenceEngine ref = new SteppedReferenceEngine(cfg);
        ref.run(arrivals);

        assertTrue(got.size() > 100, "traffic must get through: " + got.size());
        // the random programs reach the ingress drop and the unset egress port on every seed
        List<String> kinds = ref.drops.stream().map(SteppedReferenceEngine.Drop::cause).distinct().toList();
        assertTrue(kinds.contains("ingress_drop_ctl") && kinds.contains("no_egress_port"), "seed " + seed + ": " + kinds);
        assertEquals(ref.departures, got);
        assertEquals(ref.drops.size(), event.counters().droppedTotal());
        for (RegisterArray r : program.registers()) {
            for (int pipe = 0; pipe < profile.pipes(); pipe++) {
                assertArrayEquals(ref.state.snapshot(pipe, r.name()), event.state().snapshot(pipe, r.name()),
                        "seed " + seed + " register " + r.name() + " pipe " + pipe);
            }
        }
        List<String> causes = new ArrayList<>();
        ref.drops.stream().sorted(Comparator.comparing(SteppedReferenceEngine.Drop::cause)).forEach(d -> causes.add(d.cause()));
        for (String c : causes.stream().distinct().toList()) {
            assertEquals(causes.stream().filter(c::equals).count(), event.counters().droppedFor(c), c);
        }
    }

    /** tofino1 with 4 ports per pipe, so 8 ports span two pipes with separate parsers and registers. */
    private static TargetProfile smallPipes() {
        TargetProfile t = TOFINO1;
        return new TargetProfile(t.name(), t.description(), t.stagesPerGress(), 2, 4, t.clockHz(), t.sram(), t.tcam(),
                t.statefulAlusPerStage(), t.registerWordBits(), t.registerCellWidths(), t.saluMaxConditions(),
                t.saluMaxBranchesPerWord(), t.templates(), t.hashFunctionsPerStage(), t.hashBitsPerFunction(),
                t.logicalTablesPerStage(), t.phvContainers(), t.latency(), t.tmBufferBytes(), t.tmCellBytes(),
                t.recirculationGbps(), t.exactEntryOverheadBits(), t.fullArithmetic(), t.mau());
    }

    private static StageProgram randomProgram(SplittableRandom rnd) {
        ProgramBuilder b = ProgramBuilder.create("random", "");
        FiveTuple t = FiveTuple.declare(b);
        Field inPort = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        Field acc = b.metadata(Gress.INGRESS, "meta.acc", 32);
        Field v = b.metadata(Gress.INGRESS, "meta.v", 32);
        Field low = b.metadata(Gress.INGRESS, "meta.v_low", 3);
        Field dropBits = b.metadata(Gress.INGRESS, "meta.v_drop", 8);
        Field inPipe = b.metadata(Gress.INGRESS, "meta.in_pipe", 9);
        int stages = 1 + rnd.nextInt(4);
        long salt = rnd.nextLong();
        for (int s = 0; s < stages; s++) {
            ProgramBuilder.StageBuilder sb = b.stage(Gress.INGRESS, s);
            int size = 1 << (4 + rnd.nextInt(6));
            HashUnit h = sb.hash("h" + s, HashAlgorithm.seeded(salt + s), 16, t.fields());
            RegisterArray r = sb.register("r" + s, 32, size);
            RegisterAction a = sb.action(RegisterAction.on(r, "a")
                    .condition(Operand.REG_LO, CmpOp.LT, Operand.constant(1 + rnd.nextInt(8)))
                    .updateLo(Predicate.C0, AluOp.ADD, Operand.REG_LO, Operand.IN_LO)
                    .updateLo(Predicate.NOT_C0, AluOp.XOR, Operand.REG_LO, Operand.IN_LO)
                    .output(RegisterAction.OutputSource.NEW_LO));
            boolean first = s == 0;
            sb.body(c -> {
                // the stateful ALU sees acc as it entered the stage (stage 0: the source address); acc then folds in
                // the previous stage's output
                c.execute(a, and(hash(h), constant(size - 1)), read(first ? t.src() : acc)).set(v, output(a));
                if (first) {
                    c.set(acc, add(read(t.src()), constant(1))).set(inPipe, shr(read(inPort), constant(2)));
                } else {
                    c.set(acc, add(read(acc), read(v)));
                }
            });
        }
        // the last register output, masked, is known one stage later; the gateways branch on it the stage after
        int dropMask = (1 << (2 + rnd.nextInt(3))) - 1;
        b.stage(Gress.INGRESS, stages).body(c -> c.set(low, and(read(v), constant(7))).set(dropBits, and(read(v), constant(dropMask))));
        b.stage(Gress.INGRESS, stages + 1).body(c -> c.when(ge(read(inPort), constant(PortNumbers.RECIRCULATION_BASE)),
                recirculated -> recirculated.set(out, read(low)),
                front -> front.when(eq(read(dropBits), constant(0)),
                        d -> d.set(drop, 1),
                        d -> d.when(eq(read(low), constant(7)),
                                r -> r.set(out, or(read(inPipe), constant(PortNumbers.RECIRCULATION_BASE))),
                                r -> r.when(eq(read(low), constant(6)),
                                        u -> u.set(out, PortNumbers.UNSET),
                                        u -> u.set(out, read(low)))))));
        // egress: a register that reads queue depth, and an egress drop now and then
        Field qdepth = b.intrinsic(Intrinsic.ENQ_QDEPTH);
        Field egPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        Field egDrop = b.intrinsic(Intrinsic.EGRESS_DROP_CTL);
        Field old = b.metadata(Gress.EGRESS, "meta.old_depth", 32);
        Field sum = b.metadata(Gress.EGRESS, "meta.depth_sum", 32);
        ProgramBuilder.StageBuilder eg = b.stage(Gress.EGRESS, 0);
        RegisterArray depth = eg.register("eg_depth", 32, 512);
        RegisterAction maxDepth = eg.action(RegisterAction.on(depth, "max")
                .updateLo(AluOp.MAX, Operand.REG_LO, Operand.IN_LO).output(RegisterAction.OutputSource.OLD_LO));
        eg.body(c -> c.execute(maxDepth, read(egPort), read(qdepth)).set(old, output(maxDepth)));
        b.stage(Gress.EGRESS, 1).body(c -> c.set(sum, add(read(old), read(qdepth))));
        b.stage(Gress.EGRESS, 2).body(c -> c.when(eq(and(read(sum), constant(31)), constant(30)), d -> d.set(egDrop, 1)));
        return b.build();
    }

    private static List<SteppedReferenceEngine.Arrival> randomTraffic(SplittableRandom rnd, int n) {
        List<SteppedReferenceEngine.Arrival> list = new ArrayList<>();
        long t = rnd.nextInt(50);
        for (int i = 0; i < n; i++) {
            // bursts (gap 0..3) and idle periods, sizes 64..1500
            t += rnd.nextInt(10) < 8 ? rnd.nextInt(4) : rnd.nextInt(5000);
            PacketRecord r = PacketRecord.allocate();
            r.wireLength(64 + rnd.nextInt(1437)).ipVersion(4).protocol(rnd.nextBoolean() ? 6 : 17)
                    .srcIpv4(rnd.nextInt(64)).dstIpv4(rnd.nextInt(64)).srcPort(rnd.nextInt(4)).dstPort(80);
            list.add(new SteppedReferenceEngine.Arrival(t, rnd.nextInt(PORTS), r));
        }
        return list;
    }
}

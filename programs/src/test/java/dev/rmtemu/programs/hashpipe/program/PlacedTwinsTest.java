package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.examples.CounterProgram;
import dev.rmtemu.model.examples.FiveTuple;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageDecl;
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
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.max;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.ne;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two of the project's hand-placed programs written as controls that name no stages (as a P4
 * author writes them), placed by the compiler (model.compiler.TablePlacer): the placement fits
 * tofino1, equals the hand placement stage by stage, and a replay of a random trace gives the
 * same departures (cycle, port, packet), drops and registers in every pipe as the hand-placed twin.
 */
class PlacedTwinsTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int PACKETS = 20_000;

    /** counter written as a control: hash, increment, copy the count out, send to port 1. */
    private static StageProgram counterControl() {
        ProgramBuilder b = ProgramBuilder.create(CounterProgram.NAME, "counter, no stages named");
        FiveTuple t = FiveTuple.declare(b);
        Field count = b.metadata(Gress.INGRESS, "meta.flow_count", CounterProgram.DEFAULT_CELL_BITS);
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
        int bits = Integer.numberOfTrailingZeros(CounterProgram.DEFAULT_CELLS);
        HashUnit h = c.hash("flow_hash", HashAlgorithm.byName(CounterProgram.DEFAULT_HASH), bits, t.fields());
        RegisterArray counters = c.register("flow_count", CounterProgram.DEFAULT_CELL_BITS, CounterProgram.DEFAULT_CELLS);
        RegisterAction inc = c.action(RegisterAction.on(counters, "increment")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
        c.apply(code -> code.execute(inc, hash(h)).set(count, output(inc)).set(egressPort, CounterProgram.DEFAULT_EGRESS_PORT));
        return b.build();
    }

    /**
     * HashPipe (default: fingerprint keys, d = 6, counting packets) as its P4 control reads: the
     * key and increment, then per HashPipe stage the two mirrored stateful ALUs on the carried
     * entry's slot and the gateways that choose what is carried on. No stage is named; the
     * dependencies alone give the layout.
     */
    private static StageProgram hashPipeControl() {
        HashPipeConfig cfg = HashPipeConfig.defaults();
        ProgramBuilder b = ProgramBuilder.create(HashPipeProgram.NAME, "HashPipe, no stages named");
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field key = b.metadata(Gress.INGRESS, "hp.carry_key", 32);
        Field count = b.metadata(Gress.INGRESS, "hp.carry_count", cfg.countBits());
        Field outKey = b.metadata(Gress.INGRESS, "hp.out_key", 32);
        Field outCount = b.metadata(Gress.INGRESS, "hp.out_count", cfg.countBits());
        Field[] inputs = HashPipeProgram.fingerprintInputs(b);
        ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
        HashUnit fp = c.hash("hp_fingerprint", HashAlgorithm.byName(HashPipeConfig.FINGERPRINT_HASH), 32, inputs);
        List<RegisterAction[]> alus = new ArrayList<>();
        List<HashUnit> index = new ArrayList<>();
        for (int i = 0; i < cfg.stages(); i++) {
            boolean first = i == 0;
            index.add(c.hash("hp_s" + i + "_index", cfg.stageHash(i), HashPipeConfig.INDEX_HASH_BITS, key));
            RegisterArray table = c.register(HashPipeProgram.tableName(i), HashPipeConfig.COUNT_BITS, true, cfg.countersPerStage());
            RegisterArray mirror = c.register(HashPipeProgram.mirrorName(i), HashPipeConfig.COUNT_BITS, true, cfg.countersPerStage());
            alus.add(new RegisterAction[] {
                c.action(update(table, first).output(first ? Predicate.NOT_C0 : Predicate.NOT_C0_AND_C1,
                        RegisterAction.OutputSource.OLD_LO)),
                c.action(update(mirror, first).output(Predicate.NOT_C0, RegisterAction.OutputSource.OLD_HI))});
        }
        c.apply(code -> {
            code.set(key, max(hash(fp), constant(KeyKind.ZERO_KEY_ALIAS))).set(count, constant(1))
                    .set(egressPort, HashPipeProgram.DEFAULT_EGRESS_PORT);
            for (int i = 0; i < cfg.stages(); i++) {
                if (i > 0) {
                    boolean afterFirst = i == 1;
                    Consumer<Block> carry = x -> x.set(key, read(outKey)).set(count, read(outCount));
                    code.when(eq(read(outCount), constant(0)),
                            nothing -> nothing.set(key, 0).set(count, 0),
                            carried -> {
                                if (afterFirst) {
                                    carry.accept(carried);
                                } else {
                                    carried.when(ne(read(outKey), constant(0)), carry::accept);
                                }
                            });
                }
                Expr slot = mod(hash(index.get(i)), constant(cfg.countersPerStage()));
                RegisterAction[] a = alus.get(i);
                code.execute(a[0], slot, read(key), read(count))
                        .execute(a[1], slot, read(key), read(count))
                        .set(outKey, output(a[0]))
                        .set(outCount, output(a[1]));
            }
        });
        return b.build();
    }

    /** HashPipe's register actions, as {@link HashPipeProgram} declares them. */
    private static RegisterAction.Builder update(RegisterArray a, boolean first) {
        RegisterAction.Builder r = RegisterAction.on(a, first ? "insert" : "merge_or_keep_larger")
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.IN_LO);
        if (first) {
            return r.updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                    .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.IN_HI)
                    .updateHi(Predicate.NOT_C0, AluOp.SET, Operand.IN_HI, Operand.constant(0));
        }
        return r.condition(Operand.REG_HI, CmpOp.LT, Operand.IN_HI)
                .updateLo(Predicate.NOT_C0_AND_C1, AluOp.SET, Operand.IN_LO, Operand.constant(0))
                .updateHi(Predicate.C0, AluOp.ADD, Operand.REG_HI, Operand.IN_HI)
                .updateHi(Predicate.NOT_C0_AND_C1, AluOp.SET, Operand.IN_HI, Operand.constant(0));
    }

    /** What a stage holds, by name: its stateful ALUs' arrays, hash units and tables, and how it depends on the one before. */
    private static List<String> layout(StageProgram p) {
        List<String> out = new ArrayList<>();
        for (StageDecl d : p.stages(Gress.INGRESS)) {
            out.add(d.number() + " " + d.dependency() + " " + d.registers().stream().map(RegisterArray::name).toList() + " "
                    + d.hashes().stream().map(HashUnit::name).toList() + " " + d.body().size());
        }
        return out;
    }

    @Test
    void counterWithoutStagesPlacesAsTheHandPlacedCounterAndReplaysTheSame() {
        StageProgram hand = ProgramPlugins.registry().build(CounterProgram.NAME, Map.of());
        Compilation placed = ProgramCompiler.compile(counterControl(), TOFINO1).requireAccepted();
        assertEquals(layout(hand), layout(placed.program()));
        assertEquals(List.of("ingress 0 action flow_count.increment: no dependency"), reasons(placed.program()));
        assertEquals(ProgramCompiler.compile(hand, TOFINO1).resources().stages(), placed.resources().stages());
        assertSameReplay(hand, placed.program());
    }

    /**
     * HashPipe: the compiler's placement is the hand placement, 12 of tofino1's 12 stages (the key
     * in stage 0; HashPipe stage i's stateful ALUs in 2i+1; the gateways choosing the next carried
     * entry in 2i+2, because they match on the ALUs' outputs, which reach the PHV when the ALUs'
     * stage ends; the next ALUs one stage later again, since they hash the carried key). The
     * paper (Sivaraman et al., SOSR 2017, section 4) puts each of its d = 6 hash tables in one
     * match-action stage, its P4 action computing the minimum and carrying it on within the
     * stage: on bmv2 a register read's value is usable in the same action. On Tofino a stateful
     * ALU returns one word at the end of its stage, so the comparison and the carry need a stage
     * of their own: 2d stages, not d.
     */
    @Test
    void hashPipeWithoutStagesPlacesAsTheHandPlacedHashPipeAndReplaysTheSame() {
        StageProgram hand = ProgramPlugins.registry().build(HashPipeProgram.NAME, Map.of());
        Compilation placed = ProgramCompiler.compile(hashPipeControl(), TOFINO1).requireAccepted();
        assertEquals(layout(hand), layout(placed.program()));
        assertEquals(12, placed.program().stages(Gress.INGRESS).size());
        List<String> why = reasons(placed.program());
        assertEquals("ingress 0 action set(hp.carry_key, hp.carry_count, ig_intr_tm_md.ucast_egress_port): no dependency", why.get(0));
        assertEquals("ingress 1 action hashpipe_s0.insert: match dependency on set(hp.carry_key, hp.carry_count, "
                + "ig_intr_tm_md.ucast_egress_port) (hp.carry_key)", why.get(1));
        assertEquals("ingress 2 gateway if (hp.out_count == 0): match dependency on hashpipe_s0.insert (hp.out_count)",
                why.get(2));
        assertEquals(ProgramCompiler.compile(hand, TOFINO1).resources().stages(), placed.resources().stages());
        assertSameReplay(hand, placed.program());
    }

    private static List<String> reasons(StageProgram p) {
        return p.placement().stream().map(e -> e.gress().label() + " " + e.stage() + " " + e.kind() + " " + e.element() + ": "
                + e.reason()).toList();
    }

    private static void assertSameReplay(StageProgram hand, StageProgram placed) {
        Run a = run(hand);
        Run b = run(placed);
        assertTrue(a.departures.size() / 3 > PACKETS / 10, "packets leave: " + a.departures.size() / 3);
        assertEquals(a.departures, b.departures);
        assertEquals(a.dropped, b.dropped);
        assertEquals(hand.registers().stream().map(RegisterArray::name).toList(),
                placed.registers().stream().map(RegisterArray::name).toList());
        for (RegisterArray r : hand.registers()) {
            for (int pipe = 0; pipe < TOFINO1.pipes(); pipe++) {
                assertArrayEquals(a.engine.state().snapshot(pipe, r.name()), b.engine.state().snapshot(pipe, r.name()),
                        r.name() + " pipe " + pipe);
                if (r.pair()) {
                    assertArrayEquals(a.engine.state().snapshotHi(pipe, r.name()), b.engine.state().snapshotHi(pipe, r.name()),
                            r.name() + " hi, pipe " + pipe);
                }
            }
        }
    }

    private record Run(SwitchEngine engine, List<Long> departures, long dropped) {
    }

    /** A random trace (heavy-tailed flows over all ports) through one switch. */
    private static Run run(StageProgram p) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        List<Long> departures = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add(pool.packetNumber(slot));
        });
        SplitMix64 rnd = new SplitMix64(23);
        PacketRecord r = PacketRecord.allocate();
        long cycle = e.now() + 1;
        int ports = e.config().frontPanelPorts();
        for (int i = 0; i < PACKETS; i++) {
            int flow = (int) (Math.pow(rnd.nextDouble(), 3) * 2000);
            r.ipVersion(4).srcIpv4(0x0A000000 | flow).dstIpv4(0xC0A80000 | (flow % 40)).protocol(flow % 3 == 0 ? 17 : 6)
                    .srcPort(1000 + flow).dstPort(80 + flow % 5).ipId(i & 0xFFFF).ttl(64)
                    .wireLength(64 + (int) (rnd.nextDouble() * 1400));
            cycle += (long) (rnd.nextDouble() * 40);
            e.arrive(cycle, (int) (rnd.nextDouble() * ports), r);
        }
        e.drain();
        return new Run(e, departures, e.counters().droppedTotal());
    }
}

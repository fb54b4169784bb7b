package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.phv.PortNumbers;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Multicast, resubmission, the packet generator, control-plane operations and violations in a replay. */
class EngineFeaturesTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static SwitchEngine engine(ProgramBuilder b) {
        return new SwitchEngine(new SwitchConfig(TOFINO1, b.build(), 8, PortConfig.strictPriority(100), true));
    }

    @Test
    void multicastReplicatesToEveryPortOfTheGroup() {
        ProgramBuilder b = ProgramBuilder.create("mc", "");
        Field grp = b.intrinsic(Intrinsic.MCAST_GRP);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(grp, 5));
        SwitchEngine e = engine(b);
        e.multicastGroup(5, 2, 3, 6);
        List<Integer> ports = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> ports.add(p));
        e.arrive(0, 0, EngineTimingTest.packet(500, 1));
        e.drain();
        assertEquals(List.of(2, 3, 6), ports.stream().sorted().toList());
        assertEquals(1, e.counters().packetsIn());
        assertEquals(2, e.counters().replicated(), "copies beyond the packet itself");
        e.checkConservation();
    }

    @Test
    void resubmitRerunsIngressOnceThenTheSecondIsDropped() {
        ProgramBuilder b = ProgramBuilder.create("resub", "");
        Field resubmit = b.intrinsic(Intrinsic.RESUBMIT);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field src = b.header("ipv4.src_addr");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray passes = s.register("passes", 32, 4);
        RegisterAction inc = s.action(RegisterAction.on(passes, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
        Field n = b.metadata(Gress.INGRESS, "meta.passes", 32);
        s.body(c -> c.execute(inc, and(read(src), constant(3))).set(n, output(inc)));
        // packet 0 asks for one resubmit, packet 1 asks on every pass (the gateway reads the count a stage later)
        b.stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(src), constant(1)),
                t -> t.set(resubmit, 1),
                e -> e.when(eq(read(n), constant(1)), t -> t.set(resubmit, 1), o -> o.set(out, 1))));
        SwitchEngine e = engine(b);
        e.arrive(0, 0, EngineTimingTest.packet(100, 0));
        e.arrive(1000, 0, EngineTimingTest.packet(100, 1));
        e.drain();
        assertEquals(2, e.state().readRegister(0, "passes", 0));
        assertEquals(2, e.state().readRegister(0, "passes", 1));
        assertEquals(1, e.counters().packetsOut());
        assertEquals(1, e.counters().droppedFor(SwitchEngine.DROP_RESUBMIT));
        e.checkConservation();
    }

    @Test
    void packetGeneratorInjectsOnItsPeriodFromTheRecirculationPort() {
        ProgramBuilder b = ProgramBuilder.create("gen", "");
        Field in = b.intrinsic(Intrinsic.INGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray seen = s.register("seen", 32, 512);
        RegisterAction inc = s.action(RegisterAction.on(seen, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.execute(inc, read(in)));
        SwitchEngine e = engine(b);
        List<Long> when = new ArrayList<>();
        e.packetGenerator(0, 100, 250, 4, r -> {
            r.wireLength(64);
            when.add(r.timestampNs());
        });
        e.drain();
        assertEquals(4, e.state().readRegister(0, "seen", PortNumbers.recirculationPort(0)));
        assertEquals(4, e.counters().droppedFor(SwitchEngine.DROP_NO_PORT), "no egress port chosen");
        assertEquals(List.of(81L, 286L, 491L, 696L), when, "cycles 100, 350, 600, 850 at 1.22 GHz, in ns");
    }

    @Test
    void anUnboundedGeneratorFiresThroughIdleGapsAndStopsAtTheEnd() {
        ProgramBuilder b = ProgramBuilder.create("gen0", "");
        Field in = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray seen = s.register("seen", 32, 512);
        RegisterAction inc = s.action(RegisterAction.on(seen, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.execute(inc, read(in)).set(out, 1));
        SwitchEngine e = engine(b);
        e.packetGenerator(0, 0, 1000, 0, r -> r.wireLength(64));
        e.arrive(100_000, 0, EngineTimingTest.packet(64, 1)); // a long idle gap before the only packet
        e.drain();
        long generated = e.state().readRegister(0, "seen", PortNumbers.recirculationPort(0));
        assertEquals(true, generated >= 101, "fired every 1000 cycles through the gap: " + generated);
        assertEquals(true, generated < 110, "and stopped soon after the last packet left: " + generated);
    }

    @Test
    void aStoppedGeneratorEmitsNothingFromItsNextFiring() {
        ProgramBuilder b = ProgramBuilder.create("gen1", "");
        Field in = b.intrinsic(Intrinsic.INGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray seen = s.register("seen", 32, 512);
        RegisterAction inc = s.action(RegisterAction.on(seen, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.execute(inc, read(in)));
        SwitchEngine e = engine(b);
        int other = e.packetGenerator(0, 0, 1000, 3, r -> r.wireLength(64));
        int g = e.packetGenerator(0, 0, 1000, 0, r -> r.wireLength(64));
        assertEquals(0, other);
        assertEquals(1, g);
        // the control plane stops the unbounded one at cycle 4500: it fired at 0, 1000, ..., 4000
        e.scheduleControl(4_500, (st, c) -> e.stopPacketGenerator(g));
        e.arrive(20_000, 0, EngineTimingTest.packet(64, 1)); // traffic continues well after the stop
        e.drain();
        assertEquals(3 + 5, e.state().readRegister(0, "seen", PortNumbers.recirculationPort(0)));
    }

    @Test
    void controlPlaneOperationsRunAtTheirCycle() {
        ProgramBuilder b = ProgramBuilder.create("cp", "");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray r = s.register("r", 32, 1);
        RegisterAction inc = s.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.execute(inc, constant(0)).set(out, 1));
        SwitchEngine e = engine(b);
        long[] seenAtReset = new long[1];
        e.scheduleControl(500, (st, c) -> {
            seenAtReset[0] = st.readRegister(0, "r", 0);
            st.resetRegister("r");
        });
        for (int i = 0; i < 10; i++) {
            e.arrive(i * 100, 0, EngineTimingTest.packet(64, i));
        }
        e.drain();
        assertEquals(6, seenAtReset[0], "packets at cycles 0..500 counted before the reset");
        assertEquals(4, e.state().readRegister(0, "r", 0));
    }

    @Test
    void aProgramThatWouldBreakARuleOnOnePathIsRefusedBeforeTheFirstPacket() {
        // Before the IR this ran until packet 7 took the second access; now the register-access pass proves it
        ProgramBuilder b = ProgramBuilder.create("bad", "");
        Field src = b.header("ipv4.src_addr");
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 1);
        RegisterArray r = s.register("r", 32, 16);
        RegisterAction inc = s.action(RegisterAction.on(r, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.execute(inc, constant(0)).when(eq(read(src), constant(7)), t -> t.execute(inc, constant(1))));
        UserError e = assertThrows(UserError.class, () -> engine(b));
        assertEquals(3, e.exitCode());
        assertEquals("program bad refused by tofino1:\n  bad: ingress stage 1: register array r: accessed 2 times on one "
                + "control path; a stateful ALU does one read-modify-write per packet pass [register-access]", e.getMessage());
    }
}

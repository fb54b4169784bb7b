package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.metrics.Counters;
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
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A resubmitted packet is parsed again as it was on arrival: a generated packet without frame
 * bytes is the generator's own header, which the frame graph does not run over on either pass
 * (run over its zero bytes, the graph's Ethernet extract would refuse it as a short frame). Its
 * second pass sees the recirculation port it was generated on as ingress_port.
 */
class ResubmittedGeneratedPacketTest {
    @Test
    void aGeneratedPacketWithoutFrameBytesIsResubmittedWithoutAParserError() {
        ProgramBuilder b = ProgramBuilder.create("gen_resubmit", "generated packets resubmitted once");
        b.header("ethernet.ether_type");
        Field in = b.intrinsic(Intrinsic.INGRESS_PORT);
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field type = b.intrinsic(Intrinsic.RESUBMIT);
        Field flag = b.intrinsic(Intrinsic.RESUBMIT_FLAG);
        b.resubmit(1, List.of(), List.of());
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        RegisterArray second = s.register("second_passes", 32, 512);
        RegisterAction inc = s.action(RegisterAction.on(second, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s.body(c -> c.when(eq(read(flag), constant(0)), first -> first.set(type, 1),
                again -> again.execute(inc, read(in)).set(out, 1)));
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), b.build(), 8,
                PortConfig.strictPriority(40), true));
        e.packetGenerator(0, 100, 1000, 4, r -> r.wireLength(64));
        e.drain();
        e.checkConservation();
        assertEquals(List.of(4L, 4L, 0L, 4L), List.of(e.counters().packetsIn(), e.counters().packetsOut(),
                e.counters().droppedFor(Counters.PARSER_ERROR),
                e.state().readRegister(0, "second_passes", PortNumbers.recirculationPort(0))));
    }
}

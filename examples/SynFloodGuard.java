import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.and;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;

/**
 * Example: drop TCP SYNs to a destination once it has received more than a
 * limit of them. Stage 0: a gateway tests the SYN bit; a SYN increments its
 * destination's counter, and the stateful ALU itself compares the count with
 * the limit (a Tofino gateway cannot range-match a 32-bit count: p4c's
 * gateway.cpp takes at most 12 bits). Stage 1: a gateway drops the SYN when
 * the ALU said "over". Other packets go to one port.
 *
 * Run it: ./rmtemu replay --program examples/SynFloodGuard.java --param limit=5 --trace 'gen:isp?packets=100000'
 */
public final class SynFloodGuard implements ProgramFactory {
    /** The SYN bit of the TCP flags. */
    private static final long SYN = 0x02;

    @Override
    public String name() {
        return "syn_flood_guard";
    }

    @Override
    public String description() {
        return "counts TCP SYNs per destination address and drops them over a limit";
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("limit", 100, 1, 1L << 31, "SYNs a destination may receive"),
                ParamSpec.integer("port", 1, 0, 511, "egress port of every packet that is not dropped"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        ProgramBuilder b = ProgramBuilder.create(name(), description());
        p.values().forEach(b::param);
        // fields of the default parse graph by their names (0 when the packet has no such header)
        Field dst = b.header("ipv4.dst_addr");
        Field flags = b.header("tcp.flags");
        Field protocol = b.header("ipv4.protocol");
        Field over = b.metadata(Gress.INGRESS, "meta.over_limit", 1);
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);

        ProgramBuilder.StageBuilder count = b.stage(Gress.INGRESS, 0);
        HashUnit byDst = count.hash("dst_hash", HashAlgorithm.byName("crc16"), 16, dst);
        RegisterArray perDst = count.register("syn_count", 32, 65536);
        long limit = p.longValue("limit");
        // the new count old + 1 is over the limit when old >= limit, unless old + 1 wraps to 0 (old is
        // all ones); the output is the predicate, 1 (the first condition alone) or else 0
        RegisterAction inc = count.action(RegisterAction.on(perDst, "inc")
                .condition(Operand.REG_LO, CmpOp.GE, Operand.constant(limit))
                .condition(Operand.REG_LO, CmpOp.EQ, Operand.constant(0xFFFFFFFFL))
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(Predicate.C0_AND_NOT_C1, RegisterAction.OutputSource.PREDICATE));
        count.body(code -> code
                .set(egressPort, p.longValue("port"))
                .when(eq(read(protocol), constant(6)), tcp -> tcp
                        .when(eq(and(read(flags), constant(SYN)), constant(SYN)), syn -> syn
                                .execute(inc, hash(byDst))
                                .set(over, output(inc)))));

        b.stage(Gress.INGRESS, 1).body(code -> code
                .when(eq(read(over), constant(1)), syn -> syn.set(drop, 1)));
        return b.build();
    }
}

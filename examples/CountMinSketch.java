import dev.rmtemu.model.examples.FiveTuple;
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
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.min;
import static dev.rmtemu.model.ir.Ir.output;
import static dev.rmtemu.model.ir.Ir.read;

/**
 * Example: a two-row count-min sketch of packets per flow, with heavy flows
 * sent to their own port. Stage 0 increments one counter per row (two stateful
 * ALUs, each addressed by its own hash of the 5-tuple); stage 1 takes the
 * smaller count (the estimate); stage 2 takes min(estimate, threshold) and
 * stage 3 tests it for equality with the threshold, which holds exactly when
 * estimate >= threshold: a Tofino gateway range-matches at most 12 bits
 * (p4c's gateway.cpp), an equality on a 32-bit field fits its 4 bytes.
 *
 * Run it: ./rmtemu resources --program examples/CountMinSketch.java
 *         ./rmtemu replay --program examples/CountMinSketch.java --trace 'gen:isp?packets=100000'
 */
public final class CountMinSketch implements ProgramFactory {
    @Override
    public String name() {
        return "count_min_sketch";
    }

    @Override
    public String description() {
        return "two-row count-min sketch of packets per 5-tuple; flows at or above a threshold go to another port";
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(
                ParamSpec.integer("cells", 4096, 2, 1 << 20, "counters per row (a power of two on tofino1)"),
                ParamSpec.integer("threshold", 1000, 1, 1L << 31, "estimated packets that make a flow heavy"),
                ParamSpec.integer("port", 1, 0, 511, "egress port of ordinary flows"),
                ParamSpec.integer("heavy_port", 2, 0, 511, "egress port of heavy flows"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        int cells = p.intValue("cells");
        int bits = 32 - Integer.numberOfLeadingZeros(cells - 1);
        ProgramBuilder b = ProgramBuilder.create(name(), description());
        p.values().forEach(b::param);
        FiveTuple flow = FiveTuple.declare(b);
        Field row0 = b.metadata(Gress.INGRESS, "meta.row0", 32);
        Field row1 = b.metadata(Gress.INGRESS, "meta.row1", 32);
        Field estimate = b.metadata(Gress.INGRESS, "meta.estimate", 32);
        Field capped = b.metadata(Gress.INGRESS, "meta.capped", 32);
        long threshold = p.longValue("threshold");
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);

        ProgramBuilder.StageBuilder update = b.stage(Gress.INGRESS, 0);
        HashUnit h0 = update.hash("row0_hash", HashAlgorithm.byName("crc32"), bits, flow.fields());
        HashUnit h1 = update.hash("row1_hash", HashAlgorithm.byName("crc32c"), bits, flow.fields());
        RegisterArray c0 = update.register("row0", 32, cells);
        RegisterArray c1 = update.register("row1", 32, cells);
        RegisterAction inc0 = update.action(RegisterAction.on(c0, "inc")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NEW_LO));
        RegisterAction inc1 = update.action(RegisterAction.on(c1, "inc")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)).output(RegisterAction.OutputSource.NEW_LO));
        update.body(code -> code
                .execute(inc0, hash(h0))
                .execute(inc1, hash(h1))
                .set(row0, output(inc0))
                .set(row1, output(inc1)));

        b.stage(Gress.INGRESS, 1).body(code -> code.set(estimate, min(read(row0), read(row1))));

        b.stage(Gress.INGRESS, 2).body(code -> code.set(capped, min(read(estimate), constant(threshold))));

        b.stage(Gress.INGRESS, 3).body(code -> code.when(eq(read(capped), constant(threshold)),
                heavy -> heavy.set(egressPort, p.longValue("heavy_port")),
                ordinary -> ordinary.set(egressPort, p.longValue("port"))));
        return b.build();
    }
}

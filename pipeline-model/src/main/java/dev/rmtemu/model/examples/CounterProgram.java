package dev.rmtemu.model.examples;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
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

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.hash;
import static dev.rmtemu.model.ir.Ir.mod;
import static dev.rmtemu.model.ir.Ir.output;

/**
 * Example: a per-flow packet counter. One ingress stage hashes the 5-tuple to
 * an index and increments that cell of a register array (a RAW atom); the new
 * count goes to metadata; every packet is sent to one egress port. In P4:
 * {@code meta.flow_count = increment.execute(flow_hash.get(5-tuple)); ucast_egress_port = PORT;}
 */
public final class CounterProgram implements ProgramFactory {
    public static final String NAME = "counter";
    /** Defaults: 64 Ki cells of 32 b = 16 Tofino SRAM blocks; CRC-32 over the 5-tuple. */
    public static final int DEFAULT_CELLS = 65536;
    public static final int DEFAULT_CELL_BITS = 32;
    public static final String DEFAULT_HASH = "crc32";
    public static final int DEFAULT_EGRESS_PORT = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "per-flow packet counter: 5-tuple hash indexes a register array incremented by a RAW atom";
    }

    @Override
    public List<ParamSpec> params() {
        List<String> hashes = new ArrayList<>(Crc.NAMES);
        hashes.add("identity");
        return List.of(
                ParamSpec.integer("cells", DEFAULT_CELLS, 1, 1L << 30,
                        "register cells (counters); a power of two on targets without a divider (tofino1: the index is the hash masked)"),
                ParamSpec.integer("width", DEFAULT_CELL_BITS, 1, 64, "bits per counter"),
                ParamSpec.choice("hash", DEFAULT_HASH, hashes, "hash over the 5-tuple"),
                ParamSpec.integer("stage", 0, 0, 63, "ingress stage the counter is placed in"),
                ParamSpec.integer("port", DEFAULT_EGRESS_PORT, 0, 511, "egress port every packet is sent to"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        int cells = p.intValue("cells");
        int width = p.intValue("width");
        int stage = p.intValue("stage");
        long port = p.longValue("port");
        ProgramBuilder b = ProgramBuilder.create(NAME, description());
        p.values().forEach(b::param);
        FiveTuple t = FiveTuple.declare(b);
        Field count = b.metadata(Gress.INGRESS, "meta.flow_count", width);
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, stage);
        HashUnit h = s.hash("flow_hash", HashAlgorithm.byName(p.string("hash")), indexBits(cells), t.fields());
        RegisterArray counters = s.register("flow_count", width, cells);
        RegisterAction inc = s.action(RegisterAction.on(counters, "increment")
                .updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                .output(RegisterAction.OutputSource.NEW_LO));
        // a power-of-two size is addressed by the hash bits themselves; any other size needs
        // 'hash % cells', which only targets with fullArithmetic have
        Expr index = Integer.bitCount(cells) == 1 ? hash(h) : mod(hash(h), constant(cells));
        s.body(code -> code
                .execute(inc, index)
                .set(count, output(inc))
                .set(egressPort, port));
        return b.build();
    }

    /** Hash bits needed to address {@code cells} cells. */
    static int indexBits(int cells) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(cells - 1));
    }
}

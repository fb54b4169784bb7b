package dev.rmtemu.model.examples;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ParamSpec;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.program.ProgramParams;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.actionData;

/**
 * Example: L2 forwarding. One ingress exact-match table keyed on the frame's
 * destination MAC address ({@code ethernet.dst_addr}, parsed from the frame's bytes)
 * whose action data is the egress port; a miss drops the packet (drop_ctl = 1).
 * Entries are installed through the control plane
 * ({@code table l2_fwd exact 02:00:00:00:00:02 action=1 data=3}).
 */
public final class L2FwdProgram implements ProgramFactory {
    public static final String NAME = "l2fwd";
    public static final int DEFAULT_ENTRIES = 4096;
    /** Tofino port numbers are 9 bits. */
    public static final int PORT_BITS = 9;
    /** Action id of the forward action (the only one). */
    public static final int ACTION_FORWARD = 1;
    /** drop_ctl value that drops the packet. */
    public static final long DROP = 1;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "exact-match forwarding table on the destination MAC address; action data = egress port; miss drops";
    }

    @Override
    public List<ParamSpec> params() {
        return List.of(ParamSpec.integer("entries", DEFAULT_ENTRIES, 1, 1L << 26, "forwarding table capacity"));
    }

    @Override
    public StageProgram build(ProgramParams p) {
        ProgramBuilder b = ProgramBuilder.create(NAME, description());
        p.values().forEach(b::param);
        Field dst = b.header("ethernet.dst_addr");
        Field egressPort = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        MatchTable fwd = s.table("l2_fwd", MatchKind.EXACT, p.intValue("entries"), PORT_BITS, dst);
        s.body(code -> code.apply(fwd)
                .on(ACTION_FORWARD, forward -> forward.set(egressPort, actionData(fwd)))
                .miss(miss -> miss.set(drop, DROP)));
        return b.build();
    }
}

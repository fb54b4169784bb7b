package dev.rmtemu.model.examples;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
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
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableAction;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.actionData;

/**
 * Example: L2 forwarding. One ingress exact-match table keyed on the frame's
 * destination MAC address ({@code ethernet.dst_addr}, parsed from the frame's bytes)
 * whose action data is the egress port; a miss drops the packet (drop_ctl = 1).
 * Entries are installed through the control plane
 * ({@code table_add l2_fwd forward 02:00:0a:00:00:02 => 3}). A direct counter
 * ({@value #HITS}, TNA {@code DirectCounter<bit<64>>(CounterType_t.PACKETS_AND_BYTES)}) counts
 * each entry's forwarded packets and bytes; the control plane reads it with
 * {@code counter_read l2_fwd_hits HANDLE}.
 */
public final class L2FwdProgram implements ProgramFactory {
    public static final String NAME = "l2fwd";
    public static final int DEFAULT_ENTRIES = 4096;
    /** Tofino port numbers are 9 bits. */
    public static final int PORT_BITS = 9;
    /** Action id of the forward action (the only one). */
    public static final int ACTION_FORWARD = 1;
    /** The forwarding table's direct counter. */
    public static final String HITS = "l2_fwd_hits";
    /** Its width: 64-bit packet and byte counts (one cell a 128-bit stats word). */
    public static final int HITS_WIDTH = 64;
    /** The forward action's name, as control scripts give it ({@code table_add l2_fwd forward 02:00:0a:00:00:02 => 3}). */
    public static final String FORWARD = "forward";
    /** The default action's name: a miss drops. */
    public static final String DROP_ACTION = "drop";
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
        MatchTable fwd = s.table("l2_fwd", MatchKind.EXACT, p.intValue("entries"),
                TableActions.of(DROP_ACTION, TableAction.of(ACTION_FORWARD, FORWARD, "port", PORT_BITS)), dst);
        Counter hits = s.directCounter(HITS, CounterType.PACKETS_AND_BYTES, HITS_WIDTH, fwd);
        s.body(code -> code.apply(fwd)
                .on(ACTION_FORWARD, forward -> forward.set(egressPort, actionData(fwd)).count(hits))
                .miss(miss -> miss.set(drop, DROP)));
        return b.build();
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The packet replication engine as TNA has it: two trees per packet (mcast_grp_a, then
 * mcast_grp_b), copies in node order carrying their node's RID to egress (eg_intr_md.egress_rid,
 * written here into the frame's EtherType, so it shows in what the packet tap, the capture's
 * source, sees), level-1 pruning by the node's L1 XID, level-2 pruning of the prune table's ports
 * for the nodes of the packet's rid, and conservation: in + replicated = out + dropped + in flight.
 */
class MulticastTest {
    /** 1 GHz: at 8 Gb/s a port serialises one byte per cycle. */
    private static final TargetProfile RMT = TargetProfiles.builtIn("rmt");
    private static final double GBPS = 8;
    private static final int ETHER_TYPE = 12;
    private static final byte[] FRAME = TestFrames.frame().ethernet(0x88B5).payload("y".repeat(86)).build(); // 100 bytes

    private record Departure(int port, int rid, long cycle) {
    }

    /**
     * Ingress names the trees and exclusion ids given (and unicast port 2, which a multicast
     * packet ignores); egress writes egress_rid into the EtherType.
     */
    private static SwitchEngine engine(int groupA, int groupB, int l1Xid, int l2Xid, int rid) {
        ProgramBuilder b = ProgramBuilder.create("mc", "multicast with exclusion ids");
        Field etherType = b.header("ethernet.ether_type");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field a = b.intrinsic(Intrinsic.MCAST_GRP);
        Field bb = b.intrinsic(Intrinsic.MCAST_GRP_B);
        Field x1 = b.intrinsic(Intrinsic.LEVEL1_EXCLUSION_ID);
        Field x2 = b.intrinsic(Intrinsic.LEVEL2_EXCLUSION_ID);
        Field r = b.intrinsic(Intrinsic.RID);
        Field egressRid = b.intrinsic(Intrinsic.EGRESS_RID);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(out, 2).set(a, groupA).set(bb, groupB).set(x1, l1Xid).set(x2, l2Xid).set(r, rid));
        b.stage(Gress.EGRESS, 0).body(c -> c.set(etherType, read(egressRid)));
        SwitchEngine e = new SwitchEngine(new SwitchConfig(RMT, b.build(), 8, PortConfig.strictPriority(GBPS), true));
        // group 1: A (RID 10, L1 XID 7) -> 1, 2; B (RID 11) -> 3, 4; C (RID 10) -> 5, 3. Group 2: D (RID 20) -> 6.
        e.createMulticastGroup(1);
        e.multicastNode(1, 10, true, 7, 1, 2);
        e.multicastNode(1, 11, false, 0, 3, 4);
        e.multicastNode(1, 10, false, 0, 5, 3);
        e.createMulticastGroup(2);
        e.multicastNode(2, 20, false, 0, 6);
        e.multicastPrune(3, 3, 5);
        return e;
    }

    private static List<Departure> run(SwitchEngine e) {
        List<Departure> out = new ArrayList<>();
        e.tap(new PacketTap() {
            @Override
            public void departed(long packet, int ingressPort, long arrivalCycle, int port, int queue, long cycle, PacketRecord r) {
                int at = r.offset() + PacketRecord.FRAME_OFFSET + ETHER_TYPE;
                int rid = (r.buffer().getByte(at) & 0xFF) << 8 | r.buffer().getByte(at + 1) & 0xFF;
                out.add(new Departure(port, rid, cycle));
            }

            @Override
            public void dropped(long packet, int ingressPort, long arrivalCycle, int port, int queue, int cause, long cycle,
                                PacketRecord r) {
            }
        });
        e.arrive(1, 0, TestFrames.record(FRAME));
        e.drain();
        e.checkConservation();
        return out;
    }

    /** The departure cycle of the same frame sent by unicast to an idle port (the copies' reference). */
    private static long unicastDeparture() {
        List<Departure> d = run(engine(0, 0, 0, 0, 0));
        assertEquals(List.of(2), d.stream().map(Departure::port).toList());
        assertEquals(0, d.get(0).rid(), "a unicast packet carries egress_rid 0");
        return d.get(0).cycle();
    }

    @Test
    void bothTreesAreCopiedInNodeOrderEachCopyWithItsNodesRidAndTwoCopiesToAPortLeaveInThatOrder() {
        SwitchEngine e = engine(1, 2, 0, 0, 0);
        List<Departure> d = run(e);
        long t = unicastDeparture();
        long serialisation = FRAME.length + 20; // one byte per cycle, with preamble and gap
        // every copy reaches its queue in the cycle the packet reaches the traffic manager: on
        // an idle port it leaves when a unicast twin would; port 3's second copy (node C's) waits
        // for the first (node B's)
        assertEquals(List.of(new Departure(1, 10, t), new Departure(2, 10, t), new Departure(3, 11, t), new Departure(4, 11, t),
                new Departure(5, 10, t), new Departure(6, 20, t), new Departure(3, 10, t + serialisation)), d);
        assertEquals(1, e.counters().packetsIn());
        assertEquals(6, e.counters().replicated());
        assertEquals(7, e.counters().packetsOut());
    }

    @Test
    void levelOneXidSkipsItsNodeAndLevelTwoXidPrunesPortsOfTheNodesOfThePacketsRidOnly() {
        SwitchEngine e = engine(1, 2, 7, 3, 10);
        List<Departure> d = run(e);
        long t = unicastDeparture();
        // A skipped (L1 XID 7); B's RID 11 is not the packet's: 3 and 4 stay; C (RID 10) loses 5 and 3
        assertEquals(List.of(new Departure(3, 11, t), new Departure(4, 11, t), new Departure(6, 20, t)), d);
        assertEquals(2, e.counters().replicated());
        assertEquals(3, e.counters().packetsOut());
        assertEquals(0, e.counters().droppedTotal());
    }

    @Test
    void theSecondTreeAloneAndAPacketLeftWithoutACopyIsDroppedAsSuch() {
        SwitchEngine onlyB = engine(0, 2, 0, 0, 0);
        assertEquals(List.of(6), run(onlyB).stream().map(Departure::port).toList());
        assertEquals(0, onlyB.counters().replicated());

        // RID 20 with L2 XID 3 would prune D's ports 3 and 5; D has 6 only: it stays. Prune 6 too: nothing is left
        SwitchEngine none = engine(0, 2, 0, 3, 20);
        none.multicastPrune(3, 6);
        assertEquals(List.of(), run(none));
        assertEquals(1, none.counters().droppedFor(SwitchEngine.DROP_MULTICAST_NO_COPY));
        assertEquals(0, none.counters().packetsOut());

        SwitchEngine unprogrammed = engine(9, 0, 0, 0, 0);
        assertEquals(List.of(), run(unprogrammed));
        assertEquals(1, unprogrammed.counters().droppedFor(SwitchEngine.DROP_MULTICAST_NO_COPY));
    }

    @Test
    void groupsRidsAndExclusionIdsOutsideTheirWidthsAreRefusedTheirEdgesAccepted() {
        SwitchEngine e = engine(0, 0, 0, 0, 0);
        assertEquals("multicast group 65536 outside 1..65535", assertThrows(UserError.class, () -> e.createMulticastGroup(65536)).getMessage());
        assertEquals("multicast group 0 outside 1..65535", assertThrows(UserError.class, () -> e.createMulticastGroup(0)).getMessage());
        e.createMulticastGroup(65535);
        assertEquals("multicast group 1 already exists", assertThrows(UserError.class, () -> e.createMulticastGroup(1)).getMessage());
        assertEquals("no multicast group 3", assertThrows(UserError.class, () -> e.multicastNode(3, 0, false, 0, 1)).getMessage());
        assertEquals("replication id 65536 outside 0..65535",
                assertThrows(UserError.class, () -> e.multicastNode(1, 65536, false, 0, 1)).getMessage());
        e.multicastNode(65535, 65535, true, 65535, 1);
        assertEquals("level-2 exclusion id 512 outside 0..511", assertThrows(UserError.class, () -> e.multicastPrune(512, 1)).getMessage());
        e.multicastPrune(511, 1);
        assertEquals("port 8 outside 0..7", assertThrows(UserError.class, () -> e.multicastPrune(1, 8)).getMessage());
    }
}

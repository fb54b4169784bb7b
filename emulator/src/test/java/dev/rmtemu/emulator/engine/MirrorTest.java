package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Mirror;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Ingress-to-egress and egress-to-egress mirroring: each copy is the packet as the deparser
 * emits it behind its mirror header, truncated to the session's maximum length, leaves on the
 * session's port (and so reaches the capture through the packet tap), takes TM buffer, and is
 * counted in conservation: in + mirrored = out + dropped + in flight. drop_ctl bit 0 drops the
 * packet but not its copy; bit 2 disables mirroring. A copy runs the egress pipeline of its
 * port, as on Tofino: its egress parser extracts the mirror header into the egress metadata the
 * mirror names (the header then leaves the frame), or reads none (it stays in front), and an
 * egress-to-egress copy re-enters egress (the program guards against mirroring its own copies).
 */
class MirrorTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private record Departure(int port, byte[] frame, int wire) {
    }

    /**
     * Ingress: to port 2, mirror type 1 to session 5 behind {0xAB, 0x1234}; egress, for packets
     * leaving port 2 (not the copies, whose egress runs on their session's port): mirror type 1
     * to session 6 behind {0xCD}.
     */
    private static StageProgram program() {
        ProgramBuilder b = ProgramBuilder.create("mirrors", "mirrors every packet in and out");
        Field etherType = b.header("ethernet.ether_type");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        Field type = b.intrinsic(Intrinsic.MIRROR_TYPE);
        Field session = b.metadata(Gress.INGRESS, "session", 10);
        Field pktType = b.metadata(Gress.INGRESS, "pkt_type", 8);
        Field tag = b.metadata(Gress.INGRESS, "tag", 16);
        Field egType = b.intrinsic(Intrinsic.EGRESS_MIRROR_TYPE);
        Field egSession = b.metadata(Gress.EGRESS, "eg_session", 10);
        Field egTag = b.metadata(Gress.EGRESS, "eg_tag", 8);
        Field egPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(out, 2).set(session, 5).set(type, 1).set(pktType, 0xAB).set(tag, 0x1234)
                .when(eq(read(etherType), constant(0x88B6)), x -> x.set(drop, 1),
                        y -> y.when(eq(read(etherType), constant(0x88B7)), z -> z.set(drop, 5))));
        b.stage(Gress.EGRESS, 0).body(code -> code.when(eq(read(egPort), constant(2)),
                x -> x.set(egType, 1).set(egSession, 6).set(egTag, 0xCD)));
        b.mirror(Gress.INGRESS, 1, session, List.of("pkt_type", "tag"), List.of(pktType, tag));
        b.mirror(Gress.EGRESS, 1, egSession, List.of("tag"), List.of(egTag));
        return b.build();
    }

    /**
     * Copies through egress. Ingress sends each packet to port 2 and mirrors it (type 1, session 5)
     * behind {0xAB, tag 0x1234}; the egress parser extracts that header into eg_pkt_type and
     * eg_tag. Egress: a packet whose eg_pkt_type is 0xAB (an ingress copy) gets ether_type = its
     * eg_tag; a packet leaving port 2 is mirrored egress to egress (type 1, session 6) behind
     * {0xCD}, a header its egress parser does not read, so egress knows that copy by its port (4)
     * and stamps ether_type 0x4444 on it.
     */
    static StageProgram copiesThroughEgress() {
        ProgramBuilder b = ProgramBuilder.create("mirror_egress", "mirrored copies run egress");
        Field etherType = b.header("ethernet.ether_type");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field type = b.intrinsic(Intrinsic.MIRROR_TYPE);
        Field session = b.metadata(Gress.INGRESS, "session", 10);
        Field pktType = b.metadata(Gress.INGRESS, "pkt_type", 8);
        Field tag = b.metadata(Gress.INGRESS, "tag", 16);
        Field egPktType = b.metadata(Gress.EGRESS, "eg_pkt_type", 8);
        Field egCopyTag = b.metadata(Gress.EGRESS, "eg_copy_tag", 16);
        Field egType = b.intrinsic(Intrinsic.EGRESS_MIRROR_TYPE);
        Field egSession = b.metadata(Gress.EGRESS, "eg_session", 10);
        Field egTag = b.metadata(Gress.EGRESS, "eg_tag", 8);
        Field egPort = b.intrinsic(Intrinsic.EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(out, 2).set(session, 5).set(type, 1).set(pktType, 0xAB).set(tag, 0x1234));
        b.stage(Gress.EGRESS, 0).body(code -> code
                .when(eq(read(egPort), constant(4)), x -> x.set(etherType, 0x4444),
                        y -> y.when(eq(read(egPktType), constant(0xAB)), z -> z.set(etherType, read(egCopyTag))))
                .when(eq(read(egPort), constant(2)), x -> x.set(egType, 1).set(egSession, 6).set(egTag, 0xCD)));
        b.mirror(Gress.INGRESS, 1, session, List.of("pkt_type", "tag"), List.of(pktType, tag), List.of(egPktType, egCopyTag));
        b.mirror(Gress.EGRESS, 1, egSession, List.of("tag"), List.of(egTag));
        return b.build();
    }

    @Test
    void copiesRunEgressTheirHeaderReadByTheEgressParserOrKeptInFront() {
        for (boolean cutThrough : new boolean[] {true, false}) {
            SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, copiesThroughEgress(), 8, PortConfig.strictPriority(40), true));
            e.cutThrough(cutThrough);
            e.mirrorSession(5, 3, 0);
            e.mirrorSession(6, 4, 20);
            List<Departure> out = departures(e);
            byte[] a = TestFrames.frame().ethernet(0x88B5).payload("x".repeat(86)).build(); // 100 bytes
            e.arrive(e.now() + 1, 1, TestFrames.record(a));
            e.drain();
            e.checkConservation();
            assertEquals(List.of(1L, 2L, 3L, 0L), List.of(e.counters().packetsIn(), e.counters().mirrored(),
                    e.counters().packetsOut(), e.counters().droppedTotal()));
            out.sort((x, y) -> Integer.compare(x.port(), y.port()));
            assertEquals(List.of(2, 3, 4), out.stream().map(Departure::port).toList());
            assertArrayEquals(a, out.get(0).frame(), "the packet itself: egress stamps nothing on port 2");
            byte[] i2e = a.clone();
            i2e[12] = 0x12; // the egress parser took the header {0xAB, 0x1234} off; egress wrote its tag
            i2e[13] = 0x34;
            assertArrayEquals(i2e, out.get(1).frame(), "the ingress copy after egress, its header read");
            assertEquals(100, out.get(1).wire());
            // the egress-to-egress copy: 0xCD in front (not read by its egress parser), then the packet, cut to 20 bytes
            // when made; its own egress pass stamped ether_type 0x4444 behind the header
            byte[] e2e = new byte[20];
            e2e[0] = (byte) 0xCD;
            System.arraycopy(a, 0, e2e, 1, 19);
            e2e[13] = 0x44;
            e2e[14] = 0x44;
            assertArrayEquals(e2e, out.get(2).frame(), "the egress copy after its own egress pass");
            assertEquals(20, out.get(2).wire());
        }
    }

    private static List<Departure> departures(SwitchEngine e) {
        List<Departure> out = new ArrayList<>();
        e.tap(new PacketTap() {
            @Override
            public void departed(long packet, int ingressPort, long arrivalCycle, int port, int queue, long cycle, PacketRecord r) {
                byte[] f = new byte[r.capturedLength()];
                r.buffer().getBytes(r.offset() + PacketRecord.FRAME_OFFSET, f);
                out.add(new Departure(port, f, r.wireLength()));
            }

            @Override
            public void dropped(long packet, int ingressPort, long arrivalCycle, int port, int queue, int cause, long cycle,
                                PacketRecord r) {
            }
        });
        return out;
    }

    @Test
    void copiesCarryTheirHeaderAreTruncatedLeaveOnTheSessionPortAndAreConserved() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, program(), 8, PortConfig.strictPriority(40), true));
        e.mirrorSession(5, 3, 64);
        e.mirrorSession(6, 4, 0);
        List<Departure> out = departures(e);
        byte[] a = TestFrames.frame().ethernet(0x88B5).payload("x".repeat(86)).build(); // 100 bytes
        byte[] dropped = TestFrames.frame().ethernet(0x88B6).payload("dropped").build();
        byte[] noMirror = TestFrames.frame().ethernet(0x88B7).payload("no mirror").build();
        long c = e.now() + 1;
        e.arrive(c, 1, TestFrames.record(a));
        e.arrive(c + 1000, 1, TestFrames.record(dropped));
        e.arrive(c + 2000, 1, TestFrames.record(noMirror));
        e.drain();
        e.checkConservation();
        assertEquals(3, e.counters().packetsIn());
        assertEquals(3, e.counters().mirrored()); // a: in and out; dropped: in
        assertEquals(4, e.counters().packetsOut());
        assertEquals(2, e.counters().droppedTotal());

        out.sort((x, y) -> x.port() != y.port() ? Integer.compare(x.port(), y.port()) : Integer.compare(x.frame().length, y.frame().length));
        assertEquals(List.of(2, 3, 3, 4), out.stream().map(Departure::port).toList());
        assertArrayEquals(a, out.get(0).frame());
        // session 5 cuts its copies to 64 bytes: the 3-byte header and the first 61 bytes of the frame
        byte[] cut = new byte[64];
        cut[0] = (byte) 0xAB;
        cut[1] = 0x12;
        cut[2] = 0x34;
        System.arraycopy(a, 0, cut, 3, 61);
        byte[] shortCopy = new byte[3 + dropped.length];
        shortCopy[0] = (byte) 0xAB;
        shortCopy[1] = 0x12;
        shortCopy[2] = 0x34;
        System.arraycopy(dropped, 0, shortCopy, 3, dropped.length);
        assertArrayEquals(shortCopy, out.get(1).frame(), "the dropped packet's copy, shorter than 64 bytes: whole");
        assertArrayEquals(cut, out.get(2).frame());
        assertEquals(64, out.get(2).wire());
        byte[] e2e = new byte[1 + a.length];
        e2e[0] = (byte) 0xCD;
        System.arraycopy(a, 0, e2e, 1, a.length);
        assertArrayEquals(e2e, out.get(3).frame(), "egress to egress: session 6 keeps the whole packet");
        assertEquals(101, out.get(3).wire());
    }

    @Test
    void aCopyToASessionNeverSetUpIsDroppedAndCounted() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, program(), 8, PortConfig.strictPriority(40), true));
        e.arrive(e.now() + 1, 1, TestFrames.record(TestFrames.frame().ethernet(0x88B5).payload("p").build()));
        e.drain();
        e.checkConservation();
        assertEquals(2, e.counters().mirrored());
        assertEquals(2, e.counters().droppedFor(SwitchEngine.DROP_MIRROR_SESSION));
        assertEquals(1, e.counters().packetsOut());
    }

    @Test
    void sessionsOutsideTofinosRangeAreRefusedItsEdgesAccepted() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, program(), 8, PortConfig.strictPriority(40), true));
        assertEquals("mirror session 0 outside 1..1015", assertThrows(UserError.class, () -> e.mirrorSession(0, 1, 0)).getMessage());
        assertEquals("mirror session 1016 outside 1..1015",
                assertThrows(UserError.class, () -> e.mirrorSession(Mirror.MAX_SESSION + 1, 1, 0)).getMessage());
        e.mirrorSession(1, 1, 0);
        e.mirrorSession(Mirror.MAX_SESSION, 1, 0);
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TNA's resubmit header joined to the engine's resubmit: the ingress deparser's
 * {@code Resubmit().emit<H>} for the resubmit_type ingress wrote carries H's fields to the next
 * ingress pass, which sees resubmit_flag 1 and the fields' values; a resubmit_type without a
 * header resubmits with no data (metadata starts from zero, as on any new pass).
 */
class ResubmitHeaderTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final int ETHER_TYPE = 12;

    private record Departure(int port, int etherType) {
    }

    @Test
    void theHeadersFieldsReachTheResubmittedPassAResubmitWithoutHeaderCarriesNothing() {
        ProgramBuilder b = ProgramBuilder.create("resubmit_header", "resubmits with a header");
        Field etherType = b.header("ethernet.ether_type");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        Field type = b.intrinsic(Intrinsic.RESUBMIT);
        Field flag = b.intrinsic(Intrinsic.RESUBMIT_FLAG);
        Field port = b.metadata(Gress.INGRESS, "meta.port", 9);
        Field tag = b.metadata(Gress.INGRESS, "meta.tag", 16);
        b.resubmit(1, List.of("port", "tag"), List.of(port, tag));
        // first pass: port 5, tag 0xBEEF; EtherType 0x88B5 resubmits with header 1, any other with type 2 (no header)
        b.stage(Gress.INGRESS, 0).body(c -> c.when(eq(read(flag), constant(0)),
                first -> first.set(port, 5).set(tag, 0xBEEF)
                        .when(eq(read(etherType), constant(0x88B5)), t -> t.set(type, 1), o -> o.set(type, 2))));
        // the resubmitted pass: out by the carried port, the carried tag into the EtherType
        b.stage(Gress.INGRESS, 1).body(c -> c.when(eq(read(flag), constant(1)),
                second -> second.set(out, read(port)).set(etherType, read(tag))));
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, b.build(), 8, PortConfig.strictPriority(40), true));
        List<Departure> d = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> {
            byte[] f = pool.frameArray();
            int at = pool.frameOffset(s) + ETHER_TYPE;
            d.add(new Departure(p, (f[at] & 0xFF) << 8 | f[at + 1] & 0xFF));
        });
        e.arrive(1, 1, TestFrames.record(TestFrames.frame().ethernet(0x88B5).payload("with header").build()));
        e.arrive(5000, 1, TestFrames.record(TestFrames.frame().ethernet(0x88B6).payload("no header").build()));
        e.drain();
        e.checkConservation();
        assertEquals(List.of(new Departure(5, 0xBEEF), new Departure(0, 0)), d);
        assertEquals(2, e.counters().packetsIn());
        assertEquals(2, e.counters().packetsOut());
    }

    /** Tofino 1's resubmit header is 64 bits (TNA tofino1_specs.p4: PORT_METADATA_SIZE, whose place it takes). */
    @Test
    void aHeaderOverSixtyFourBitsOrOfNoIngressMetadataIsRefusedSixtyFourBitsAccepted() {
        ProgramBuilder b = ProgramBuilder.create("resubmit_limits", "");
        Field a = b.metadata(Gress.INGRESS, "a", 32);
        Field c = b.metadata(Gress.INGRESS, "c", 32);
        Field wide = b.metadata(Gress.INGRESS, "wide", 33);
        Field header = b.header("ethernet.ether_type");
        assertEquals("resubmit type 2: resubmit header of 65 bits is wider than Tofino's 64",
                assertThrows(IllegalArgumentException.class, () -> b.resubmit(2, List.of("a", "wide"), List.of(a, wide))).getMessage());
        assertEquals("resubmit type 3: ethernet.ether_type is no ingress metadata (the header carries ingress metadata to the"
                + " next pass)", assertThrows(IllegalArgumentException.class,
                        () -> b.resubmit(3, List.of("t"), List.of(header))).getMessage());
        b.resubmit(1, List.of("a", "c"), List.of(a, c));
        assertEquals("resubmit: resubmit_type 1 is already used",
                assertThrows(IllegalArgumentException.class, () -> b.resubmit(1, List.of("a"), List.of(a))).getMessage());
        assertEquals("resubmit: resubmit_type 8 outside 1..7",
                assertThrows(IllegalArgumentException.class, () -> b.resubmit(8, List.of("a"), List.of(a))).getMessage());
    }

    @Test
    void packingKeepsEachFieldsBitsInOrder() {
        ProgramBuilder b = ProgramBuilder.create("resubmit_pack", "");
        Field x = b.metadata(Gress.INGRESS, "x", 4);
        Field y = b.metadata(Gress.INGRESS, "y", 60);
        var r = b.resubmit(1, List.of("x", "y"), List.of(x, y));
        long[] phv = new long[b.build().fields().size()];
        phv[x.slot()] = 0xA;
        phv[y.slot()] = 0x0123456789ABCDEL;
        long bits = r.pack(phv);
        assertEquals(0xA0123456789ABCDEL, bits);
        long[] back = new long[phv.length];
        r.unpack(bits, back);
        assertEquals(0xA, back[x.slot()]);
        assertEquals(0x0123456789ABCDEL, back[y.slot()]);
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.parse.EtherTypeShim;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A program's own header on the wire (an EtherType shim after Ethernet, declared in its parse
 * graph): added by setValid, bytes on the wire that lengthen the frame and its serialisation,
 * parsed by the next switch running the program, passed through as payload by a switch that
 * does not know it, and removed by setInvalid.
 */
class ShimHeaderTest {
    /** {@code header hop_h { bit<16> count; bit<16> tag; bit<16> ether_type; }} after EtherType 0x88B5. */
    private static final EtherTypeShim HOP = new EtherTypeShim("hop",
            EtherTypeShim.type("hop_h", new HeaderField("count", 16), new HeaderField("tag", 16)), 0x88B5);
    private static final int SHIM_BYTES = 6;
    private static final int WIRE = 100;

    /** Counts the hops that ran it in the shim (adding the shim where the packet has none) and copies the IP ID into it. */
    private static StageProgram stamping(Gress gress) {
        ProgramBuilder b = ProgramBuilder.create("stamp", "writes a shim header");
        b.parser(EtherTypeShim.spec(List.of(HOP)));
        Field count = b.header("hop.count");
        Field tag = b.header("hop.tag");
        Field valid = b.valid("hop");
        Field etherType = b.header("ethernet.ether_type");
        Field next = b.header(HOP.nextField());
        Field id = b.header("ipv4.identification");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(out, 1));
        b.stage(gress, gress == Gress.INGRESS ? 1 : 0).body(c -> c
                .set(count, add(read(count), constant(1)))
                .set(tag, read(id))
                .when(eq(read(valid), constant(0)), push -> push
                        .set(valid, 1).set(next, read(etherType)).set(etherType, HOP.etherType())));
        return b.build();
    }

    /** The last hop: removes the shim (setInvalid) and gives Ethernet its EtherType back. */
    private static StageProgram stripping() {
        ProgramBuilder b = ProgramBuilder.create("strip", "removes the shim header");
        b.parser(EtherTypeShim.spec(List.of(HOP)));
        Field valid = b.valid("hop");
        Field etherType = b.header("ethernet.ether_type");
        Field next = b.header(HOP.nextField());
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(c -> c.set(out, 1)
                .when(eq(read(valid), constant(1)), pop -> pop.set(valid, 0).set(etherType, read(next))));
        return b.build();
    }

    private static SwitchEngine engine(StageProgram p) {
        return new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p, 4, PortConfig.strictPriority(10), true));
    }

    private static PacketRecord packet(int ipId) {
        PacketRecord r = PacketRecord.allocate().ipVersion(4).protocol(17).wireLength(WIRE).ipId(ipId)
                .srcIpv4(0x0A000001).dstIpv4(0x0A000002).srcPort(1000).dstPort(2000);
        FrameSynthesizer.attachFrame(r);
        return r;
    }

    private static int u16(byte[] f, int at) {
        return (f[at] & 0xFF) << 8 | f[at + 1] & 0xFF;
    }

    @Test
    void theShimCrossesSwitchesAndAPlainSwitchPassesItThrough() {
        SwitchEngine first = engine(stamping(Gress.INGRESS));
        SwitchEngine middle = engine(ProgramBuilder.create("plain", "no stages").build());
        middle.forwarding((in, rec) -> 1);
        SwitchEngine last = engine(stamping(Gress.INGRESS));
        List<byte[]> frames = new ArrayList<>();
        List<Integer> wires = new ArrayList<>();
        first.onDeparture((c, port, slot, pool) -> middle.scheduleArrival(c + 10, 0, pool.record(slot)));
        middle.onDeparture((c, port, slot, pool) -> last.scheduleArrival(c + 10, 0, pool.record(slot)));
        last.onDeparture((c, port, slot, pool) -> {
            frames.add(pool.record(slot).frameBytes());
            wires.add(pool.record(slot).wireLength());
        });
        for (int i = 0; i < 5; i++) {
            first.arrive(100 + i * 500, 0, packet(1000 + i));
        }
        first.drain();
        middle.drain();
        last.drain();
        assertEquals(5, frames.size());
        for (int i = 0; i < 5; i++) {
            byte[] f = frames.get(i);
            byte[] in = packet(1000 + i).frameBytes();
            assertEquals(WIRE + SHIM_BYTES, wires.get(i), "the shim's bytes are on the wire");
            assertEquals(0x88B5, u16(f, 12), "Ethernet announces the shim");
            assertEquals(2, u16(f, 14), "two stamping hops: the second parsed what the first emitted");
            assertEquals(1000 + i, u16(f, 16), "the tag is the IP ID");
            assertEquals(0x0800, u16(f, 18), "the shim names what follows it");
            assertArrayEquals(Arrays.copyOfRange(in, 14, in.length), Arrays.copyOfRange(f, 14 + SHIM_BYTES, f.length),
                    "the IPv4 packet follows unchanged");
        }
    }

    @Test
    void theLastHopRemovesTheShimAndTheFrameIsAsItWas() {
        SwitchEngine first = engine(stamping(Gress.INGRESS));
        SwitchEngine last = engine(stripping());
        List<PacketRecord> out = new ArrayList<>();
        first.onDeparture((c, port, slot, pool) -> last.scheduleArrival(c + 10, 0, pool.record(slot)));
        last.onDeparture((c, port, slot, pool) -> out.add(PacketRecord.allocate().copyFrom(pool.record(slot))));
        first.arrive(100, 0, packet(7));
        first.drain();
        last.drain();
        assertEquals(1, out.size());
        assertEquals(WIRE, out.get(0).wireLength());
        assertArrayEquals(packet(7).frameBytes(), out.get(0).frameBytes());
    }

    /**
     * Two packets queued back to back on a 10 Gb/s port: the second leaves one serialisation
     * of the first after it. When egress adds the shim, the port serialises the deparsed frame,
     * 6 bytes longer (48 bits = 4.8 ns = 5.856 cycles at tofino1's 1.22 GHz).
     */
    @Test
    void aShimEgressAddsLengthensTheSerialisation() {
        long plainGap = departureGap(engine(ProgramBuilder.create("plain", "no stages").build()));
        long shimGap = departureGap(engine(stamping(Gress.EGRESS)));
        TargetProfile tofino = TargetProfiles.builtIn("tofino1");
        double cyclesPerBit = tofino.clockHz() / 10e9;
        assertEquals((WIRE + 20) * 8 * cyclesPerBit, plainGap, 1.0, "frame, preamble and gap at 10 Gb/s");
        assertEquals((WIRE + SHIM_BYTES + 20) * 8 * cyclesPerBit, shimGap, 1.0, "the shim's 6 bytes serialised too");
        assertEquals(SHIM_BYTES * 8 * cyclesPerBit, shimGap - plainGap, 1.0);
    }

    private static long departureGap(SwitchEngine e) {
        e.forwarding((in, rec) -> 1);
        List<Long> departures = new ArrayList<>();
        e.onDeparture((c, port, slot, pool) -> departures.add(c));
        e.arrive(100, 0, packet(1));
        e.arrive(101, 2, packet(2));
        e.drain();
        assertEquals(2, departures.size());
        return departures.get(1) - departures.get(0);
    }

    @Test
    void aShimTypeMustEndWithItsEtherType() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EtherTypeShim("bad",
                dev.rmtemu.model.parse.HeaderType.of("bad_h", new HeaderField("x", 16)), 0x88B5));
        assertEquals("shim bad: its type bad_h must end with a 16-bit ether_type field and have a fixed length", e.getMessage());
        IllegalArgumentException low = assertThrows(IllegalArgumentException.class, () -> new EtherTypeShim("low",
                HOP.type(), 0x05DC));
        assertEquals("shim low: EtherType 0x5dc is not an EtherType (0x0600..0xFFFF)", low.getMessage());
    }
}

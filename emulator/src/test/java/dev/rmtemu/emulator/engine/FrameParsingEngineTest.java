package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.parse.Checksum16;
import dev.rmtemu.model.parse.ParserError;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.emulator.metrics.Counters;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.rmtemu.emulator.engine.TestFrames.frame;
import static dev.rmtemu.emulator.engine.TestFrames.record;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static dev.rmtemu.model.ir.Ir.sub;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The switch parses each packet's bytes with its program's parse graph: frames a program
 * does not write leave byte-identical (ARP, VLAN, QinQ, IPv4 options, IPv6 extension headers,
 * TCP, UDP, ICMP); a program's header writes are in the frame that leaves, with a valid IPv4
 * checksum; a frame the graph refuses is a {@code parser_error} drop counted by its kind.
 */
class FrameParsingEngineTest {
    static final long NEW_DST = 0x00163E112233L;
    static final long NEW_SRC = 0x00163E445566L;

    /** What left: frame bytes and wire length, per departure. */
    private record Left(byte[] frame, int wire) {
    }

    private static List<Left> run(SwitchEngine e, List<byte[]> frames) {
        List<Left> left = new ArrayList<>();
        e.onDeparture((c, p, slot, pool) -> {
            PacketRecord r = pool.record(slot);
            left.add(new Left(r.frameBytes(), r.wireLength()));
        });
        long t = 0;
        for (byte[] f : frames) {
            e.arrive(t, 0, record(f));
            t += 10_000;
        }
        e.drain();
        return left;
    }

    static List<byte[]> captureLike() {
        return List.of(
                frame().ethernet(0x0806).arp(1, 0x0A000001L, 0x0A000002L).zeros(18).build(),
                frame().ethernet(0x8100).vlan(3, 100, 0x0800).ipv4(17, 36, 0, 64).udp(53, 5353, 16)
                        .payload("query123").build(),
                frame().ethernet(0x88A8).vlan(0, 10, 0x8100).vlan(5, 20, 0x86DD).ipv6(6, 24).tcp(443, 50000, 0)
                        .payload("tls!").build(),
                frame().ethernet(0x0800).ipv4(6, 76, 8, 63).tcp(80, 1234, 12).payload("GET /x").build(),
                frame().ethernet(0x86DD).ipv6(0, 56).ipv6Extension(43, 0).ipv6Extension(44, 1)
                        .ipv6Fragment(17, 0, 0xCAFEF00DL).udp(1, 4789, 16).payload("vxlan---").build(),
                frame().ethernet(0x0800).ipv4(1, 36, 0, 128).icmp(8, 0).payload("pingpong").build(),
                frame().ethernet(0x86DD).ipv6(58, 16).icmp(128, 0).payload("ping6666").build(),
                frame().ethernet(0x88CC).payload("lldp frame, not parsed past ethernet").build());
    }

    @Test
    void counterLeavesEveryFrameByteIdentical() {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"),
                new ProgramRegistry().build("counter", Map.of()), 100));
        List<byte[]> in = captureLike();
        List<Left> out = run(e, in);
        assertEquals(in.size(), out.size());
        for (int i = 0; i < in.size(); i++) {
            assertArrayEquals(in.get(i), out.get(i).frame(), "frame " + i);
            assertEquals(in.get(i).length, out.get(i).wire());
        }
        assertEquals(Map.of(), e.counters().parserErrors());
    }

    /** Rewrites both MAC addresses and decrements the IPv4 TTL, as a router's program does. */
    static StageProgram rewriter() {
        ProgramBuilder b = ProgramBuilder.create("rewrite", "rewrite MACs, decrement TTL");
        Field dst = b.header("ethernet.dst_addr");
        Field src = b.header("ethernet.src_addr");
        Field ttl = b.header("ipv4.ttl");
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(dst, NEW_DST).set(src, NEW_SRC)
                .set(ttl, sub(read(ttl), constant(1))).set(port, 1));
        return b.build();
    }

    @Test
    void rewrittenMacsAndTtlLeaveWithAValidIpv4Checksum() {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"), rewriter(), 100));
        List<byte[]> in = captureLike();
        List<Left> out = run(e, in);
        assertEquals(in.size(), out.size());
        for (int i = 0; i < in.size(); i++) {
            byte[] f = out.get(i).frame();
            assertEquals(in.get(i).length, f.length, "same length: nothing added or removed");
            assertEquals(NEW_DST, macAt(f, 0), "frame " + i);
            assertEquals(NEW_SRC, macAt(f, 6), "frame " + i);
            byte[] tail = Arrays.copyOfRange(in.get(i), 12, in.get(i).length);
            boolean ipv4 = (i == 1 || i == 3 || i == 5);
            if (!ipv4) {
                assertArrayEquals(tail, Arrays.copyOfRange(f, 12, f.length), "only the MACs change, frame " + i);
                continue;
            }
            int ip = i == 1 ? 18 : 14;
            int ihl = (f[ip] & 0x0F) * 4;
            assertEquals((in.get(i)[ip + 8] & 0xFF) - 1, f[ip + 8] & 0xFF, "TTL decremented, frame " + i);
            Checksum16 c = new Checksum16();
            c.addBytes(f, ip, ihl);
            assertEquals(0, c.get(), "the header with its checksum sums to all ones: valid, frame " + i);
        }
    }

    @Test
    void aRouterDecrementsTheTtlInTheFrameWithAValidChecksum() {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"),
                new ProgramRegistry().build("counter", Map.of()), 100));
        e.decrementTtl();
        byte[] v4 = frame().ethernet(0x8100).vlan(3, 100, 0x0800).ipv4(17, 36, 0, 64).udp(53, 5353, 16)
                .payload("query123").build();
        byte[] v6 = frame().ethernet(0x86DD).ipv6(17, 16).udp(1, 2, 16).payload("8 bytes!").build();
        List<Left> out = run(e, List.of(v4, v6));
        byte[] f = out.get(0).frame();
        assertEquals(63, f[18 + 8] & 0xFF);
        Checksum16 c = new Checksum16();
        c.addBytes(f, 18, 20);
        assertEquals(0, c.get(), "incrementally updated checksum is valid");
        byte[] expected = v4.clone();
        expected[18 + 8] = 63;
        expected[18 + 10] = f[18 + 10];
        expected[18 + 11] = f[18 + 11];
        assertArrayEquals(expected, f, "only the TTL and the checksum change");
        assertEquals(63, out.get(1).frame()[14 + 7] & 0xFF, "IPv6 hop limit");
    }

    /** Pops an outer VLAN tag (setInvalid) and pushes one onto untagged frames (setValid), as an access port does. */
    static StageProgram vlanAccess() {
        ProgramBuilder b = ProgramBuilder.create("vlan_access", "pop a tag, push one");
        Field etherType = b.header("ethernet.ether_type");
        Field tagged = b.valid("vlan_outer");
        Field tagType = b.header("vlan_outer.ether_type");
        Field vid = b.header("vlan_outer.vid");
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> code
                .when(eq(read(tagged), constant(1)),
                        pop -> pop.set(etherType, read(tagType)).set(tagged, 0),
                        push -> push.set(tagged, 1).set(vid, 42).set(tagType, read(etherType)).set(etherType, 0x8100))
                .set(port, 1));
        return b.build();
    }

    @Test
    void setInvalidRemovesATagAndSetValidAddsOneAndTheWireLengthFollows() {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"), vlanAccess(), 100));
        byte[] untagged = frame().ethernet(0x0800).ipv4(17, 36, 0, 64).udp(1, 2, 16).payload("8 bytes!").build();
        byte[] tagged = frame().ethernet(0x8100).vlan(0, 42, 0x0800).ipv4(17, 36, 0, 64).udp(1, 2, 16)
                .payload("8 bytes!").build();
        List<Left> out = run(e, List.of(tagged, untagged));
        assertArrayEquals(untagged, out.get(0).frame(), "the tag popped");
        assertEquals(untagged.length, out.get(0).wire());
        assertArrayEquals(tagged, out.get(1).frame(), "a tag pushed");
        assertEquals(tagged.length, out.get(1).wire());
    }

    private static long macAt(byte[] f, int at) {
        long v = 0;
        for (int i = 0; i < 6; i++) {
            v = (v << 8) | (f[at + i] & 0xFF);
        }
        return v;
    }

    @Test
    void framesTheGraphRefusesAreParserErrorsByKind() {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"),
                new ProgramRegistry().build("counter", Map.of()), 100), 1024);
        byte[] tcp = frame().ethernet(0x0800).ipv4(6, 40, 0, 64).tcp(1, 2, 0).build();
        int window = TargetProfiles.builtIn("tofino1").parser().windowBytes();
        // an IPv6 extension chain longer than the parser's window (the capture kept it all)
        byte[] beyond = frame().ethernet(0x86DD).ipv6(0, 400).ipv6Extension(60, 15).ipv6Extension(43, 15)
                .ipv6Extension(17, 15).udp(1, 2, 8).build();
        long t = 0;
        // a frame shorter on the wire than its headers
        e.arrive(t += 1000, 0, record(Arrays.copyOf(tcp, 30), 30, 30));
        // a capture that kept fewer bytes than the headers (the frame was longer)
        e.arrive(t += 1000, 0, record(tcp, 30, tcp.length));
        // an IPv4 IHL below 5
        e.arrive(t += 1000, 0, record(frame().ethernet(0x0800).ipv4Ihl(4, 6).zeros(20).build()));
        e.arrive(t += 1000, 0, record(beyond));
        // a VLAN tag with nothing after it
        e.arrive(t += 1000, 0, record(frame().ethernet(0x8100).vlan(0, 7, 0x0800).build()));
        e.arrive(t += 1000, 0, record(tcp));
        e.drain();
        assertEquals(true, beyond.length > window);
        assertEquals(Map.of(ParserError.PACKET_TOO_SHORT.label(), 2L, ParserError.CAPTURE_TRUNCATED.label(), 1L,
                ParserError.HEADER_LENGTH.label(), 1L, ParserError.WINDOW_EXCEEDED.label(), 1L),
                e.counters().parserErrors());
        assertEquals(5, e.counters().droppedFor(Counters.PARSER_ERROR));
        assertEquals(1, e.counters().packetsOut());
        e.counters().checkConservation(0);
    }
}

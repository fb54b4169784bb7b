package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's parser Checksum on packets ({@code p4/nat_checksum.p4}): the parser's verify() drops a
 * frame whose IPv4 header checksum is wrong; the residual the parser deposits (or get()s) lets
 * the deparser's update give a NAT-rewritten TCP segment a valid checksum without summing its
 * payload. verify() is true when the checksum is wrong: tofino1_base.p4 declares it "Verify
 * whether the complemented sum is zero, i.e. the checksum is valid" returning a flag, and
 * Intel's TNA programs store that flag as the error ({@code ig_md.checksum_err = ipv4_checksum.verify()},
 * the control dropping when it is set), which is what Tofino's parser checksum unit writes.
 */
class P4ParserChecksumTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    static final long NAT_ADDR = 0xC0A80001L;
    static final int NAT_PORT = 40000;
    private static final int TCP = 14 + 20;

    private static StageProgram program(String text) {
        StageProgram unplaced = P4Programs.text("nat_checksum.p4", text, PreprocessorOptions.defaults()).require();
        return ProgramCompiler.compile(unplaced, TOFINO1).requireAccepted().program();
    }

    private static List<byte[]> replay(StageProgram p, byte[]... frames) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, p, SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        List<byte[]> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            assertEquals(5, port);
            out.add(Arrays.copyOfRange(pool.frameArray(), pool.frameOffset(slot), pool.frameOffset(slot) + pool.capturedLength(slot)));
        });
        long cycle = e.now() + 1;
        for (byte[] f : frames) {
            e.arrive(cycle, 1, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        return out;
    }

    /** Ethernet, IPv4 (valid header checksum), TCP from {@code src}:{@code port} with a valid checksum, an odd-length payload. */
    static byte[] tcpFrame(long src, int port) {
        String payload = "hello, NAT!";
        byte[] f = TestFrames.frame().ethernet(0x0800).ipv4(6, 20 + 20 + payload.length(), 0, 64).tcp(port, 80, 0)
                .payload(payload).build();
        put32(f, 26, src);
        f[24] = 0;
        f[25] = 0;
        put16(f, 24, ~sum(f, 14, 20, 0) & 0xFFFF);
        put16(f, TCP + 16, ~tcpSum(f) & 0xFFFF);
        return f;
    }

    /** RFC 1071 over the TCP pseudo-header (source, destination, protocol, TCP length) and the segment. */
    private static int tcpSum(byte[] f) {
        int len = f.length - TCP;
        long pseudo = word(f, 26) + word(f, 28) + word(f, 30) + word(f, 32) + 6 + len;
        return sum(f, TCP, len, pseudo);
    }

    private static int sum(byte[] b, int off, int len, long start) {
        long s = start;
        for (int i = 0; i < len; i += 2) {
            s += ((b[off + i] & 0xFF) << 8) | (i + 1 < len ? b[off + i + 1] & 0xFF : 0);
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) s;
    }

    /** The TCP checksum field of a frame. */
    static int tcpChecksumField(byte[] f) {
        return (int) word(f, TCP + 16);
    }

    private static long word(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private static void put32(byte[] b, int at, long v) {
        put16(b, at, (int) (v >>> 16) & 0xFFFF);
        put16(b, at + 2, (int) v & 0xFFFF);
    }

    private static void assertNatted(byte[] in, byte[] out) {
        assertEquals(0xFFFF, sum(out, 14, 20, 0), "the IPv4 header sums to 0xFFFF");
        assertEquals(0xFFFF, tcpSum(out), "the TCP segment with its pseudo-header sums to 0xFFFF");
        assertArrayEquals(tcpFrame(NAT_ADDR, NAT_PORT), out);
        assertEquals(in.length, out.length);
    }

    @Test
    void aNattedSegmentLeavesWithTheChecksumTheResidualCompletes() {
        byte[] in = tcpFrame(0x0A000001L, 1234);
        byte[] in2 = tcpFrame(0xAC10FE07L, 65535);
        List<byte[]> out = replay(program(P4RouterTest.resource("nat_checksum.p4")), in, in2);
        assertEquals(2, out.size());
        assertNatted(in, out.get(0));
        assertNatted(in2, out.get(1));
    }

    @Test
    void getGivesTheSameResidualAsADeposit() {
        String text = P4RouterTest.resource("nat_checksum.p4").replace("tcp_checksum.subtract_all_and_deposit(ig_md.tcp_residual);",
                "ig_md.tcp_residual = tcp_checksum.get();");
        byte[] in = tcpFrame(0x0A000001L, 1234);
        List<byte[]> out = replay(program(text), in);
        assertEquals(1, out.size());
        assertNatted(in, out.get(0));
    }

    @Test
    void aFrameWhoseIpv4ChecksumIsWrongIsDropped() {
        byte[] bad = tcpFrame(0x0A000001L, 1234);
        bad[25] ^= 1;
        byte[] good = tcpFrame(0x0A000002L, 1234);
        List<byte[]> out = replay(program(P4RouterTest.resource("nat_checksum.p4")), bad, good);
        assertEquals(1, out.size(), "only the frame with a valid IPv4 checksum is forwarded");
        assertNatted(good, out.get(0));
    }

    private static void assertRefused(String from, String to, String at, String message) {
        String src = P4RouterTest.resource("nat_checksum.p4");
        assertTrue(src.contains(from), from);
        String text = src.replace(from, to);
        int offset = text.indexOf(at);
        assertTrue(offset >= 0, at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text("nat_checksum.p4", text, PreprocessorOptions.defaults());
        assertEquals(List.of("nat_checksum.p4:" + line + ":" + column + ": " + message), r.errors().stream().map(Diagnostic::line).toList());
    }

    /**
     * TNA's tofino1_base.p4 declares add/subtract data "must be byte aligned"; the engine sums 16-bit
     * words (RFC 1071), so the lowering takes whole words: 8 bits are refused, 16 (the base program) lower.
     */
    @Test
    void checksumDataOfAnOddByteCountIsRefusedAndWholeWordsLower() {
        assertRefused("tcp_checksum.subtract({hdr.tcp.src_port});", "tcp_checksum.subtract({hdr.tcp.flags});",
                "{hdr.tcp.flags}", "Checksum.subtract of 8 bits: the checksum engine takes whole 16-bit words");
    }

    /** A verify in a state that extracts nothing (Intel's switch.p4 parse_ipv4_no_options) runs where the parse passes. */
    @Test
    void aVerifyInAStateWithoutExtractsDropsABadFrame() {
        String text = P4RouterTest.resource("nat_checksum.p4").replace(
                "        ig_md.checksum_err = (bit<1>) ipv4_checksum.verify();\n",
                "        transition check_ipv4;\n    }\n    state check_ipv4 {\n        ig_md.checksum_err = (bit<1>) ipv4_checksum.verify();\n");
        byte[] bad = tcpFrame(0x0A000001L, 1234);
        bad[25] ^= 1;
        byte[] good = tcpFrame(0x0A000002L, 1234);
        List<byte[]> out = replay(program(text), bad, good);
        assertEquals(1, out.size(), "only the frame with a valid IPv4 checksum is forwarded");
        assertNatted(good, out.get(0));
    }

    @Test
    void anUnknownChecksumMethodInAParserIsRefused() {
        assertRefused("tcp_checksum.subtract_all_and_deposit(ig_md.tcp_residual);", "tcp_checksum.update({hdr.tcp.src_port});",
                "tcp_checksum.update", "Checksum.update in a parser is not supported by the lowering (add, subtract, verify, get"
                        + " and subtract_all_and_deposit are)");
    }

    /** The residual joins the deparser's sum as whole words: one at an odd byte of the list is refused. */
    @Test
    void aResidualOffAWordBoundaryIsRefused() {
        assertRefused("{hdr.ipv4.src_addr, hdr.tcp.src_port, ig_md.tcp_residual}",
                "{hdr.ipv4.src_addr, hdr.ipv4.ttl, ig_md.tcp_residual, hdr.ipv4.protocol}",
                "ig_md.tcp_residual, hdr.ipv4.protocol", "metadata field ig_md.tcp_residual in a checksum must be whole 16-bit words"
                        + " at a 16-bit boundary of the list (it is 16 bits at bit 40)");
    }

    /**
     * Two states extracting tcp, each with its own checksum calls: only the path's run (were the
     * other state's subtract of dst_port run too, the TCP checksum would be off by that word).
     */
    @Test
    void twoStatesExtractingTheSameHeaderEachRunTheirOwnCalls() {
        String text = P4RouterTest.resource("nat_checksum.p4")
                .replace("            6 : parse_tcp;\n", "            6 : parse_tcp;\n            17 : parse_tcp_again;\n")
                .replace("    state parse_tcp {", "    state parse_tcp_again {\n        pkt.extract(hdr.tcp);\n"
                        + "        tcp_checksum.subtract({hdr.tcp.dst_port});\n        transition accept;\n    }\n    state parse_tcp {");
        byte[] in = tcpFrame(0x0A000001L, 1234);
        List<byte[]> out = replay(program(text), in);
        assertEquals(1, out.size());
        assertNatted(in, out.get(0));
    }

    /** The parser's other externs stay refused by name (ParserCounter: not lowered yet). */
    @Test
    void aParserCounterStaysRefused() {
        assertRefused("    Checksum() tcp_checksum;\n\n    state start", "    Checksum() tcp_checksum;\n    ParserCounter() options;\n\n    state start",
                "ParserCounter()", "extern ParserCounter (options) in parser SwitchIngressParser is not supported by the lowering yet");
    }
}

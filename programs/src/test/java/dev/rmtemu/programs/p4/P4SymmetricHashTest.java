package dev.rmtemu.programs.p4;

import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static dev.rmtemu.programs.p4.P4LanguageGapsTest.assertRefused;
import static dev.rmtemu.programs.p4.P4LanguageGapsTest.compile;
import static dev.rmtemu.programs.p4.P4LanguageGapsTest.frame;
import static dev.rmtemu.programs.p4.P4LanguageGapsTest.ports;
import static dev.rmtemu.programs.p4.P4LanguageGapsTest.program;
import static dev.rmtemu.programs.p4.P4LanguageGapsTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * TNA's {@code @symmetric} field pairs on a Hash. bf-p4c gives each field of a pair the XOR of
 * both fields' hash-matrix rows (bf-utils dynamic_hash.c, update_symmetric_bits), so the hash
 * is the CRC of the field list with each field of a pair replaced by {@code a ^ b}; its rules
 * are mau/ixbar_expr.cpp's verifySymmetricHashPairs. Each frame's hash lands in the register
 * cell its ether type's low byte names; the high byte is a third, plain field of the hash.
 */
class P4SymmetricHashTest {
    private static final String SYMMETRIC = "@symmetric(\"hdr.ethernet.dst_addr\", \"hdr.ethernet.src_addr\")";

    private static String ingress(String annotation, String algorithm, String fields) {
        return """
                    %s
                    Hash<bit<16>>(HashAlgorithm_t.%s) sym;
                    Register<bit<16>, bit<8>>(256) hashes;
                    RegisterAction<bit<16>, bit<8>, bit<16>>(hashes) keep = {
                        void apply(inout bit<16> value) {
                            value = ig_md.c;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.ether_type[7:0];
                        ig_md.b = hdr.ethernet.ether_type[15:8];
                        ig_md.c = sym.get({%s});
                        keep.execute(ig_md.a);
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """.formatted(annotation, algorithm, fields);
    }

    private static final String FIELDS = "hdr.ethernet.dst_addr, hdr.ethernet.src_addr, ig_md.b";

    /** CRC-16/ARC bit by bit (poly 0x8005 reflected, init 0, no final XOR): TNA's CRC16, computed apart from rmtemu's tables. */
    static int crc16Arc(byte[] data) {
        int crc = 0;
        for (byte b : data) {
            crc ^= b & 0xff;
            for (int k = 0; k < 8; k++) {
                crc = (crc & 1) != 0 ? (crc >>> 1) ^ 0xA001 : crc >>> 1;
            }
        }
        return crc;
    }

    private static byte[] message(long first, long second, int plain) {
        byte[] m = new byte[13];
        for (int k = 0; k < 6; k++) {
            m[k] = (byte) (first >>> (40 - 8 * k));
            m[6 + k] = (byte) (second >>> (40 - 8 * k));
        }
        m[12] = (byte) plain;
        return m;
    }

    /**
     * Five flows, each sent in both directions (frame 2k from a to b, frame 2k+1 from b to a):
     * both directions hash alike, the flows apart, and each value is CRC16 over
     * (a ^ b, a ^ b, flow byte).
     */
    @Test
    void bothDirectionsOfAFlowHashAlike() {
        assertEquals(0xBB3D, crc16Arc("123456789".getBytes(StandardCharsets.US_ASCII)), "the reference's catalogue check value");
        StageProgram p = compile(program("", ingress(SYMMETRIC, "CRC16", FIELDS)));
        long[][] flows = {{0x020000000001L, 0x020000000002L}, {0x0A1B2C3D4E5FL, 0x001122334455L},
            {0xFFFFFFFFFFFEL, 0x000000000001L}, {0x3C22FB123456L, 0x8C8590ABCDEFL}, {0x000000000000L, 0x0000000000FFL}};
        byte[][] frames = new byte[2 * flows.length][];
        long[] expected = new long[frames.length];
        for (int k = 0; k < flows.length; k++) {
            long a = flows[k][0];
            long b = flows[k][1];
            int flowByte = 0x10 + k;
            frames[2 * k] = frame(b, a, flowByte << 8 | 2 * k);
            frames[2 * k + 1] = frame(a, b, flowByte << 8 | 2 * k + 1);
            expected[2 * k] = crc16Arc(message(a ^ b, a ^ b, flowByte));
            expected[2 * k + 1] = expected[2 * k];
        }
        P4Twins.Run r = run(p, frames);
        assertEquals(List.of(2L, 2L, 2L, 2L, 2L, 2L, 2L, 2L, 2L, 2L), ports(r));
        long[] cells = Arrays.copyOf(r.engine().state().snapshot(0, "hashes"), frames.length);
        assertArrayEquals(expected, cells);
        assertEquals(flows.length, Arrays.stream(cells).distinct().count(), "one value per flow: " + Arrays.toString(cells));
        // flow 0 by its bytes: a ^ b = 00 00 00 00 00 03, twice, then the flow byte 0x10
        assertEquals(crc16Arc(new byte[] {0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 3, 0x10}), cells[0]);
    }

    /** Without the annotation the two directions of a flow hash apart: the pair, not the CRC, makes them alike. */
    @Test
    void withoutTheAnnotationTheDirectionsDiffer() {
        StageProgram p = compile(program("", ingress("", "CRC16", FIELDS)));
        long a = 0x0A1B2C3D4E5FL;
        long b = 0x001122334455L;
        P4Twins.Run r = run(p, frame(b, a, 0x1000), frame(a, b, 0x1001));
        long[] cells = Arrays.copyOf(r.engine().state().snapshot(0, "hashes"), 2);
        assertEquals(crc16Arc(message(b, a, 0x10)), cells[0]);
        assertEquals(crc16Arc(message(a, b, 0x10)), cells[1]);
        assertNotEquals(cells[0], cells[1]);
    }

    /** bf-p4c refuses a pair of two widths ("The two symmetric fields are not the same size"); the twin above pairs two 48-bit addresses. */
    @Test
    void aPairOfTwoWidthsIsRefused() {
        String annotation = "@symmetric(\"hdr.ethernet.dst_addr\", \"hdr.ethernet.ether_type\")";
        assertRefused(program("", ingress(annotation, "CRC16", "hdr.ethernet.dst_addr, hdr.ethernet.src_addr, hdr.ethernet.ether_type")),
                annotation, "Hash sym: the two symmetric fields are not the same size"
                        + " (hdr.ethernet.dst_addr is 48 bits, hdr.ethernet.ether_type is 16)");
    }

    /** bf-p4c: "The key ... in the symmetric annotation does not appear within the field list". */
    @Test
    void aPairFieldOutsideTheFieldListIsRefused() {
        assertRefused(program("", ingress(SYMMETRIC, "CRC16", "hdr.ethernet.dst_addr, ig_md.b")), SYMMETRIC,
                "Hash sym: the key hdr.ethernet.src_addr in the symmetric annotation does not appear within the field list");
    }

    /** bf-p4c: "symmetric hash is only supported to work with CRC algorithms"; the twin is the CRC16 program above. */
    @Test
    void aSymmetricIdentityHashIsRefused() {
        assertRefused(program("", ingress(SYMMETRIC, "IDENTITY", FIELDS)), SYMMETRIC,
                "Hash sym: symmetric hash is only supported with CRC algorithms, not HashAlgorithm_t.IDENTITY");
    }

    /** bf-p4c: a field in two pairs is refused ("has already been declared symmetric with another field"). */
    @Test
    void aFieldInTwoPairsIsRefused() {
        String second = "@symmetric(\"hdr.ethernet.src_addr\", \"hdr.ethernet.dst_addr\")";
        assertRefused(program("", ingress(SYMMETRIC + " " + second, "CRC16", FIELDS)), second,
                "Hash sym: the key hdr.ethernet.src_addr in the symmetric annotation has already been declared symmetric"
                        + " with another field");
    }
}

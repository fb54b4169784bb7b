package dev.rmtemu.model.ir;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The width-aware VLIW operations as P4_16 defines them (specification 8.5 and 8.6):
 * {@code |+|} and {@code |-|} saturate at bit<W>'s 0..2^W-1 and at int<W>'s
 * -2^(W-1)..2^(W-1)-1 (the result kept as its W-bit pattern), and {@code a ++ b} puts
 * a's bits above b's W bits; the operands are taken at their low W bits, as a W-bit
 * container's ALU sees them.
 */
class WidthAwareOpsTest {
    @Test
    void unsignedSaturationStopsAtTheWidthsEnds() {
        assertEquals(255, VliwOp.SADDU.apply(250, 10, 8));
        assertEquals(254, VliwOp.SADDU.apply(250, 4, 8));
        assertEquals(0, VliwOp.SSUBU.apply(3, 10, 8));
        assertEquals(7, VliwOp.SSUBU.apply(10, 3, 8));
        assertEquals(1, VliwOp.SADDU.apply(1, 0, 1));
        assertEquals(1, VliwOp.SADDU.apply(1, 1, 1));
        assertEquals(-1L, VliwOp.SADDU.apply(-2L, 5, 64), "2^64-2 + 5 saturates at 2^64-1");
        assertEquals(-3L, VliwOp.SADDU.apply(-5L, 2, 64));
        assertEquals(0, VliwOp.SSUBU.apply(5, -1L, 64), "5 - (2^64-1) saturates at 0");
        // operands wider than the width: their low bits (0x1FF is 0xFF at 8 bits)
        assertEquals(255, VliwOp.SADDU.apply(0x1FF, 0x100, 8));
    }

    @Test
    void signedSaturationClampsAndKeepsTheTwosComplementPattern() {
        assertEquals(127, VliwOp.SADDS.apply(100, 100, 8));
        assertEquals(0x80, VliwOp.SADDS.apply(0x9C, 0x9C, 8), "-100 + -100 clamps to -128");
        assertEquals(0xFB, VliwOp.SADDS.apply(0x9C, 95, 8), "-100 + 95 = -5");
        assertEquals(0x80, VliwOp.SSUBS.apply(0x9C, 100, 8), "-100 - 100 clamps to -128");
        assertEquals(127, VliwOp.SSUBS.apply(100, 0x80, 8), "100 - (-128) clamps to 127");
        assertEquals(0x7FFF, VliwOp.SSUBS.apply(0x7FFF, 0x8000, 16), "32767 - (-32768) clamps to 32767");
        assertEquals(Long.MAX_VALUE, VliwOp.SADDS.apply(Long.MAX_VALUE, 1, 64));
        assertEquals(Long.MIN_VALUE, VliwOp.SSUBS.apply(Long.MIN_VALUE, 1, 64));
        assertEquals(Long.MIN_VALUE, VliwOp.SSUBS.apply(-2L, Long.MAX_VALUE, 64));
        assertEquals(-3L, VliwOp.SADDS.apply(-1L, -2L, 64));
    }

    @Test
    void concatenationPutsTheLeftAboveTheRightsWidth() {
        assertEquals(0xABCD, VliwOp.CONCAT.apply(0xAB, 0xCD, 8));
        assertEquals(0x5_0003, VliwOp.CONCAT.apply(5, 3, 16));
        assertEquals(0x1_0F, VliwOp.CONCAT.apply(1, 0xFF0F, 8), "the right operand's bits above its width are not kept");
        assertEquals(0x1234, VliwOp.CONCAT.apply(7, 0x1234, 64), "a 64-bit right operand leaves no room");
    }

    /** int<W>'s >> copies the sign bit in (a shift past the width leaves all sign); min and max order by the signed value. */
    @Test
    void signedShiftAndMinMaxReadTheSignAtTheWidth() {
        assertEquals(0xF0, VliwOp.SHRS.apply(0x80, 3, 8), "-128 >> 3 = -16");
        assertEquals(0x08, VliwOp.SHRS.apply(0x40, 3, 8));
        assertEquals(0xFF, VliwOp.SHRS.apply(0x80, 70, 8));
        assertEquals(-2L, VliwOp.SHRS.apply(-4L, 1, 64));
        assertEquals(0x80, VliwOp.MINS.apply(0x80, 0x7F, 8), "-128 < 127");
        assertEquals(0x7F, VliwOp.MAXS.apply(0x80, 0x7F, 8));
        assertEquals(0xFFFF, VliwOp.MAXS.apply(0xFFFF, 0x8000, 16), "-1 > -32768");
        assertEquals(Long.MIN_VALUE, VliwOp.MINS.apply(Long.MIN_VALUE, 0, 64));
    }

    @Test
    void aWidthGoesWithTheWidthAwareOperationsOnly() {
        assertEquals("(ipv4.ttl ++ (bit<8>) 3)", Ir.concat(Ir.read(field()), Ir.constant(3), 8).toString());
        assertEquals("((int<8>) ipv4.ttl |-| (int<8>) 3)", Ir.saturatingSub(Ir.read(field()), Ir.constant(3), 8, true).toString());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> new Expr.Binary(VliwOp.SADDU, Ir.constant(1), Ir.constant(2)));
        assertEquals("operation SADDU at width 0 (1..64)", none.getMessage());
        IllegalArgumentException extra = assertThrows(IllegalArgumentException.class,
                () -> Ir.op(VliwOp.ADD, Ir.constant(1), Ir.constant(2), 8));
        assertEquals("operation ADD at width 8 (it works on the word: 0)", extra.getMessage());
    }

    private static Field field() {
        return ProgramBuilder.create("w", "width-aware ops").metadata(Gress.INGRESS, "ipv4.ttl", 8);
    }
}

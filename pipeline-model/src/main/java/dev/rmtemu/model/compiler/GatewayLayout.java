package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.target.MauResources;
import dev.rmtemu.model.target.TargetProfile;

import java.util.List;

/**
 * How a Tofino gateway takes one condition, as p4c's Tofino back end lays it out
 * (bf-p4c mau/gateway.cpp): the gateway matches {@link MauResources#gatewayPhvBytes()}
 * bytes of PHV from the exact-match input crossbar and {@link MauResources#gatewayHashBits()}
 * bits of a hash group, which feed its 4-bit range units (specs/device.cpp
 * TofinoDevice::getGatewaySpec: 4 bytes, 12 bits on Tofino 1 and 2).
 * <ul>
 * <li>Taken as it is: a field (or a field masked by a constant) {@code ==}/{@code !=} a
 *     constant (its bytes), two fields {@code ==}/{@code !=} (one byte per byte pair, through
 *     the gateway's XOR).</li>
 * <li>Rewritten (CanonGatewayExpr): {@code x > k} becomes {@code x >= k+1}, {@code x <= k}
 *     becomes {@code x < k+1}; the constant's trailing zero bits are sliced off the field
 *     (SliceReduce), so {@code x >= 1024} is {@code x[31:10] != 0}, an equality on 3 bytes;
 *     an equality wider than 32 bits is split, bytes past the fourth going to hash bits.
 *     Any other {@code <}/{@code >=} is a range match (GatewayRangeMatch): the whole sliced
 *     field goes through hash bits. The cost is crossbar bytes and hash bits in the stage.</li>
 * <li>Refused (CheckGatewayExpr): an operand that is not a PHV field (arithmetic, an action
 *     parameter), {@code <}/{@code >} between two fields ("one operand must be constant"),
 *     and a layout past the bytes and bits ("condition too complex, limit of 4 bytes +
 *     12 bits of PHV input exceeded"): {@code count >= 1000} on 32 bits needs 29 range bits.</li>
 * </ul>
 */
final class GatewayLayout {
    private static final int BITS_PER_BYTE = 8;

    /**
     * One condition's gateway input: the fields it puts on the exact-match crossbar, the
     * gateway bytes and hash bits it takes, and the condition as the gateway matches it.
     */
    record Input(List<Field> xbarFields, int phvBytes, int hashBits, String canonical) {
        static final Input NONE = new Input(List.of(), 0, 0, "constant");
    }

    /** A condition the gateway cannot take: why, in p4c's words and ours. */
    static final class TooComplex extends Exception {
        TooComplex(String why) {
            super(why, null, false, false);
        }
    }

    private GatewayLayout() {
    }

    /** The gateway input of {@code c}, or {@link TooComplex} naming the rule it breaks. */
    static Input of(Condition c, TargetProfile target) throws TooComplex {
        MauResources mau = target.mau();
        Expr left = c.left();
        Expr right = c.right();
        CmpOp op = c.op();
        if (IrWalk.isConst(left) && !IrWalk.isConst(right)) {
            Expr t = left;
            left = right;
            right = t;
            op = mirror(op);
        }
        if (IrWalk.isConst(left)) {
            return Input.NONE; // folded to true or false: no gateway input
        }
        Operand a = operand(left, c);
        if (IrWalk.isConst(right)) {
            return fit(constant(a, op, right.constantValue(), c), mau, c);
        }
        Operand b = operand(right, c);
        if (op != CmpOp.EQ && op != CmpOp.NE) {
            throw new TooComplex("condition too complex, one operand of '" + op.symbol() + "' must be a constant: a gateway "
                    + "compares two fields only for == or != (compute the difference one stage earlier and test its sign bit, "
                    + "or compare in a stateful ALU)");
        }
        // XOR compare: one gateway byte per byte of the wider operand, both fields on the crossbar
        int bytes = Math.max(a.bytes(), b.bytes());
        return fit(new Input(List.of(a.field(), b.field()), bytes, 0, c.toString()), mau, c);
    }

    /** A field, or a field masked by a constant (the mask's span is the slice matched). */
    private record Operand(Field field, int lo, int hi) {
        int bytes() {
            return hi / BITS_PER_BYTE - lo / BITS_PER_BYTE + 1;
        }

        int width() {
            return hi - lo + 1;
        }

        String name() {
            return lo == 0 && hi == field.width() - 1 ? field.name() : field.name() + "[" + hi + ":" + lo + "]";
        }
    }

    private static Operand operand(Expr e, Condition c) throws TooComplex {
        Field read = IrWalk.fieldRead(e);
        if (read != null) {
            return new Operand(read, 0, read.width() - 1);
        }
        Expr.Binary b = IrWalk.binary(e);
        if (b != null && b.op() == VliwOp.AND) {
            Expr f = IrWalk.isConst(b.left()) ? b.right() : b.left();
            Expr k = IrWalk.isConst(b.left()) ? b.left() : b.right();
            Field r = IrWalk.fieldRead(f);
            if (r != null && IrWalk.isConst(k)) {
                long m = k.constantValue() & r.mask();
                if (m == 0) {
                    return new Operand(r, 0, 0);
                }
                return new Operand(r, Long.numberOfTrailingZeros(m), 63 - Long.numberOfLeadingZeros(m));
            }
        }
        throw new TooComplex("condition expression too complex: " + e + " is not a PHV field; a gateway matches PHV bytes "
                + "(compute it into a field one stage earlier)");
    }

    /** A field against a constant, canonicalised as CanonGatewayExpr does. */
    private static Input constant(Operand a, CmpOp op, long k, Condition c) {
        long max = a.field().mask();
        switch (op) {
            case GT -> {
                if (k == max) {
                    return Input.NONE; // never true
                }
                return constant(a, CmpOp.GE, k + 1, c);
            }
            case LE -> {
                if (k == max) {
                    return Input.NONE; // always true
                }
                return constant(a, CmpOp.LT, k + 1, c);
            }
            case LT, GE -> {
                if (k == 0) {
                    return Input.NONE; // x < 0 never, x >= 0 always
                }
                if (Long.compareUnsigned(k, max) > 0) {
                    return Input.NONE;
                }
                // SliceReduce: the constant's trailing zeros come off the bottom of the field
                int tz = Long.numberOfTrailingZeros(k);
                Operand s = new Operand(a.field(), a.lo() + tz, a.hi());
                long rest = k >>> tz;
                if (rest == 1) {
                    String eq = op == CmpOp.LT ? " == 0" : " != 0";
                    return new Input(List.of(a.field()), s.bytes(), 0, s.name() + eq);
                }
                return new Input(List.of(a.field()), 0, s.width(),
                        s.name() + " " + op.symbol() + " " + Long.toUnsignedString(rest) + " (range match)");
            }
            default -> {
                // == / != a constant: the field's bytes; past the gateway's bytes, whole bytes go to hash bits
                return new Input(List.of(a.field()), a.bytes(), 0, a.name() + " " + op.symbol() + " " + Long.toUnsignedString(k));
            }
        }
    }

    /** Checks an input against the gateway's bytes and bits; bytes past the fourth of an equality spill into hash bits. */
    private static Input fit(Input in, MauResources mau, Condition c) throws TooComplex {
        int bytes = in.phvBytes();
        int bits = in.hashBits();
        if (mau.gatewayPhvBytes() != TargetProfile.UNLIMITED && bytes > mau.gatewayPhvBytes() && in.hashBits() == 0
                && in.xbarFields().size() == 1) {
            bits += (bytes - mau.gatewayPhvBytes()) * BITS_PER_BYTE;
            bytes = mau.gatewayPhvBytes();
        }
        boolean bytesOver = mau.gatewayPhvBytes() != TargetProfile.UNLIMITED && bytes > mau.gatewayPhvBytes();
        boolean bitsOver = mau.gatewayHashBits() != TargetProfile.UNLIMITED && bits > mau.gatewayHashBits();
        if (bytesOver || bitsOver) {
            throw new TooComplex("condition too complex, limit of " + mau.gatewayPhvBytes() + " bytes + " + mau.gatewayHashBits()
                    + " bits of PHV input exceeded: " + in.canonical() + " needs " + in.phvBytes() + " bytes + "
                    + in.hashBits() + " bits (compare in a stateful ALU, or subtract one stage earlier and test the sign bit)");
        }
        return new Input(in.xbarFields(), bytes, bits, in.canonical());
    }

    private static CmpOp mirror(CmpOp op) {
        return switch (op) {
            case LT -> CmpOp.GT;
            case LE -> CmpOp.GE;
            case GT -> CmpOp.LT;
            case GE -> CmpOp.LE;
            default -> op;
        };
    }
}

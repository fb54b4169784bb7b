package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;

/**
 * The largest unsigned value an expression can take, from the widths of what
 * it reads: a register index that can reach past the array's size is refused
 * before any packet rather than found by one unlucky packet.
 */
final class ValueRange {
    private ValueRange() {
    }

    static long max(Expr e) {
        return e.accept(MAX);
    }

    private static final Expr.Visitor<Long> MAX = new Expr.Visitor<>() {
        @Override
        public Long meterOut(Expr.MeterOut x) {
            return x.meter().maxOutput(); // the largest colour, LPF value or WRED decision
        }

        @Override
        public Long read(Expr.Read e) {
            return e.field().mask();
        }

        @Override
        public Long constant(Expr.Const e) {
            return e.value();
        }

        @Override
        public Long hashOut(Expr.HashOut e) {
            return bits(e.unit().outputBits());
        }

        @Override
        public Long regOut(Expr.RegOut e) {
            return e.action().array().wordMask();
        }

        @Override
        public Long actionData(Expr.ActionData e) {
            return bits(e.table().actionDataBits());
        }

        @Override
        public Long binary(Expr.Binary b) {
            long l = max(b.left());
            long r = max(b.right());
            Long constRight = b.right().constantValue();
            return switch (b.op()) {
                case AND, MIN -> umin(l, r);
                case MOD -> constRight != null && constRight > 0 ? umin(l, constRight - 1) : l;
                case DIV -> constRight != null && constRight > 0 ? Long.divideUnsigned(l, constRight) : l;
                case SHR -> constRight != null ? (Long.compareUnsigned(constRight, 64) >= 0 ? 0 : l >>> constRight) : l;
                case OR, XOR, MAX -> fill(l | r);
                case SADDU, SSUBU, SADDS, SSUBS, SHRS, MINS, MAXS -> bits(b.width());
                case CONCAT -> b.width() < 64 && Long.numberOfLeadingZeros(l) >= b.width() ? l << b.width() | bits(b.width()) : -1L;
                default -> -1L;
            };
        }
    };

    private static long bits(int n) {
        return n >= 64 ? -1L : (1L << n) - 1;
    }

    /** All ones up to the highest set bit. */
    private static long fill(long v) {
        return v == 0 ? 0 : -1L >>> Long.numberOfLeadingZeros(v);
    }

    private static long umin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }
}

package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.TypeRef;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/**
 * The program's top-level types and constants, as far as lowering needs them: widths of
 * {@code bit<W>}, {@code bool} and typedefs, header and struct declarations, and the
 * value of compile-time integer constants (the specification's arbitrary-precision
 * literals, kept in a {@code long} once their width is known).
 */
final class Types {
    private final Map<String, Declaration> byName;
    /** A sub-control's constructor parameters, by name: constants inside it (they shadow top-level names). */
    private final Map<String, BigInteger> bound;

    Types(Program program) {
        byName = new HashMap<>();
        bound = Map.of();
        for (Declaration d : program.declarations()) {
            if (!d.name().isEmpty()) {
                byName.put(d.name(), d);
            }
        }
    }

    private Types(Map<String, Declaration> byName, Map<String, BigInteger> bound) {
        this.byName = byName;
        this.bound = bound;
    }

    /** These types with {@code constants} (a control's constructor parameters, already in their widths) as named constants. */
    Types with(Map<String, BigInteger> constants) {
        Map<String, BigInteger> all = new HashMap<>(bound);
        all.putAll(constants);
        return new Types(byName, Map.copyOf(all));
    }

    Declaration declaration(String name) {
        return byName.get(name);
    }

    /** The bit width of a scalar type: {@code bit<W>}, {@code bool}, a typedef of one ({@code int<W>} is refused here). */
    int width(TypeRef t) {
        return width(t, false);
    }

    /** As {@link #width(TypeRef)}, {@code int<W>} too: where the lowering keeps a value's signedness (control metadata and locals). */
    int signedWidth(TypeRef t) {
        return width(t, true);
    }

    /** Whether {@code t} is {@code int<W>} or a typedef of it. */
    boolean signed(TypeRef t) {
        if (t instanceof TypeRef.Base b) {
            return b.keyword().equals("int") && b.width() != null;
        }
        if (t instanceof TypeRef.Named n && byName.get(n.name()) instanceof Declaration.Typedef td && td.type() != null) {
            return signed(td.type());
        }
        return false;
    }

    private int width(TypeRef t, boolean allowSigned) {
        if (t instanceof TypeRef.Base b) {
            switch (b.keyword()) {
                case "bool":
                    return 1;
                case "bit":
                    if (b.width() == null) {
                        return 1;
                    }
                    return (int) constant(b.width());
                case "int":
                    if (allowSigned && b.width() != null) {
                        return (int) constant(b.width());
                    }
                    throw new Refusal(b.position(), "int<W> here is not supported by the lowering yet (int<W> metadata and"
                            + " local variables of a control are)");
                default:
                    throw new Refusal(b.position(), b.keyword() + " is not a scalar type the lowering supports");
            }
        }
        if (t instanceof TypeRef.Named n) {
            Declaration d = byName.get(n.name());
            if (d instanceof Declaration.Typedef td && td.type() != null) {
                return width(td.type(), allowSigned);
            }
            if (d instanceof Declaration.Enum e && e.underlying() != null) {
                return width(e.underlying());
            }
            throw new Refusal(n.position(), "type " + n.name() + " is not a scalar type (bit<W>, bool or a typedef of one)");
        }
        throw new Refusal(t.position(), "this type is not a scalar type the lowering supports");
    }

    /** The header or struct a type names (through typedefs), or null. */
    Declaration.StructLike structLike(TypeRef t) {
        if (t instanceof TypeRef.Named n) {
            Declaration d = byName.get(n.name());
            if (d instanceof Declaration.Typedef td && td.type() != null) {
                return structLike(td.type());
            }
            return d instanceof Declaration.StructLike s ? s : null;
        }
        return null;
    }

    /** The name a type is written with, or null for a base type. */
    static String named(TypeRef t) {
        return t instanceof TypeRef.Named n ? n.name() : null;
    }

    /** A compile-time integer: a literal, a constant's name, a cast or arithmetic of those. */
    long constant(Expression e) {
        BigInteger v = big(e);
        if (v.bitLength() > 64 && v.signum() >= 0) {
            throw new Refusal(e.position(), "constant " + v + " is wider than 64 bits");
        }
        return v.longValue();
    }

    boolean isConstant(Expression e) {
        try {
            big(e);
            return true;
        } catch (Refusal r) {
            return false;
        }
    }

    private BigInteger big(Expression e) {
        if (e instanceof Expression.IntegerLiteral l) {
            return l.width() == null ? l.value() : l.value().and(mask(l.width()));
        }
        if (e instanceof Expression.BooleanLiteral b) {
            return b.value() ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (e instanceof Expression.Name n && bound.containsKey(n.name())) {
            return bound.get(n.name());
        }
        if (e instanceof Expression.Name n && byName.get(n.name()) instanceof Declaration.Constant c) {
            BigInteger v = big(c.value());
            return c.type() instanceof TypeRef.Base b && "bit".equals(b.keyword()) || c.type() instanceof TypeRef.Named
                    ? v.and(mask(width(c.type()))) : v;
        }
        if (e instanceof Expression.Cast c) {
            return big(c.operand()).and(mask(signedWidth(c.type())));
        }
        if (e instanceof Expression.Unary u && u.operator().equals("-")) {
            return big(u.operand()).negate();
        }
        if (e instanceof Expression.Binary b) {
            BigInteger l = big(b.left());
            BigInteger r = big(b.right());
            switch (b.operator()) {
                case "+": return l.add(r);
                case "-": return l.subtract(r);
                case "*": return l.multiply(r);
                case "&": return l.and(r);
                case "|": return l.or(r);
                case "^": return l.xor(r);
                case "<<": return l.shiftLeft(r.intValueExact());
                case ">>": return l.shiftRight(r.intValueExact());
                default: break;
            }
        }
        throw new Refusal(e.position(), "not a compile-time integer constant");
    }

    static BigInteger mask(int width) {
        return BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
    }

    static long longMask(int width) {
        return width >= 64 ? -1L : (1L << width) - 1;
    }
}

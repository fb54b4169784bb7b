package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.math.BigInteger;
import java.util.List;

/**
 * An expression. Keyset forms ({@link Mask}, {@link Range}, {@link Default},
 * {@link DontCare}, a {@link Tuple} of them) appear only in select cases and table entries.
 */
public sealed interface Expression extends Node {
    /** An integer literal at any precision; {@code width} null when unsized ({@code 5}), else from {@code 8w5} / {@code 4s3}. */
    record IntegerLiteral(SourcePosition position, BigInteger value, Integer width, boolean signed, String text) implements Expression {
    }

    record BooleanLiteral(SourcePosition position, boolean value) implements Expression {
    }

    record StringLiteral(SourcePosition position, String value) implements Expression {
    }

    /** A name; {@code topLevel} for {@code .name}. */
    record Name(SourcePosition position, String name, boolean topLevel) implements Expression {
    }

    record This(SourcePosition position) implements Expression {
    }

    /** {@code error.Name}. */
    record ErrorMember(SourcePosition position, String member) implements Expression {
    }

    record Member(SourcePosition position, Expression target, String member) implements Expression {
    }

    record Index(SourcePosition position, Expression target, Expression index) implements Expression {
    }

    /** {@code e[hi:lo]}. */
    record Slice(SourcePosition position, Expression target, Expression high, Expression low) implements Expression {
    }

    /** {@code f(args)} or {@code f<types>(args)}: a method, function, action or constructor call. */
    record Call(SourcePosition position, Expression callee, List<TypeRef> typeArguments, List<Argument> arguments) implements Expression {
        public Call {
            typeArguments = List.copyOf(typeArguments);
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code ! ~ - +}. */
    record Unary(SourcePosition position, String operator, Expression operand) implements Expression {
    }

    /** Every binary operator, spelt as in P4 ({@code >>} included). */
    record Binary(SourcePosition position, String operator, Expression left, Expression right) implements Expression {
    }

    record Cast(SourcePosition position, TypeRef type, Expression operand) implements Expression {
    }

    record Conditional(SourcePosition position, Expression condition, Expression ifTrue, Expression ifFalse) implements Expression {
    }

    /** {@code {a, b}}. */
    record ListExpression(SourcePosition position, List<Expression> elements) implements Expression {
        public ListExpression {
            elements = List.copyOf(elements);
        }
    }

    /** {@code {f = a, g = b}}; {@code rest} for a trailing {@code ...}. */
    record StructExpression(SourcePosition position, List<Argument> fields, boolean rest) implements Expression {
        public StructExpression {
            fields = List.copyOf(fields);
        }
    }

    /** {@code {#}}: an invalid header. */
    record InvalidHeader(SourcePosition position) implements Expression {
    }

    /** {@code value &&& mask}. */
    record Mask(SourcePosition position, Expression value, Expression mask) implements Expression {
    }

    /** {@code low .. high}. */
    record Range(SourcePosition position, Expression low, Expression high) implements Expression {
    }

    record Default(SourcePosition position) implements Expression {
    }

    /** {@code _}. */
    record DontCare(SourcePosition position) implements Expression {
    }

    /** {@code (k1, k2)} in a select case or an entry. */
    record Tuple(SourcePosition position, List<Expression> elements) implements Expression {
        public Tuple {
            elements = List.copyOf(elements);
        }
    }
}

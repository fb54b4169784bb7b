package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A type as written: a base type, a named (possibly specialised) type, a stack or a tuple. */
public sealed interface TypeRef extends Node {
    /** {@code bool}, {@code error}, {@code match_kind}, {@code string}, {@code int}, {@code bit}, or {@code bit<W>}, {@code int<W>}, {@code varbit<W>} (width null when not given). */
    record Base(SourcePosition position, String keyword, Expression width) implements TypeRef {
    }

    /** {@code Name} or {@code Name<args>}; {@code topLevel} for a leading dot. */
    record Named(SourcePosition position, String name, boolean topLevel, List<TypeRef> arguments) implements TypeRef {
        public Named {
            arguments = List.copyOf(arguments);
        }
    }

    /** {@code T[size]}: a header stack. */
    record Stack(SourcePosition position, TypeRef element, Expression size) implements TypeRef {
    }

    record Tuple(SourcePosition position, List<TypeRef> elements) implements TypeRef {
        public Tuple {
            elements = List.copyOf(elements);
        }
    }

    /** {@code _} as a type argument. */
    record DontCare(SourcePosition position) implements TypeRef {
    }

    record Void(SourcePosition position) implements TypeRef {
    }
}

package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A parameter: direction ({@code NONE} for directionless), type, name, optional default value. */
public record Parameter(SourcePosition position, List<Annotation> annotations, Direction direction, TypeRef type, String name,
        Expression defaultValue) implements Node {
    public enum Direction { NONE, IN, OUT, INOUT }

    public Parameter {
        annotations = List.copyOf(annotations);
    }
}

package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/**
 * {@code @name}, {@code @name(tokens)}, {@code @name[structured]} or
 * {@code @pragma name tokens}: the body is kept as its tokens' text, since its meaning is
 * the annotation's (the P4 specification lets an unstructured body be any tokens).
 */
public record Annotation(SourcePosition position, String name, List<String> body) implements Node {
    public Annotation {
        body = List.copyOf(body);
    }
}

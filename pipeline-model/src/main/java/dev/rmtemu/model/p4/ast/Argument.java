package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

/** An argument of a call or constructor: by position ({@code name} null) or {@code name = value}. */
public record Argument(SourcePosition position, String name, Expression value) implements Node {
}

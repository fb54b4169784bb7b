package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

/** A name where it is declared (an error or match_kind member, a type parameter). */
public record Identifier(SourcePosition position, String name) implements Node {
}

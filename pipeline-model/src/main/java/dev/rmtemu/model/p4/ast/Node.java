package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

/** Every node of the P4 syntax tree knows where it starts in the user's own file. */
public interface Node {
    SourcePosition position();
}

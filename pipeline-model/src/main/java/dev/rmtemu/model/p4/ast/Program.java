package dev.rmtemu.model.p4.ast;

import java.util.List;

/** A whole P4 program after preprocessing: its declarations in order (the included libraries' first). */
public record Program(List<Declaration> declarations) {
    public Program {
        declarations = List.copyOf(declarations);
    }
}

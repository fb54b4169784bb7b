package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A parser state: its statements and its transition (null: the state rejects, as the specification says). */
public record ParserState(SourcePosition position, List<Annotation> annotations, String name, List<Statement> statements,
        Transition transition) implements Node {

    /** {@code transition next;} ({@code select} null) or {@code transition select(...) {...}} ({@code target} null). */
    public record Transition(SourcePosition position, String target, Select select) implements Node {
    }

    public record Select(SourcePosition position, List<Expression> keys, List<SelectCase> cases) implements Node {
    }

    public record SelectCase(SourcePosition position, Expression keyset, String state) implements Node {
    }
}

package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A statement of a control, action, function or parser state. */
public sealed interface Statement extends Node {
    record Assignment(SourcePosition position, Expression target, Expression value) implements Statement {
    }

    /** A call as a statement ({@code t.apply();}, {@code pkt.extract(h);}, {@code P.apply(...)}). */
    record CallStatement(SourcePosition position, Expression.Call call) implements Statement {
    }

    record If(SourcePosition position, Expression condition, Statement then, Statement otherwise) implements Statement {
    }

    record Block(SourcePosition position, List<Annotation> annotations, List<Statement> statements) implements Statement {
        public Block {
            annotations = List.copyOf(annotations);
            statements = List.copyOf(statements);
        }
    }

    record Exit(SourcePosition position) implements Statement {
    }

    record Return(SourcePosition position, Expression value) implements Statement {
    }

    record Empty(SourcePosition position) implements Statement {
    }

    record Switch(SourcePosition position, Expression selector, List<SwitchCase> cases) implements Statement {
        public Switch {
            cases = List.copyOf(cases);
        }
    }

    /** {@code label: { ... }} or {@code label:} (falls through to the next case); label null for default. */
    record SwitchCase(SourcePosition position, Expression label, Block body) implements Node {
    }

    /** A local variable, constant or instantiation among statements. */
    record Local(SourcePosition position, Declaration declaration) implements Statement {
    }
}

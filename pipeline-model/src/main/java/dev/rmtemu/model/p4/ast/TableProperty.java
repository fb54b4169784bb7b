package dev.rmtemu.model.p4.ast;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/** A property of a table: key, actions, entries, or any other {@code name = value;}. */
public sealed interface TableProperty extends Node {
    record Key(SourcePosition position, List<KeyElement> elements) implements TableProperty {
    }

    record KeyElement(SourcePosition position, Expression expression, String matchKind, List<Annotation> annotations) implements Node {
    }

    record Actions(SourcePosition position, List<ActionRef> actions) implements TableProperty {
    }

    /** An action as a table names it; {@code arguments} null when written without parentheses. */
    record ActionRef(SourcePosition position, List<Annotation> annotations, String name, List<Argument> arguments) implements Node {
    }

    record Entries(SourcePosition position, boolean constant, List<Entry> entries) implements TableProperty {
    }

    record Entry(SourcePosition position, boolean constant, Expression priority, Expression keyset, ActionRef action,
            List<Annotation> annotations) implements Node {
    }

    /** {@code size = 1024;}, {@code default_action = a();}, {@code implementation = ...;} and the like. */
    record Property(SourcePosition position, List<Annotation> annotations, boolean constant, String name, Expression value)
            implements TableProperty {
    }
}

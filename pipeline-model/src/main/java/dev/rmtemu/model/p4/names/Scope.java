package dev.rmtemu.model.p4.names;

import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One level of P4's lexical scoping (the program, a parser or control, an action, a block):
 * the names declared in it so far, in declaration order, each with what it is and where.
 */
final class Scope {
    /** What a name stands for; the checks ask for a type, an action or a match kind where P4 needs one. */
    enum Kind { TYPE, ACTION, TABLE, FUNCTION, VALUE, MATCH_KIND, STATE }

    record Entry(String name, Kind kind, SourcePosition position) {
    }

    private final Scope parent;
    private final Map<String, Entry> names = new LinkedHashMap<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    /** The entry already in this scope under {@code name} (a duplicate when not null), else adds it. */
    Entry declare(String name, Kind kind, SourcePosition position) {
        Entry old = names.get(name);
        if (old != null) {
            return old;
        }
        names.put(name, new Entry(name, kind, position));
        return null;
    }

    /** The innermost declaration of {@code name}, or null. */
    Entry lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Entry e = s.names.get(name);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /** Every visible name of one of {@code kinds} (all when empty), innermost first, for "did you mean". */
    List<String> visible(Kind... kinds) {
        List<String> out = new ArrayList<>();
        for (Scope s = this; s != null; s = s.parent) {
            for (Entry e : s.names.values()) {
                if (!out.contains(e.name()) && (kinds.length == 0 || List.of(kinds).contains(e.kind()))) {
                    out.add(e.name());
                }
            }
        }
        return out;
    }
}

package dev.rmtemu.model.p4.source;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The errors a front-end phase finds, in the order it finds them; every phase keeps going
 * after an error so that a user sees all of them at once, as from a compiler. The same
 * message at the same place is kept once (a macro used twice on a line, error recovery).
 */
public final class Diagnostics {
    /** Past this many, further errors are counted but not kept (a binary file fed as P4). */
    public static final int MAX_KEPT = 200;

    private final Set<Diagnostic> kept = new LinkedHashSet<>();
    private int dropped;

    /** Records an error; a line break in the message (user text quoted in it) becomes a space, so that each error stays one line. */
    public void error(SourcePosition at, String message) {
        Diagnostic d = new Diagnostic(at, message.replace('\n', ' ').replace('\r', ' '));
        if (kept.contains(d)) {
            return;
        }
        if (kept.size() >= MAX_KEPT) {
            dropped++;
            return;
        }
        kept.add(d);
    }

    public boolean isEmpty() {
        return kept.isEmpty();
    }

    public int count() {
        return kept.size() + dropped;
    }

    /** The errors kept, in the order found. */
    public List<Diagnostic> list() {
        return new ArrayList<>(kept);
    }

    /** Errors found beyond {@link #MAX_KEPT}. */
    public int dropped() {
        return dropped;
    }
}

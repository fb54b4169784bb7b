package dev.rmtemu.model.p4.preprocess;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;

/**
 * The open #if groups of one file: whether the current line is kept, and for each group
 * whether a branch was taken already and whether #else was seen.
 */
final class ConditionalStack {
    interface Errors {
        void error(long origin, String message);
    }

    private static final class Group {
        final long origin;
        final String directive;
        final boolean parentActive;
        boolean taken;
        boolean active;
        boolean sawElse;

        Group(long origin, String directive, boolean parentActive, boolean value) {
            this.origin = origin;
            this.directive = directive;
            this.parentActive = parentActive;
            this.taken = value;
            this.active = parentActive && value;
        }
    }

    private final Deque<Group> groups = new ArrayDeque<>();

    boolean active() {
        return groups.isEmpty() || groups.peek().active;
    }

    boolean open() {
        return !groups.isEmpty();
    }

    void pushIf(long origin, String directive, boolean value) {
        groups.push(new Group(origin, directive, active(), value));
    }

    void elif(long origin, Errors errors, BooleanSupplier condition) {
        Group g = groups.peek();
        if (g.sawElse) {
            errors.error(origin, "#elif after #else");
        }
        if (!g.parentActive || g.taken) {
            g.active = false;
            return;
        }
        boolean v = condition.getAsBoolean();
        g.taken = v;
        g.active = v;
    }

    void otherwise(long origin, Errors errors) {
        Group g = groups.peek();
        if (g.sawElse) {
            errors.error(origin, "#else after #else");
        }
        g.sawElse = true;
        g.active = g.parentActive && !g.taken;
        g.taken = true;
    }

    void pop() {
        groups.pop();
    }

    /** Reports each group left open at the end of its file. */
    void unterminated(Errors errors) {
        while (!groups.isEmpty()) {
            Group g = groups.pop();
            errors.error(g.origin, "unterminated " + g.directive + " (no #endif before the end of the file)");
        }
    }
}

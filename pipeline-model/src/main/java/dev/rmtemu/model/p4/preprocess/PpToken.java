package dev.rmtemu.model.p4.preprocess;

import java.util.Set;

/**
 * A preprocessing token. {@code origin} is the packed place (SourceFiles.pack) of its first
 * character; {@code fromSource} says its text stands in the file at that place (so each
 * character maps one to one), false for a token a macro's body or a paste produced, whose
 * characters all map to the macro's use. {@code hideSet} holds the macros whose expansion
 * produced it and that may not expand it again (the C standard's rescanning rule).
 */
record PpToken(Kind kind, String text, long origin, boolean fromSource, boolean spaceBefore, Set<String> hideSet) {
    enum Kind { IDENTIFIER, NUMBER, STRING, PUNCTUATOR, OTHER }

    boolean is(String s) {
        return (kind == Kind.PUNCTUATOR || kind == Kind.OTHER) && text.equals(s);
    }

    PpToken withSpace(boolean space) {
        return new PpToken(kind, text, origin, fromSource, space, hideSet);
    }

    PpToken at(long newOrigin) {
        return new PpToken(kind, text, newOrigin, false, spaceBefore, hideSet);
    }

    PpToken withHideSet(Set<String> hs) {
        return new PpToken(kind, text, origin, fromSource, spaceBefore, hs);
    }
}

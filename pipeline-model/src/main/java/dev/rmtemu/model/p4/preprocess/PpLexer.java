package dev.rmtemu.model.p4.preprocess;

import dev.rmtemu.model.p4.source.SourceFiles;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a logical line into preprocessing tokens. Numbers are P4's ({@code 8w0x0800}: a
 * digit then letters, digits and '_', no '.', so that {@code 1..5} stays a range).
 * Punctuators are the ones the preprocessor's own expressions need, longest first; the
 * rest are single characters, and the text between tokens is kept as a space flag only.
 */
final class PpLexer {
    private static final String[] PUNCTUATORS = {
        "...", "&&&", "|+|", "|-|", "##", "&&", "||", "<<", ">>", "<=", ">=", "==", "!=", "..", "++"
    };

    private PpLexer() {
    }

    /** Tokens of {@code line}; origins in file {@code fileId} with {@code lineDelta} added (from #line). */
    static List<PpToken> tokens(LogicalLine line, int fileId, int lineDelta) {
        String s = line.text();
        List<PpToken> out = new ArrayList<>();
        int i = 0;
        boolean space = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\f' || c == '\u000B') {
                space = true;
                i++;
                continue;
            }
            int end = end(s, i);
            long origin = SourceFiles.pack(fileId, line.lines()[i] + lineDelta, line.columns()[i]);
            out.add(new PpToken(kind(s, i), s.substring(i, end), origin, true, space, Set.of()));
            space = false;
            i = end;
        }
        return out;
    }

    /** Tokens of a text that is not in any file (a paste, a -D option); all at {@code origin}. */
    static List<PpToken> tokens(String s, long origin) {
        List<PpToken> out = new ArrayList<>();
        int i = 0;
        boolean space = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                space = true;
                i++;
                continue;
            }
            int end = end(s, i);
            out.add(new PpToken(kind(s, i), s.substring(i, end), origin, false, space, Set.of()));
            space = false;
            i = end;
        }
        return out;
    }

    private static PpToken.Kind kind(String s, int i) {
        char c = s.charAt(i);
        if (identifierStart(c)) {
            return PpToken.Kind.IDENTIFIER;
        }
        if (c >= '0' && c <= '9') {
            return PpToken.Kind.NUMBER;
        }
        if (c == '"') {
            return PpToken.Kind.STRING;
        }
        return c < 128 ? PpToken.Kind.PUNCTUATOR : PpToken.Kind.OTHER;
    }

    private static int end(String s, int i) {
        char c = s.charAt(i);
        int n = s.length();
        if (identifierStart(c) || (c >= '0' && c <= '9')) {
            int j = i + 1;
            while (j < n && identifierPart(s.charAt(j))) {
                j++;
            }
            return j;
        }
        if (c == '"') {
            int j = i + 1;
            while (j < n) {
                char d = s.charAt(j);
                if (d == '\\' && j + 1 < n) {
                    j += 2;
                    continue;
                }
                j++;
                if (d == '"') {
                    break;
                }
            }
            return j;
        }
        for (String p : PUNCTUATORS) {
            if (s.startsWith(p, i)) {
                return i + p.length();
            }
        }
        return i + Character.charCount(s.codePointAt(i));
    }

    static boolean identifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean identifierPart(char c) {
        return identifierStart(c) || (c >= '0' && c <= '9');
    }
}

package dev.rmtemu.model.p4.preprocess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a file's text into logical lines (translation phases 1-3 of the C preprocessor as P4
 * uses it): line splices removed, each comment replaced by one space. A block comment that
 * spans lines joins them into one logical line; every character keeps its physical place.
 */
final class LineReader {
    private final String text;
    private final List<LogicalLine> out = new ArrayList<>();
    private StringBuilder buf = new StringBuilder();
    private int[] lines = new int[64];
    private int[] columns = new int[64];
    private int line = 1;
    private int column = 1;
    private int lineStart = 1;
    /** Physical line and column of an unterminated block comment, or 0. */
    private int unterminatedLine;
    private int unterminatedColumn;

    private LineReader(String text) {
        this.text = text;
    }

    static LineReader read(String text) {
        LineReader r = new LineReader(text);
        r.run();
        return r;
    }

    List<LogicalLine> lines() {
        return out;
    }

    int unterminatedCommentLine() {
        return unterminatedLine;
    }

    int unterminatedCommentColumn() {
        return unterminatedColumn;
    }

    private void run() {
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\\' && continuation(i + 1) > 0) {
                i += 1 + continuation(i + 1);
                newPhysicalLine();
            } else if (c == '\r') {
                i++;
            } else if (c == '\n') {
                endLogical();
                i++;
                newPhysicalLine();
                lineStart = line;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                append(' ');
                int startLine = line;
                int startColumn = column;
                i += 2;
                column += 2;
                boolean closed = false;
                while (i < n) {
                    if (text.charAt(i) == '*' && i + 1 < n && text.charAt(i + 1) == '/') {
                        i += 2;
                        column += 2;
                        closed = true;
                        break;
                    }
                    if (text.charAt(i) == '\n') {
                        newPhysicalLine();
                    } else {
                        column++;
                    }
                    i++;
                }
                if (!closed && unterminatedLine == 0) {
                    unterminatedLine = startLine;
                    unterminatedColumn = startColumn;
                }
            } else if (c == '"') {
                i = quoted(i);
            } else {
                append(c);
                column++;
                i++;
            }
        }
        if (buf.length() > 0) {
            endLogical();
        }
    }

    /** A string literal copied as it is; it ends at its closing quote or at the end of the line. */
    private int quoted(int i) {
        append('"');
        column++;
        i++;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return i;
            }
            if (c == '\\' && i + 1 < text.length() && text.charAt(i + 1) != '\n' && text.charAt(i + 1) != '\r') {
                append(c);
                column++;
                append(text.charAt(i + 1));
                column++;
                i += 2;
                continue;
            }
            append(c);
            column++;
            i++;
            if (c == '"') {
                return i;
            }
        }
        return i;
    }

    /** Length of the line break at {@code i} (1 for \n, 2 for \r\n), or 0. */
    private int continuation(int i) {
        if (i < text.length() && text.charAt(i) == '\n') {
            return 1;
        }
        if (i + 1 < text.length() && text.charAt(i) == '\r' && text.charAt(i + 1) == '\n') {
            return 2;
        }
        return 0;
    }

    private void newPhysicalLine() {
        line++;
        column = 1;
    }

    private void append(char c) {
        int k = buf.length();
        if (k == lines.length) {
            lines = Arrays.copyOf(lines, k * 2);
            columns = Arrays.copyOf(columns, k * 2);
        }
        lines[k] = line;
        columns[k] = column;
        buf.append(c);
    }

    private void endLogical() {
        int k = buf.length();
        out.add(new LogicalLine(buf.toString(), Arrays.copyOf(lines, k), Arrays.copyOf(columns, k), lineStart));
        buf = new StringBuilder();
    }
}

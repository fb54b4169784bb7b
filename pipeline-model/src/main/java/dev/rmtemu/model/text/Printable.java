package dev.rmtemu.model.text;

/**
 * Text from a file made safe to print on one terminal line: control and format characters
 * (terminal escapes, newlines, bidirectional overrides) become visible escapes, and a long
 * text is cut, so an input can neither drive the terminal nor flood it.
 */
public final class Printable {
    private Printable() {
    }

    /**
     * {@code text} with backslash, control and format characters escaped ({@code \n},
     * {@code \r}, {@code \t}, {@code \\}, else {@code \}{@code uXXXX}), cut after {@code max}
     * characters of the original with "... (N characters)" appended.
     */
    public static String escape(String text, int max) {
        int shown = Math.min(text.length(), max);
        StringBuilder sb = new StringBuilder(shown + 16);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\\' -> sb.append("\\\\");
                default -> {
                    int type = Character.getType(c);
                    if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                            || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE && !pairAt(text, i)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        if (shown < text.length()) {
            sb.append("... (").append(text.length()).append(" characters)");
        }
        return sb.toString();
    }

    /** Whether the surrogate at {@code i} is half of a well-formed pair. */
    private static boolean pairAt(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}

package dev.rmtemu.model.p4.preprocess;

import java.util.List;

/**
 * The integer constant expression of {@code #if} and {@code #elif}, after {@code defined}
 * and macro replacement: C's operators and precedence on 64-bit signed values; an
 * identifier left over is 0 ({@code true} is 1).
 */
final class ConditionEvaluator {
    /** Why an expression has no value; the preprocessor reports it at the directive. */
    static final class Malformed extends Exception {
        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    private final List<PpToken> tokens;
    private int pos;

    private ConditionEvaluator(List<PpToken> tokens) {
        this.tokens = tokens;
    }

    static long evaluate(List<PpToken> tokens) throws Malformed {
        if (tokens.isEmpty()) {
            throw new Malformed("#if with no expression");
        }
        ConditionEvaluator e = new ConditionEvaluator(tokens);
        long v = e.conditional();
        if (e.pos < tokens.size()) {
            throw new Malformed("unexpected '" + tokens.get(e.pos).text() + "' in #if expression");
        }
        return v;
    }

    private boolean at(String s) {
        return pos < tokens.size() && tokens.get(pos).is(s);
    }

    private boolean accept(String s) {
        if (at(s)) {
            pos++;
            return true;
        }
        return false;
    }

    private long conditional() throws Malformed {
        long c = binary(0);
        if (accept("?")) {
            long a = conditional();
            if (!accept(":")) {
                throw new Malformed("expected ':' in #if expression");
            }
            long b = conditional();
            return c != 0 ? a : b;
        }
        return c;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}
    };

    private long binary(int level) throws Malformed {
        if (level == LEVELS.length) {
            return unary();
        }
        long left = binary(level + 1);
        while (true) {
            String op = null;
            for (String o : LEVELS[level]) {
                if (at(o)) {
                    op = o;
                    break;
                }
            }
            if (op == null) {
                return left;
            }
            pos++;
            long right = binary(level + 1);
            left = apply(op, left, right);
        }
    }

    private static long apply(String op, long a, long b) throws Malformed {
        switch (op) {
            case "||": return (a != 0 || b != 0) ? 1 : 0;
            case "&&": return (a != 0 && b != 0) ? 1 : 0;
            case "|": return a | b;
            case "^": return a ^ b;
            case "&": return a & b;
            case "==": return a == b ? 1 : 0;
            case "!=": return a != b ? 1 : 0;
            case "<": return a < b ? 1 : 0;
            case ">": return a > b ? 1 : 0;
            case "<=": return a <= b ? 1 : 0;
            case ">=": return a >= b ? 1 : 0;
            case "<<": return b < 0 || b > 63 ? 0 : a << b;
            case ">>": return b < 0 || b > 63 ? (a < 0 ? -1 : 0) : a >> b;
            case "+": return a + b;
            case "-": return a - b;
            case "*": return a * b;
            case "/":
                if (b == 0) {
                    throw new Malformed("division by zero in #if expression");
                }
                return a / b;
            default:
                if (b == 0) {
                    throw new Malformed("division by zero in #if expression");
                }
                return a % b;
        }
    }

    /** Deepest nesting of parentheses and prefix operators (each is a recursion). */
    static final int MAX_DEPTH = 256;

    private int depth;

    private long unary() throws Malformed {
        if (++depth > MAX_DEPTH) {
            throw new Malformed("#if expression nested deeper than " + MAX_DEPTH);
        }
        try {
            return prefixed();
        } finally {
            depth--;
        }
    }

    private long prefixed() throws Malformed {
        if (accept("!")) {
            return unary() == 0 ? 1 : 0;
        }
        if (accept("~")) {
            return ~unary();
        }
        if (accept("-")) {
            return -unary();
        }
        if (accept("+")) {
            return unary();
        }
        if (accept("(")) {
            long v = conditional();
            if (!accept(")")) {
                throw new Malformed("expected ')' in #if expression");
            }
            return v;
        }
        if (pos >= tokens.size()) {
            throw new Malformed("#if expression ends early");
        }
        PpToken t = tokens.get(pos++);
        switch (t.kind()) {
            case NUMBER:
                return number(t.text());
            case IDENTIFIER:
                return t.text().equals("true") ? 1 : 0;
            default:
                throw new Malformed("unexpected '" + t.text() + "' in #if expression");
        }
    }

    static long number(String text) throws Malformed {
        String s = text;
        while (!s.isEmpty() && "uUlL".indexOf(s.charAt(s.length() - 1)) >= 0) {
            s = s.substring(0, s.length() - 1);
        }
        int radix = 10;
        if (s.length() > 2 && (s.startsWith("0x") || s.startsWith("0X"))) {
            radix = 16;
            s = s.substring(2);
        } else if (s.length() > 2 && (s.startsWith("0b") || s.startsWith("0B"))) {
            radix = 2;
            s = s.substring(2);
        } else if (s.length() > 1 && s.startsWith("0")) {
            radix = 8;
            s = s.substring(1);
        }
        try {
            return Long.parseUnsignedLong(s, radix);
        } catch (NumberFormatException e) {
            throw new Malformed("'" + text + "' is not an integer the preprocessor can read");
        }
    }
}

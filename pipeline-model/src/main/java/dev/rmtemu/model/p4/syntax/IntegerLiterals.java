package dev.rmtemu.model.p4.syntax;

import java.math.BigInteger;

/**
 * P4 integer literals at any precision: an optional width and signedness ({@code 8w},
 * {@code 4s}), an optional base ({@code 0x}, {@code 0o}, {@code 0b}, {@code 0d}; decimal
 * without), digits with {@code _} separators.
 */
public final class IntegerLiterals {
    /** Widest literal accepted ({@code 65536w0}); wider is a typo, not a type. */
    public static final int MAX_WIDTH = 1 << 16;

    private IntegerLiterals() {
    }

    /** A literal's value, width (null when unsized) and sign; {@code error} not null when it is malformed. */
    public record Parsed(BigInteger value, Integer width, boolean signed, String error) {
    }

    public static Parsed parse(String text) {
        Integer width = null;
        boolean signed = false;
        String rest = text;
        int k = 0;
        while (k < text.length() && (Character.isDigit(text.charAt(k)) || text.charAt(k) == '_')) {
            k++;
        }
        if (k > 0 && k < text.length() && (text.charAt(k) == 'w' || text.charAt(k) == 's')) {
            String w = text.substring(0, k).replace("_", "");
            signed = text.charAt(k) == 's';
            rest = text.substring(k + 1);
            BigInteger wv = new BigInteger(w);
            if (wv.compareTo(BigInteger.valueOf(MAX_WIDTH)) > 0) {
                return new Parsed(BigInteger.ZERO, null, signed, "integer width " + w + " is wider than " + MAX_WIDTH + " bits");
            }
            width = wv.intValue();
            if (width == 0 || (signed && width < 2)) {
                return new Parsed(BigInteger.ZERO, width, signed, "a " + (signed ? "signed" : "") + " integer of width " + width
                        + " is not allowed in '" + text + "'");
            }
        }
        int radix = 10;
        if (rest.length() >= 2 && rest.charAt(0) == '0') {
            switch (Character.toLowerCase(rest.charAt(1))) {
                case 'x' -> radix = 16;
                case 'o' -> radix = 8;
                case 'b' -> radix = 2;
                case 'd' -> radix = 10;
                default -> radix = 0;
            }
            if (radix != 0) {
                rest = rest.substring(2);
            } else {
                radix = 10;
            }
        }
        String digits = rest.replace("_", "");
        if (digits.isEmpty() || rest.startsWith("_") && radix == 10 && width == null) {
            return new Parsed(BigInteger.ZERO, width, signed, "malformed integer literal '" + text + "'");
        }
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                return new Parsed(BigInteger.ZERO, width, signed, "malformed integer literal '" + text + "': '" + digits.charAt(i)
                        + "' is not a base-" + radix + " digit");
            }
        }
        return new Parsed(new BigInteger(digits, radix), width, signed, null);
    }
}

package dev.rmtemu.emulator.run;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.text.ClosestName;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The text side of a control file: its lines as strict UTF-8 (a byte-order mark
 * skipped, bad bytes reported with their line), unsigned values of any width,
 * and user tokens cut short in messages so a 10 MB word is never echoed whole.
 */
final class ControlText {
    /** Longest user token echoed in a message. */
    static final int MAX_TOKEN_ECHO = 60;
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    /** Digits beyond which no register word (at most 64 bits) can hold the value: not parsed at all. */
    private static final int MAX_VALUE_DIGITS = 64;

    private ControlText() {
    }

    /** The file's lines; not UTF-8 is {@code FILE:LINE: not UTF-8 text}. */
    static List<String> lines(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UserError("control file " + file + (Files.exists(file) ? " is not a regular file" : " does not exist"));
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UserError("cannot read control file " + file + ": " + e.getMessage(), e);
        }
        return lines(bytes, file.toString());
    }

    static List<String> lines(byte[] bytes, String source) {
        int start = startsWithBom(bytes) ? BOM.length : 0;
        List<String> lines = new ArrayList<>();
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        // '\n' never occurs inside a multi-byte UTF-8 sequence, so lines can be decoded one by one
        for (int i = start; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                int end = i > start && bytes[i - 1] == '\r' ? i - 1 : i;
                try {
                    lines.add(decoder.decode(ByteBuffer.wrap(bytes, start, end - start)).toString());
                } catch (CharacterCodingException e) {
                    throw new UserError(source + ":" + (lines.size() + 1) + ": not UTF-8 text");
                }
                start = i + 1;
            }
        }
        return lines;
    }

    private static boolean startsWithBom(byte[] b) {
        return b.length >= BOM.length && b[0] == BOM[0] && b[1] == BOM[1] && b[2] == BOM[2];
    }

    /** A non-negative decimal or 0x-hex integer of any width, or a dotted IPv4 address; null if it is none. */
    static BigInteger unsigned(String w) {
        try {
            if (w.chars().filter(ch -> ch == '.').count() == 3) {
                return BigInteger.valueOf(ControlScript.number(w));
            }
            boolean hex = w.startsWith("0x") || w.startsWith("0X");
            String digits = hex ? w.substring(2) : w;
            if (digits.isEmpty() || digits.length() > MAX_VALUE_DIGITS || digits.startsWith("-") || digits.startsWith("+")) {
                return null;
            }
            return new BigInteger(digits, hex ? 16 : 10);
        } catch (NumberFormatException | UserError e) {
            return null;
        }
    }

    /** {@code message} with every run of characters other than blanks and quotes longer than {@link #MAX_TOKEN_ECHO} cut short. */
    static String cutTokens(String message) {
        return LONG_RUN.matcher(message).replaceAll(m -> Matcher.quoteReplacement(
                ClosestName.cut(m.group(), MAX_TOKEN_ECHO)));
    }

    private static final Pattern LONG_RUN = Pattern.compile("[^\\s']{" + (MAX_TOKEN_ECHO + 1) + ",}");
}

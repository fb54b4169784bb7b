package dev.rmtemu.emulator.run;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.text.ClosestName;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.ByteArrayOutputStream;
import java.nio.charset.CharsetDecoder;

/**
 * The text side of a control file: its lines as strict UTF-8 (a byte-order mark
 * skipped, bad bytes reported with their line), and user tokens cut short in messages so a 10 MB word is never echoed whole.
 */
final class ControlText {
    /** Longest user token echoed in a message. */
    static final int MAX_TOKEN_ECHO = 60;
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private ControlText() {
    }

    /** Bytes read from the control file at a time. */
    private static final int READ_CHUNK = 1 << 16;

    /** Receives the lines of a control file, one at a time. */
    @FunctionalInterface
    interface LineHandler {
        /** {@code number} counts from 1. */
        void line(int number, String text);
    }

    /**
     * Streams the file's lines to {@code handler} in order, holding one line at a time (a
     * 70 MB control file peaked at 2.7 GB RSS when it was read whole); not UTF-8 is
     * {@code FILE:LINE: not UTF-8 text}. A '\n' never occurs inside a multi-byte UTF-8
     * sequence, so each line is decoded on its own, strictly.
     */
    static void forEachLine(Path file, LineHandler handler) {
        if (!Files.isRegularFile(file)) {
            throw new UserError("control file " + file + (Files.exists(file) ? " is not a regular file" : " does not exist"));
        }
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        byte[] chunk = new byte[READ_CHUNK];
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        int number = 0;
        boolean first = true;
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.readNBytes(chunk, 0, chunk.length)) > 0) {
                int from = 0;
                if (first) {
                    first = false;
                    if (n >= BOM.length && chunk[0] == BOM[0] && chunk[1] == BOM[1] && chunk[2] == BOM[2]) {
                        from = BOM.length;
                    }
                }
                for (int i = from; i < n; i++) {
                    if (chunk[i] == '\n') {
                        line.write(chunk, from, i - from);
                        handler.line(++number, decode(decoder, line, file, number));
                        line.reset();
                        from = i + 1;
                    }
                }
                line.write(chunk, from, n - from);
            }
        } catch (IOException e) {
            throw new UserError("cannot read control file " + file + ": " + e.getMessage(), e);
        }
        // the text after the last newline is a line too (possibly empty, as a split would give)
        handler.line(++number, decode(decoder, line, file, number));
    }

    private static String decode(CharsetDecoder decoder, ByteArrayOutputStream line, Path file,
                                 int number) {
        byte[] b = line.toByteArray();
        int end = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
        try {
            return decoder.decode(ByteBuffer.wrap(b, 0, end)).toString();
        } catch (CharacterCodingException e) {
            throw new UserError(file + ":" + number + ": not UTF-8 text");
        }
    }

    private static boolean startsWithBom(byte[] b) {
        return b.length >= BOM.length && b[0] == BOM[0] && b[1] == BOM[1] && b[2] == BOM[2];
    }

    /** {@code message} with every run of characters other than blanks and quotes longer than {@link #MAX_TOKEN_ECHO} cut short. */
    static String cutTokens(String message) {
        return LONG_RUN.matcher(message).replaceAll(m -> Matcher.quoteReplacement(
                ClosestName.cut(m.group(), MAX_TOKEN_ECHO)));
    }

    private static final Pattern LONG_RUN = Pattern.compile("[^\\s']{" + (MAX_TOKEN_ECHO + 1) + ",}");
}

package dev.rmtemu.emulator.output;

import java.net.URLDecoder;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;

/**
 * A run's register arrays as it left them, one file per array in {@value #DIR}/ of the run
 * directory (listed in its manifest, so a rerun removes them), read back by
 * {@code rmtemu registers}.
 *
 * <p>File {@code registers/ARRAY.bin.gz} (a network run: {@code registers/SWITCH/ARRAY.bin.gz}
 * for each switch whose program has arrays; names as {@link #pathPart}): java.util.zip GZIP (whose header has no time stamp,
 * so equal cells give equal bytes) of, big-endian:
 * <pre>
 *   8 bytes  magic "RMTREG01"
 *   UTF      array name (Java modified UTF-8: u16 length, bytes)
 *   UTF      gress ("ingress" or "egress")
 *   int32    stage
 *   int32    word bits (1..64)
 *   byte     1 for a lo/hi pair array, else 0
 *   int32    cells
 *   int32    pipes
 *   per pipe 0..pipes-1: cells int64 lo words, then (pair arrays) cells int64 hi words
 * </pre>
 * and nothing after. Words are unsigned (a 64-bit word may have its top bit set).
 */
public final class SavedRegisters {
    /** Subdirectory of the run directory holding the files. */
    public static final String DIR = "registers";
    public static final String SUFFIX = ".bin.gz";
    static final byte[] MAGIC = "RMTREG01".getBytes(StandardCharsets.US_ASCII);

    /**
     * Uncompressed size (all arrays, pipes and words) up to which the arrays are always saved;
     * above it only with {@code replay --save-registers}, so a run with huge sketches does not
     * spend its end compressing gigabytes nobody asked for.
     */
    public static final long ALWAYS_SAVE_BYTES = 64L << 20;

    private static final int BUFFER = 1 << 16;

    private SavedRegisters() {
    }

    /** Manifest name of an array's file in a single-switch run. */
    public static String fileName(String array) {
        return DIR + "/" + pathPart(array) + SUFFIX;
    }

    /** Manifest name of an array's file: {@code switchName} null in a single-switch run, else that switch's folder. */
    public static String fileName(String switchName, String array) {
        return switchName == null ? fileName(array) : DIR + "/" + pathPart(switchName) + "/" + pathPart(array) + SUFFIX;
    }

    /**
     * A name as one path part: letters, digits, '_', '-' and '.' stay, every other UTF-8 byte
     * becomes %XX (as in a URL), and so does every '.' of a name made only of dots, so no array
     * or switch name can leave its folder. {@link #nameOf} reverses it.
     */
    static String pathPart(String name) {
        boolean onlyDots = !name.isEmpty() && name.chars().allMatch(c -> c == '.');
        StringBuilder sb = new StringBuilder(name.length());
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
                    || c == '-' || (c == '.' && !onlyDots);
            if (safe) {
                sb.append((char) c);
            } else {
                sb.append('%').append(String.format(Locale.ROOT, "%02X", c));
            }
        }
        return sb.toString();
    }

    /** The name a {@link #pathPart} stands for. */
    public static String nameOf(String pathPart) {
        return URLDecoder.decode(pathPart, StandardCharsets.UTF_8);
    }

    /** Bytes of every array's words in every pipe, uncompressed (8 per word). */
    public static long uncompressedBytes(PipelineState state) {
        long words = 0;
        for (RegisterArray a : state.program().registers()) {
            words += (long) a.size() * (a.pair() ? 2 : 1);
        }
        return words * Long.BYTES * state.pipes();
    }

    /** Whether a run whose arrays take {@code bytes} uncompressed saves them: small ones always, large ones when asked. */
    public static boolean saves(long bytes, boolean asked, long alwaysSaveBytes) {
        return asked || bytes <= alwaysSaveBytes;
    }

    /** The warning printed when the arrays are too large to be saved without being asked, else empty. */
    public static Optional<String> notSavedWarning(long bytes, boolean asked, long alwaysSaveBytes) {
        if (saves(bytes, asked, alwaysSaveBytes)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT,
                "register arrays not saved: %.1f MiB uncompressed is over %d MiB; add --save-registers to keep them"
                        + " for 'rmtemu registers'", bytes / (double) (1 << 20), alwaysSaveBytes >> 20));
    }

    /** The manifest names of the files {@link #write} writes ({@code switchName} as in {@link #fileName(String, String)}). */
    public static List<String> names(PipelineState state, String switchName) {
        List<String> names = new ArrayList<>();
        for (RegisterArray a : state.program().registers()) {
            names.add(fileName(switchName, a.name()));
        }
        return names;
    }

    /** Writes every array of {@code state} into {@code rd} (plan {@link #names} first). */
    public static void write(PipelineState state, String switchName, RunDirectory rd) {
        for (RegisterArray a : state.program().registers()) {
            rd.write(fileName(switchName, a.name()), f -> {
                try (OutputStream os = Files.newOutputStream(f)) {
                    write(state, a, os);
                }
            });
        }
    }

    static void write(PipelineState state, RegisterArray a, OutputStream os) throws IOException {
        GZIPOutputStream gz = new GZIPOutputStream(os, BUFFER);
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(gz, BUFFER));
        out.write(MAGIC);
        out.writeUTF(a.name());
        out.writeUTF(a.gress().label());
        out.writeInt(a.stage());
        out.writeInt(a.wordBits());
        out.writeByte(a.pair() ? 1 : 0);
        out.writeInt(a.size());
        out.writeInt(state.pipes());
        for (int p = 0; p < state.pipes(); p++) {
            for (long w : state.snapshot(p, a.name())) {
                out.writeLong(w);
            }
            if (a.pair()) {
                for (long w : state.snapshotHi(p, a.name())) {
                    out.writeLong(w);
                }
            }
        }
        out.flush();
        gz.finish();
    }

    /** What a file says about its array. */
    public record Header(String name, String gress, int stage, int wordBits, boolean pair, int cells, int pipes) {
    }

    /**
     * Cells {@code from} (inclusive) to {@code to} (exclusive) of one pipe. {@code hi} is null
     * for an array that is not a pair.
     */
    public record Cells(Header header, int pipe, int from, int to, long[] lo, long[] hi) {
    }

    /** The header of a saved file (the whole file is read, so damage anywhere is found). */
    public static Header header(Path file) {
        return read(file, null, 0, null).header();
    }

    /**
     * Reads one pipe's cells in {@code [from, to)} of {@code file}; {@code range} null means every
     * cell. Refuses (one line naming the input) a pipe or range outside the array and a damaged file.
     * The whole file is read, so its GZIP checksum is checked.
     */
    public static Cells read(Path file, String expectedName, int pipe, int[] range) {
        try (InputStream in = Files.newInputStream(file)) {
            DataInputStream d = new DataInputStream(new BufferedInputStream(new GZIPInputStream(
                    new BufferedInputStream(in, BUFFER), BUFFER), BUFFER));
            Header h = readHeader(file, d, expectedName);
            if (pipe < 0 || pipe >= h.pipes()) {
                throw new UserError("registers: --pipe " + pipe + " is out of range: array '" + h.name()
                        + "' has " + h.pipes() + " pipe" + (h.pipes() == 1 ? "" : "s") + " (0 to " + (h.pipes() - 1) + ")");
            }
            int from = range == null ? 0 : range[0];
            int to = range == null ? h.cells() : range[1];
            if (to > h.cells()) {
                throw new UserError("registers: --range " + from + ":" + to + " is out of range: array '" + h.name()
                        + "' has " + h.cells() + " cells (ranges are half-open, at most 0:" + h.cells() + ")");
            }
            long[] lo = new long[to - from];
            long[] hi = h.pair() ? new long[to - from] : null;
            for (int p = 0; p < h.pipes(); p++) {
                readWords(file, d, h, p == pipe ? lo : null, from, to);
                if (h.pair()) {
                    readWords(file, d, h, p == pipe ? hi : null, from, to);
                }
            }
            if (d.read() != -1) {
                throw corrupt(file, "data after the last pipe's cells");
            }
            return new Cells(h, pipe, from, to, lo, hi);
        } catch (EOFException e) {
            throw corrupt(file, "truncated");
        } catch (ZipException e) {
            throw corrupt(file, "not GZIP data or damaged (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UserError("registers: cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Header readHeader(Path file, DataInputStream d, String expectedName) throws IOException {
        byte[] magic = new byte[MAGIC.length];
        d.readFully(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw corrupt(file, "not a saved register array (bad magic)");
        }
        String name = d.readUTF();
        if (expectedName != null && !name.equals(expectedName)) {
            throw corrupt(file, "holds array '" + name + "', not '" + expectedName + "'");
        }
        String gress = d.readUTF();
        if (!gress.equals("ingress") && !gress.equals("egress")) {
            throw corrupt(file, "gress '" + gress + "'");
        }
        int stage = d.readInt();
        int wordBits = d.readInt();
        int pair = d.readByte();
        int cells = d.readInt();
        int pipes = d.readInt();
        if (stage < 0 || wordBits < 1 || wordBits > Long.SIZE || (pair != 0 && pair != 1) || cells < 0 || pipes < 1) {
            throw corrupt(file, "header out of range (stage " + stage + ", word bits " + wordBits + ", pair " + pair
                    + ", cells " + cells + ", pipes " + pipes + ")");
        }
        return new Header(name, gress, stage, wordBits, pair == 1, cells, pipes);
    }

    /**
     * Reads one pipe's words of one kind (lo or hi), keeping those in {@code [from, to)} in
     * {@code into} when it is not null; a word wider than the array's words is damage.
     */
    private static void readWords(Path file, DataInputStream d, Header h, long[] into, int from, int to)
            throws IOException {
        long outside = h.wordBits() == Long.SIZE ? 0 : -1L << h.wordBits();
        for (int i = 0; i < h.cells(); i++) {
            long w = d.readLong();
            if ((w & outside) != 0) {
                throw corrupt(file, "cell " + i + " holds " + Long.toUnsignedString(w) + ", wider than "
                        + h.wordBits() + " bits");
            }
            if (into != null && i >= from && i < to) {
                into[i - from] = w;
            }
        }
    }

    private static UserError corrupt(Path file, String why) {
        return new UserError("registers: " + file + ": corrupt: " + why);
    }
}

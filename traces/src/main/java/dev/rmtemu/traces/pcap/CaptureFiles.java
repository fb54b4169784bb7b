package dev.rmtemu.traces.pcap;

import java.nio.ByteBuffer;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.TraceFormatException;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Opens a capture as the right reader by its magic number (never by its extension). */
public final class CaptureFiles {
    private CaptureFiles() {
    }

    /** The capture formats told apart by magic number. */
    public enum Format { PCAP, PCAPNG }

    /** Format of a file by its first four bytes, or null when it is neither pcap nor pcapng. */
    public static Format sniff(Path file) {
        byte[] head = new byte[4];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer bb = ByteBuffer.wrap(head);
            while (bb.hasRemaining() && ch.read(bb) > 0) {
                // fill the four magic bytes
            }
            if (bb.hasRemaining()) {
                return null;
            }
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + e.getMessage(), e);
        }
        return sniff(ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN).getInt());
    }

    static Format sniff(int magicBigEndian) {
        int swapped = Integer.reverseBytes(magicBigEndian);
        if (magicBigEndian == PcapngReader.BLOCK_SHB) {
            return Format.PCAPNG;
        }
        if (magicBigEndian == PcapReader.MAGIC_MICROS || magicBigEndian == PcapReader.MAGIC_NANOS
                || swapped == PcapReader.MAGIC_MICROS || swapped == PcapReader.MAGIC_NANOS) {
            return Format.PCAP;
        }
        return null;
    }

    /** Opens a pcap or pcapng file; {@code lenient} stops cleanly at a corrupt tail. */
    public static CaptureReader open(Path file, boolean lenient) {
        if (!Files.isRegularFile(file)) {
            // a FIFO or a device (/dev/zero) would be read forever or block: only files are captures
            throw new UserError(file + (Files.exists(file) ? ": not a regular file" : ": no such capture file"));
        }
        try {
            return open(file.toString(), FileChannel.open(file, StandardOpenOption.READ), lenient,
                    ByteWindow.DEFAULT_CAPACITY);
        } catch (IOException e) {
            throw new UserError(file + ": cannot open: " + e.getMessage(), e);
        }
    }

    /**
     * Opens a capture from any channel (tests use in-memory channels); {@code name} is
     * what error messages call it; {@code windowBytes} is the initial read window (it
     * grows as far as the largest loadable block). The channel is closed on error and
     * by the reader.
     */
    public static CaptureReader open(String name, ReadableByteChannel channel, boolean lenient, int windowBytes) {
        ByteWindow in = new ByteWindow(name, channel, windowBytes,
                Math.max(windowBytes, PcapngReader.MAX_LOADED_BLOCK));
        try {
            if (!in.ensure(4)) {
                throw new TraceFormatException(name, 0, "file too short for a capture header");
            }
            Format f = sniff(in.buffer().getInt(in.pos(), ByteOrder.BIG_ENDIAN));
            if (f == null) {
                throw new TraceFormatException(name, 0, "not a pcap or pcapng file");
            }
            return f == Format.PCAP ? new PcapReader(name, in, lenient) : new PcapngReader(name, in, lenient);
        } catch (RuntimeException e) {
            in.close();
            throw e;
        }
    }
}

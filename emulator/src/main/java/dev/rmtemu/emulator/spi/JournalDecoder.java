package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import org.agrona.DirectBuffer;

import java.util.List;
import java.util.TreeMap;

/**
 * Reads the payload of a program's export messages back into a record (what
 * {@code rmtemu collect --json} prints instead of hex): each program that writes message
 * kinds into the journal decodes them with the same layout its collector reads. The record
 * is written by Jackson (snake_case names, numbers as numbers). A program hands its decoder
 * out through its {@link ProgramPlugin}.
 */
public interface JournalDecoder {
    /** The message kinds this decoder reads (as registered in {@link JournalKinds}). */
    List<String> kinds();

    /**
     * The message as a record. A payload whose length does not fit the kind's layout is
     * refused with a {@link BadPayload} naming what was expected.
     */
    Object decode(String kind, DirectBuffer payload, int offset, int length);

    /** A payload that does not have its kind's layout (a damaged or foreign journal). */
    final class BadPayload extends RuntimeException {
        public BadPayload(String message) {
            super(message);
        }
    }

    /** Refuses a payload of {@code length} bytes unless it is {@code expected}. */
    static void requireLength(String kind, int length, int expected) {
        if (length != expected) {
            throw new BadPayload(kind + " payload of " + length + " bytes, expected " + expected);
        }
    }

    /** Every registered decoder by kind name (sorted; a kind claimed twice is a bug). */
    static TreeMap<String, JournalDecoder> registered() {
        TreeMap<String, JournalDecoder> out = new TreeMap<>();
        for (ProgramPlugin p : ProgramPlugins.registered()) {
            JournalDecoder d = p.journalDecoder().orElse(null);
            if (d == null) {
                continue;
            }
            for (String k : d.kinds()) {
                JournalDecoder before = out.putIfAbsent(k, d);
                if (before != null) {
                    throw new IllegalStateException("journal kind " + k + " has two decoders: " + before.getClass().getName()
                            + " and " + d.getClass().getName());
                }
            }
        }
        return out;
    }
}

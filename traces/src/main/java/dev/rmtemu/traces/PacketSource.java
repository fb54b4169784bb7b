package dev.rmtemu.traces;

/**
 * A stream of packet records: a capture reader, a generator, a trace store or an
 * impairment adapter. {@link #next} fills the caller's record in place, so reading
 * a whole trace allocates nothing per packet. Sources are single-threaded and are
 * closed by their consumer.
 */
public interface PacketSource extends AutoCloseable {
    /**
     * Writes the next packet into {@code into} (all 64 bytes) and returns true, or
     * returns false at the end of the stream (then {@code into} is unspecified).
     *
     * @throws TraceFormatException on a corrupt input (unless the source is lenient)
     */
    boolean next(PacketRecord into);

    /** Frames read but not turned into records, by reason (live; grows while reading). */
    SkipCounters skipped();

    /** One line saying what this source is (file and format, generator and parameters). */
    String describe();

    /** Releases files and mappings; does not throw checked exceptions. */
    @Override
    void close();
}

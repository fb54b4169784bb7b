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

    /** Returned by {@link #knownCount()} when the count is not known before reading. */
    long UNKNOWN_COUNT = -1;

    /**
     * How many records the whole source gives, when that is known without reading it (a
     * generator's {@code packets}, a trace store's manifest), else {@link #UNKNOWN_COUNT}.
     * Used to show progress; a capture file would have to be scanned, so it says unknown.
     */
    default long knownCount() {
        return UNKNOWN_COUNT;
    }

    /**
     * For a generator that claims a link rate: how many packets queued on their link, and for
     * how long, so far (live, like {@link #skipped()}); null for every other source.
     */
    default LinkQueueing linkQueueing() {
        return null;
    }

    /** One line saying what this source is (file and format, generator and parameters). */
    String describe();

    /** Releases files and mappings; does not throw checked exceptions. */
    @Override
    void close();
}

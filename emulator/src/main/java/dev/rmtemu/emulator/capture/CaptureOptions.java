package dev.rmtemu.emulator.capture;

/**
 * What a replay records of the packets leaving its switches.
 *
 * @param capture   write capture/egress.pcapng and capture/drops.pcapng ({@code --capture})
 * @param limit     frames each capture file takes at most ({@code --capture-limit}); the rest
 *                  are counted and named in a warning
 * @param packetLog write packets.csv.gz ({@code --packet-log})
 */
public record CaptureOptions(boolean capture, long limit, boolean packetLog) {
    /** Frames per capture file when no limit is given: about 100 MB of 100-byte frames. */
    public static final long DEFAULT_LIMIT = 1_000_000;
    /** Nothing recorded. */
    public static final CaptureOptions NONE = new CaptureOptions(false, DEFAULT_LIMIT, false);

    public CaptureOptions {
        if (limit < 1) {
            throw new IllegalArgumentException("capture limit must be at least 1, got " + limit);
        }
    }

    /** Whether anything is recorded (then the engine gets a tap). */
    public boolean any() {
        return capture || packetLog;
    }
}

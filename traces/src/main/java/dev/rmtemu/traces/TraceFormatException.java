package dev.rmtemu.traces;

import dev.rmtemu.model.UserError;

/** A capture file is corrupt or truncated; the message names the file and byte offset. */
public final class TraceFormatException extends UserError {
    private final long byteOffset;

    public TraceFormatException(String file, long byteOffset, String what) {
        super(file + ": " + what + " at byte offset " + byteOffset);
        this.byteOffset = byteOffset;
    }

    /** Offset in the file of the structure that is bad. */
    public long byteOffset() {
        return byteOffset;
    }
}

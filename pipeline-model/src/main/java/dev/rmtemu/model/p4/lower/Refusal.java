package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.source.SourcePosition;

/**
 * A construct the lowering does not support (or a program error it finds), at its place in
 * the user's file: caught where the lowering can go on with the next declaration, and
 * recorded as {@code FILE:LINE:COL: message}.
 */
final class Refusal extends RuntimeException {
    private final transient SourcePosition position;

    Refusal(SourcePosition position, String message) {
        super(message, null, false, false);
        this.position = position;
    }

    SourcePosition position() {
        return position;
    }
}

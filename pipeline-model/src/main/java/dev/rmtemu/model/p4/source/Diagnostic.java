package dev.rmtemu.model.p4.source;

/** One error in a P4 program: where and what, printed as {@code FILE:LINE:COL: message}. */
public record Diagnostic(SourcePosition position, String message) {
    public String line() {
        return position + ": " + message;
    }

    @Override
    public String toString() {
        return line();
    }
}

package dev.rmtemu.model;

/**
 * An error the user can cause and fix: a bad file, a bad option, a program that
 * does not fit. The CLI prints only its message (one line) and exits with
 * {@link #exitCode()}; stack traces appear only with {@code --debug}.
 */
public class UserError extends RuntimeException {
    /** Exit code for bad input: unknown name, malformed file, bad option. */
    public static final int BAD_INPUT = 2;

    private final int exitCode;

    public UserError(String message) {
        this(message, BAD_INPUT, null);
    }

    public UserError(String message, Throwable cause) {
        this(message, BAD_INPUT, cause);
    }

    public UserError(String message, int exitCode, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}

package dev.rmtemu.model.p4.source;

/**
 * Where something is in the user's own files, after the preprocessor's line mapping:
 * the file as the user named it, 1-based line and column. Prints as {@code FILE:LINE:COL}.
 */
public record SourcePosition(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}

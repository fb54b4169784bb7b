package dev.rmtemu.model.p4.preprocess;

import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.source.SourceFiles;
import dev.rmtemu.model.p4.source.SourcePosition;

import java.util.List;

/**
 * The preprocessor's output: the text the P4 parser reads, the origin of each of its
 * characters in the user's files (through includes, macro expansions and #line), the
 * {@code #pragma} lines it passed through, and the errors it found.
 */
public final class PreprocessedSource {
    private final String text;
    private final long[] origins;
    private final SourceFiles files;
    private final List<Pragma> pragmas;
    private final Diagnostics diagnostics;
    private final long endOrigin;

    PreprocessedSource(String text, long[] origins, SourceFiles files, List<Pragma> pragmas, Diagnostics diagnostics, long endOrigin) {
        this.text = text;
        this.origins = origins;
        this.files = files;
        this.pragmas = List.copyOf(pragmas);
        this.diagnostics = diagnostics;
        this.endOrigin = endOrigin;
    }

    /** A {@code #pragma} line, its text after the word {@code pragma}. */
    public record Pragma(SourcePosition position, String text) {
    }

    public String text() {
        return text;
    }

    /** Where character {@code offset} of {@link #text()} came from; past the end, the end of the main file. */
    public SourcePosition positionAt(int offset) {
        if (offset < 0 || offset >= origins.length) {
            return files.position(endOrigin);
        }
        return files.position(origins[offset]);
    }

    public List<Pragma> pragmas() {
        return pragmas;
    }

    public Diagnostics diagnostics() {
        return diagnostics;
    }
}

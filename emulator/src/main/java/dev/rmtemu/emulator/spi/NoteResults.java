package dev.rmtemu.emulator.spi;

/**
 * A program's results when the run cannot give any (e.g. LossRadar on a single switch, which
 * has no link between meters): only the reason, as {@code {"note": "..."}} and one summary line.
 */
public record NoteResults(String note) implements ProgramResults {
    @Override
    public String render() {
        return note + "\n";
    }
}

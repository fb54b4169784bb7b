package dev.rmtemu.emulator.spi;

import java.util.List;

/**
 * A program's results after a run, as data: a Java record whose components Jackson writes
 * into report.json under {@code results.PROGRAM} (snake_case names; the record says so with
 * {@code @JsonNaming} so that it does not depend on the mapper). Every component that is a
 * list of flat row records is also a table in {@code results/PROGRAM_TABLE.csv}, derived from
 * the same JSON ({@link RunResults}), and {@link #render()} draws the terminal section from
 * the record's own values, so the three can never disagree. Values come from the emulated
 * switch (its registers or what it exported), ground truth from the run's own inputs.
 */
public interface ProgramResults {
    /** The program's section of the end-of-run summary, from this record's values only (deterministic). */
    String render();

    /**
     * What the user should know about these results: the run did something they would
     * probably not want (e.g. a key that cannot hold some of the trace's packets). {@link
     * dev.rmtemu.emulator.spi.RunWarnings} adds them to the run's warnings (stderr,
     * report.json {@code warnings}, exit 5 under {@code --strict}). Not a record component,
     * so Jackson does not write it into {@code results}.
     */
    default List<String> warnings() {
        return List.of();
    }

    /**
     * The figures of these results' tables in report.html (a table no spec names is not drawn);
     * not a record component either.
     */
    default List<PlotSpec> plots() {
        return List.of();
    }
}

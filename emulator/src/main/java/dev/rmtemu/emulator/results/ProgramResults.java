package dev.rmtemu.emulator.results;

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
}

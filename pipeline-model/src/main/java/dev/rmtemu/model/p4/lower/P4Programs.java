package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.source.SourcePosition;
import dev.rmtemu.model.program.StageProgram;

import java.nio.file.Path;
import java.util.List;

/**
 * A P4_16 TNA program file to an unplaced rmtemu program: the front end (preprocessor,
 * syntax, names), then the lowering. Every error is one {@code FILE:LINE:COL: message}
 * line; the {@link UserError} carries them all, one per line (exit 2).
 */
public final class P4Programs {
    /** The seed of TNA's {@code Random} externs when the caller gives none: rmtemu's default run seed. */
    public static final long DEFAULT_RANDOM_SEED = 1;

    private P4Programs() {
    }

    /** The outcome: the program (null when there are errors) and every error found. */
    public record Result(StageProgram program, List<Diagnostic> errors) {
        public StageProgram require() {
            if (program == null) {
                StringBuilder sb = new StringBuilder();
                for (Diagnostic d : errors) {
                    sb.append(sb.length() == 0 ? "" : "\n").append(d.line());
                }
                throw new UserError(sb.toString());
            }
            return program;
        }
    }

    public static Result file(Path file, PreprocessorOptions options) {
        return file(file, options, DEFAULT_RANDOM_SEED);
    }

    /** As {@link #file(Path, PreprocessorOptions)}, TNA's {@code Random} externs seeded from {@code randomSeed} (the run's seed). */
    public static Result file(Path file, PreprocessorOptions options, long randomSeed) {
        return lower(P4Front.file(file, options), nameOf(file.getFileName().toString()), file.toString(), randomSeed);
    }

    public static Result text(String fileName, String text, PreprocessorOptions options) {
        return text(fileName, text, options, DEFAULT_RANDOM_SEED);
    }

    /** As {@link #text(String, String, PreprocessorOptions)}, TNA's {@code Random} externs seeded from {@code randomSeed}. */
    public static Result text(String fileName, String text, PreprocessorOptions options, long randomSeed) {
        return lower(P4Front.text(fileName, text, options), nameOf(fileName), fileName, randomSeed);
    }

    /** A front end's well-formed result lowered; {@code file} names the program (its stem) and the whole-file errors. */
    public static Result lower(P4Front.Result front, Path file) {
        return lower(front, nameOf(file.getFileName().toString()), file.toString(), DEFAULT_RANDOM_SEED);
    }

    private static Result lower(P4Front.Result front, String name, String file, long randomSeed) {
        if (!front.ok()) {
            return new Result(null, front.errors());
        }
        Diagnostics d = new Diagnostics();
        StageProgram p = P4Lowering.lower(front.program(), name, new SourcePosition(file, 1, 1), d, randomSeed);
        return new Result(d.isEmpty() ? p : null, d.list());
    }

    /** The program's name: the file's name without {@code .p4}. */
    static String nameOf(String fileName) {
        return fileName.endsWith(".p4") ? fileName.substring(0, fileName.length() - 3) : fileName;
    }
}

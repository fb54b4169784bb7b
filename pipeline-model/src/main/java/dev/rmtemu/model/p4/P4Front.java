package dev.rmtemu.model.p4;

import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.names.NameResolver;
import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.preprocess.Preprocessor;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.p4.syntax.P4Syntax;

import java.nio.file.Path;
import java.util.List;

/**
 * The P4_16 front end, as far as it goes today: preprocess, parse, build the AST, resolve
 * names (when the syntax is clean). Every
 * error of every phase is collected (a compiler's behaviour), each as FILE:LINE:COL in the
 * user's own file.
 */
public final class P4Front {
    private P4Front() {
    }

    /** The AST (built as far as the input allowed) and every error, in the order found. */
    public record Result(Program program, List<Diagnostic> errors, int errorCount) {
        public boolean ok() {
            return errorCount == 0;
        }
    }

    /** A program file; an unreadable or missing file is a one-line UserError. */
    public static Result file(Path path, PreprocessorOptions options) {
        return parse(Preprocessor.file(path, options));
    }

    /** Program text not in a file (tests, fuzzing). */
    public static Result text(String name, String text, PreprocessorOptions options) {
        return parse(Preprocessor.text(name, text, null, options));
    }

    public static Result parse(PreprocessedSource source) {
        Diagnostics d = source.diagnostics();
        Program program = P4Syntax.ast(source, d);
        if (d.isEmpty()) {
            // names only in a well-formed tree: a tree with syntax errors has holes that would only add noise
            NameResolver.check(program, d);
        }
        return new Result(program, d.list(), d.count());
    }
}

package dev.rmtemu.model.p4;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.BeforeAll;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Fuzz target: P4 source, preprocessed (with rmtemu's own core.p4 and tna.p4 reachable),
 * parsed and turned into an AST; seeded with the corpus programs (their headers inlined) and
 * the preprocessor's directives. Contract: a program or a list of errors, each one line
 * {@code FILE:LINE:COL: message} with a line and column from 1; no exception, no hang.
 */
class P4SourceFuzzTest {
    static final String NAME = "fuzz.p4";
    private static final Pattern LINE = Pattern.compile("[^\\n\\r]+:[1-9][0-9]*:[1-9][0-9]*: [^\\n\\r]+");

    /**
     * The first parse builds ANTLR's prediction tables and loads the library: seconds under
     * the fuzzer's instrumentation, which its 10 s per-input limit would take for a hang.
     */
    @BeforeAll
    static void warmUp() {
        P4Front.text(NAME, "#include <tna.p4>\ncontrol C(inout bit<8> x) { apply { x = (bit<8>) (x + 1) >> 2; } }\n",
                PreprocessorOptions.defaults());
    }

    @FuzzTest(maxDuration = "10m")
    void source(byte[] input) {
        P4Front.Result r = P4Front.text(NAME, new String(input, StandardCharsets.UTF_8), PreprocessorOptions.defaults());
        for (Diagnostic d : r.errors()) {
            if (!LINE.matcher(d.line()).matches()) {
                throw new AssertionError("not a one-line FILE:LINE:COL error: " + d.line());
            }
        }
        if (r.errorCount() < r.errors().size()) {
            throw new AssertionError("error count " + r.errorCount() + " below the " + r.errors().size() + " kept");
        }
    }
}

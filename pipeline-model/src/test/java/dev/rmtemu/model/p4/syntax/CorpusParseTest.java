package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each corpus program, with rmtemu's own core.p4 and tna.p4, parses without an error into a whole AST. */
class CorpusParseTest {
    static List<String> programs() {
        return P4Corpus.PROGRAMS;
    }

    @ParameterizedTest
    @MethodSource("programs")
    void parsesWithoutErrors(String name) {
        P4Front.Result r = P4Front.file(P4Corpus.path(name), PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        List<String> names = r.program().declarations().stream().map(Declaration::name).toList();
        // the library's declarations come first, then the program's, ending in the package instance
        assertTrue(names.contains("packet_in") && names.contains("Switch") && names.contains("RegisterAction"), names.toString());
        assertEquals("main", names.get(names.size() - 1));
        assertTrue(r.program().declarations().get(names.size() - 1).position().file().endsWith(name));
    }
}

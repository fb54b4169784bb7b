package dev.rmtemu.programs.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The doc-example runner itself: it must catch a stale output, and rewrite it when asked. */
class DocExamplesHarnessTest {
    private static final String PAGE = """
            # A page

            <!-- rmtemu:file name=paths.txt -->
            ```text
            p0: l0 l1
            p1: l0 l2
            ```

            <!-- rmtemu:file name=success.txt -->
            ```text
            p0 1.0
            p1 0
            ```

            <!-- rmtemu:example id=netbouncer -->
            ```console
            $ ./rmtemu analyse netbouncer --paths paths.txt \\
                --success success.txt --json
            SHOWN
            $ ./rmtemu registers runs/none flow_count
            rmtemu: SHOWN2
            [exit 2]
            ```
            """;

    @Test
    void aStaleOutputIsAMismatchAndUpdateRewritesIt(@TempDir Path tmp) throws IOException {
        Path page = tmp.resolve("page.md");
        Files.writeString(page, PAGE, StandardCharsets.UTF_8);
        List<String> mismatches = DocExamplesTest.check(page, false);
        assertEquals(2, mismatches.size(), mismatches.toString());
        assertTrue(mismatches.get(0).startsWith("page.md example netbouncer: $ ./rmtemu analyse netbouncer --paths paths.txt"
                + " --success success.txt --json\n--- shown\nSHOWN\n--- printed\n{\"links\":"), mismatches.get(0));
        assertTrue(DocExamplesTest.check(page, true).isEmpty());
        String rewritten = Files.readString(page, StandardCharsets.UTF_8);
        // the command keeps its two lines; the outputs are what the commands print, paths relative
        assertTrue(rewritten.contains("$ ./rmtemu analyse netbouncer --paths paths.txt \\\n    --success success.txt --json\n"
                + "{\"links\":[{\"link\":\"l0\",\"success\":1.0},{\"link\":\"l1\",\"success\":1.0},{\"link\":\"l2\",\"success\":0.0}],"
                + "\"blamed\":[\"l2\"]}\n$ ./rmtemu registers runs/none flow_count\nrmtemu: registers: run directory runs/none does not exist\n"), rewritten);
        assertTrue(rewritten.contains("\n[exit 2]\n```\n"), rewritten);
        assertTrue(DocExamplesTest.check(page, false).isEmpty(), "a rewritten page matches");
    }

    @Test
    void anUnmarkedConsoleBlockIsRefused(@TempDir Path tmp) throws IOException {
        Path page = tmp.resolve("page.md");
        Files.writeString(page, "# A page\n\n```console\n$ ./rmtemu programs\n```\n", StandardCharsets.UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DocExamplesTest.check(page, false));
        assertEquals(page + ":3: a console block must be marked <!-- rmtemu:example id=... --> so a test runs it"
                + " (show a command without its output in a sh block)", e.getMessage());
    }

    @Test
    void onlyHostValuesAreNormalised() {
        assertEquals(List.of("host                         # (host)", "latency ns                   p50 276  max 392"),
                DocExamples.normalise(List.of("host                         0.081 s wall, 0.25 Mpps (host)",
                        "latency ns                   p50 276  max 392")));
        assertEquals(List.of("emulated duration            530726 ns"),
                DocExamples.normalise(List.of("emulated duration            530726 ns")));
    }

    @Test
    void commandLinesSplitAsAShellDoes() {
        assertEquals(List.of("./rmtemu", "replay", "--trace", "gen:isp?packets=10&seed=3", "a b", "c"),
                DocExamples.words("./rmtemu replay --trace 'gen:isp?packets=10&seed=3' \"a b\" c   # a comment"));
    }
}

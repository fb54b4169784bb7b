package dev.rmtemu.programs.docs;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs every marked example of README.md and docs/ (see {@link DocExamples}) and compares what
 * it prints with what the page shows, host-dependent values (wall time, host rates) aside. A
 * change that alters an output fails here until the pages are regenerated:
 * <pre>
 * mvn -B -ntp -pl programs -am test -Dtest=DocExamplesTest -Dsurefire.failIfNoSpecifiedTests=false -Drmtemu.docs.update=true
 * </pre>
 * which rewrites each example's output in place (commands and prose untouched).
 */
class DocExamplesTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final boolean UPDATE = Boolean.getBoolean("rmtemu.docs.update");

    @TestFactory
    Stream<DynamicTest> everyMarkedExampleShowsWhatItPrints() throws IOException {
        return pages().stream().map(page -> DynamicTest.dynamicTest(ROOT.relativize(page).toString(), () -> {
            List<String> mismatches = check(page, UPDATE);
            if (!mismatches.isEmpty()) {
                fail(String.join("\n\n", mismatches) + "\n\nRegenerate the pages with: mvn -B -ntp -pl programs -am test"
                        + " -Dtest=DocExamplesTest -Dsurefire.failIfNoSpecifiedTests=false -Drmtemu.docs.update=true");
            }
        }));
    }

    /** README is the front door: small, the three jobs early, the CI command named. */
    @Test
    void readmeIsSmallAndShowsTheThreeJobsFirst() throws IOException {
        Path readme = ROOT.resolve("README.md");
        assertTrue(Files.size(readme) <= 25_000, "README.md is " + Files.size(readme) + " bytes, more than 25,000");
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        for (String job : List.of("## Replay a trace at line rate", "## Read the stage resources", "## Get latency histograms")) {
            int at = lines.indexOf(job);
            assertTrue(at >= 0 && at < 150, job + " at line " + (at + 1) + " of README.md, not within the first 150");
        }
        assertTrue(lines.contains("mvn -B -ntp verify     # the tests"), "README's quick start names mvn -B -ntp verify");
        assertTrue(lines.contains("./rmtemu demo          # 'counter' on tofino1, a generated ISP-like trace, a congested port"),
                "README's quick start names ./rmtemu demo");
    }

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted(Comparator.naturalOrder()).forEach(pages::add);
        }
        return pages;
    }

    /** Runs a page's examples; returns one message per command whose output differs, or rewrites them with {@code update}. */
    static List<String> check(Path page, boolean update) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(page, StandardCharsets.UTF_8));
        List<DocExamples.Block> blocks = DocExamples.blocks(page, lines);
        List<String> mismatches = new ArrayList<>();
        if (blocks.isEmpty()) {
            return mismatches;
        }
        Path dir = Files.createTempDirectory("rmtemu-docs-");
        try {
            copyTree(ROOT.resolve("examples"), dir.resolve("examples"));
            Set<String> ids = new HashSet<>();
            // rewritten bottom-up so earlier blocks keep their line numbers
            List<Runnable> rewrites = new ArrayList<>();
            for (DocExamples.Block b : blocks) {
                if (b.kind().equals("file")) {
                    Path target = dir.resolve(b.name());
                    Files.createDirectories(target.getParent());
                    Files.writeString(target, String.join("\n", b.text()) + "\n", StandardCharsets.UTF_8);
                    continue;
                }
                assertTrue(ids.add(b.name()), page + ": example id " + b.name() + " used twice");
                List<String> actualBlock = new ArrayList<>();
                for (DocExamples.Command c : DocExamples.commands(b)) {
                    List<String> actual = DocExamples.run(c.line(), dir);
                    boolean same = DocExamples.normalise(actual).equals(DocExamples.normalise(c.shown()));
                    if (!same) {
                        mismatches.add(page.getFileName() + " example " + b.name() + ": $ " + c.line()
                                + "\n--- shown\n" + String.join("\n", c.shown())
                                + "\n--- printed\n" + String.join("\n", actual));
                    }
                    actualBlock.addAll(c.raw());
                    // an output that differs only in host values keeps the page's text (no churn on regeneration)
                    actualBlock.addAll(same ? c.shown() : actual);
                }
                rewrites.add(0, () -> {
                    for (int i = b.endLine() - 1; i >= b.firstLine(); i--) {
                        lines.remove(i);
                    }
                    lines.addAll(b.firstLine(), actualBlock);
                });
            }
            if (update) {
                rewrites.forEach(Runnable::run);
                Files.writeString(page, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
                mismatches.clear();
            }
            return mismatches;
        } finally {
            deleteTree(dir);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}

package dev.rmtemu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No run output lives in the source tree: a run directory was once committed at emulator/'s root
 * (a test ran a replay with the module directory as its working directory). Runs belong under a
 * temporary directory (tests), {@code runs/} or {@code --out} (users); test fixtures under
 * src/test/resources. Bench runs last in the reactor, so it sees what every other module's tests
 * left behind.
 */
class RepositoryHygieneTest {
    /** The files a run directory, an experiment or a trace store writes. */
    static boolean isRunOutput(String name) {
        return name.equals("report.json") || name.equals("report.html") || name.equals("resources.json")
                || name.endsWith(".hgrm") || name.endsWith(".cq4") || name.endsWith(".cq4t");
    }

    /** Directories never searched: build output, version control, and the user's own run folders at the root. */
    private static final Set<String> SKIPPED_EVERYWHERE = Set.of("target", ".git");
    private static final Set<String> SKIPPED_AT_ROOT = Set.of("runs", "out");

    /** The reactor root: the nearest directory upwards whose pom.xml lists the pipeline-model module. */
    static Optional<Path> reactorRoot(Path from) {
        for (Path d = from.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            Path pom = d.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>pipeline-model</module>")) {
                    return Optional.of(d);
                }
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Every run output under {@code root} outside target/, .git/, src/test/resources/ and the root's runs/ and out/. */
    static List<String> strayRunOutputs(Path root) throws IOException {
        List<String> found = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean atRoot = root.equals(dir.getParent());
                if (SKIPPED_EVERYWHERE.contains(name) || (atRoot && SKIPPED_AT_ROOT.contains(name))
                        || dir.endsWith(Path.of("src", "test", "resources"))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (isRunOutput(file.getFileName().toString())) {
                    found.add(root.relativize(file).toString());
                }
                return FileVisitResult.CONTINUE;
            }
        });
        found.sort(null);
        return found;
    }

    @Test
    void noRunOutputInTheSourceTree() throws IOException {
        Optional<Path> root = reactorRoot(Path.of(""));
        assumeTrue(root.isPresent(), "not run inside the rmtemu reactor");
        assertEquals(List.of(), strayRunOutputs(root.get()),
                "run outputs in the source tree (a test or command wrote a run outside a temporary directory)");
    }

    @Test
    void theWalkFindsStrayOutputsAndSkipsFixturesAndBuildOutput(@TempDir Path tmp)
            throws IOException {
        Files.writeString(tmp.resolve("pom.xml"), "<modules><module>pipeline-model</module></modules>");
        Path module = Files.createDirectories(tmp.resolve("emulator"));
        Files.writeString(module.resolve("report.json"), "{}");
        Files.createDirectories(module.resolve("journal"));
        Files.writeString(module.resolve("journal/19700101L.cq4"), "");
        Files.writeString(module.resolve("latency.hgrm"), "");
        Files.createDirectories(module.resolve("src/test/resources/fixture"));
        Files.writeString(module.resolve("src/test/resources/fixture/report.json"), "{}");
        Files.createDirectories(module.resolve("target/run"));
        Files.writeString(module.resolve("target/run/report.html"), "");
        Files.createDirectories(tmp.resolve("runs/demo"));
        Files.writeString(tmp.resolve("runs/demo/resources.json"), "{}");
        Files.createDirectories(module.resolve("runs/replay"));
        Files.writeString(module.resolve("runs/replay/resources.json"), "{}");

        assertEquals(Optional.of(tmp.toAbsolutePath().normalize()), reactorRoot(module.resolve("target")));
        assertEquals(List.of("emulator/journal/19700101L.cq4", "emulator/latency.hgrm", "emulator/report.json",
                "emulator/runs/replay/resources.json"), strayRunOutputs(tmp));
    }
}

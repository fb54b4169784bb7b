package dev.rmtemu.programs.docs;

import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/reference/commands/ holds one page per command, generated from the picocli model; this
 * test fails when a page differs from the model or its usage block from what {@code --help}
 * prints. Regenerate with {@value ReferencePages#REGENERATE}.
 */
class ReferencePagesTest {
    private static final Path DIR = DocExamplesTest.ROOT.resolve(ReferencePages.DIR);

    @Test
    void everyCommandHasItsPageAndThePageIsWhatHelpPrints() throws IOException {
        Map<String, CommandLine> commands = ReferencePages.commands(Main.commandLine());
        Map<String, String> pages = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, CommandLine> e : commands.entrySet()) {
            pages.put(e.getKey(), ReferencePages.page(e.getValue()));
        }
        pages.put("README.md", ReferencePages.index(commands));
        if (DocExamplesTest.UPDATE) {
            Files.createDirectories(DIR);
            try (Stream<Path> old = Files.list(DIR)) {
                for (Path p : old.toList()) {
                    if (!pages.containsKey(p.getFileName().toString())) {
                        Files.delete(p);
                    }
                }
            }
            for (Map.Entry<String, String> e : pages.entrySet()) {
                Files.writeString(DIR.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
            }
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> e : pages.entrySet()) {
            Path file = DIR.resolve(e.getKey());
            if (!Files.exists(file)) {
                problems.add(e.getKey() + ": missing");
            } else if (!Files.readString(file, StandardCharsets.UTF_8).equals(e.getValue())) {
                problems.add(e.getKey() + ": differs from the command's model");
            }
        }
        try (Stream<Path> files = Files.list(DIR)) {
            files.map(p -> p.getFileName().toString()).filter(n -> !pages.containsKey(n))
                    .forEach(n -> problems.add(n + ": no such command"));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems) + "\nRegenerate: " + ReferencePages.REGENERATE);
    }

    @Test
    void eachPagesUsageBlockIsWhatHelpPrints() throws IOException {
        Map<String, CommandLine> commands = ReferencePages.commands(Main.commandLine());
        assertTrue(commands.size() >= 12, commands.keySet().toString());
        for (Map.Entry<String, CommandLine> e : commands.entrySet()) {
            List<String> path = new ArrayList<>(List.of(e.getValue().getCommandSpec().qualifiedName(" ").split(" ")));
            path.remove(0);
            path.add("--help");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = Main.run(path.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
            assertEquals(0, exit, e.getKey() + ": " + err);
            String page = Files.readString(DIR.resolve(e.getKey()), StandardCharsets.UTF_8);
            int from = page.indexOf("```text\n") + "```text\n".length();
            int to = page.indexOf("\n```\n", from) + 1;
            assertEquals(out.toString(), page.substring(from, to), e.getKey() + " against " + String.join(" ", path));
        }
        for (String name : List.of("rmtemu.md", "rmtemu-replay.md", "rmtemu-resources.md", "rmtemu-trace-gen.md")) {
            assertTrue(commands.containsKey(name), name + " in " + commands.keySet());
        }
    }
}

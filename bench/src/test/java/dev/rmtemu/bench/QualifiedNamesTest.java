package dev.rmtemu.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Main code names other classes through imports, never inline ({@code new java.util.TreeSet<>()}):
 * an inline name hides a dependency edge from a reader of the imports (and once hid package
 * cycles). Comments, string literals, imports and package lines are not code.
 */
class QualifiedNamesTest {
    /** A package path ending in a type name, not preceded by a word, a dot, a quote or an annotation's @. */
    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.@\"])(?:java|javax|dev|org|com|picocli)\\.(?:[a-z0-9_]+\\.)+[A-Z]\\w*");
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");

    /** The inline qualified names of one source file, as {@code LINE: NAME}. */
    static List<String> inlineNames(List<String> lines) {
        List<String> found = new ArrayList<>();
        boolean inComment = false;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.startsWith("/*")) {
                inComment = true;
            }
            if (inComment) {
                inComment = !t.contains("*/");
                continue;
            }
            if (t.startsWith("//") || t.startsWith("import ") || t.startsWith("package ")) {
                continue;
            }
            String code = STRING.matcher(lines.get(i)).replaceAll("\"\"");
            int slash = code.indexOf("//");
            Matcher m = QUALIFIED.matcher(slash < 0 ? code : code.substring(0, slash));
            while (m.find()) {
                found.add((i + 1) + ": " + m.group());
            }
        }
        return found;
    }

    @Test
    void mainCodeHasNoInlineQualifiedNames() throws IOException {
        Path root = RepositoryHygieneTest.reactorRoot(Path.of("")).orElse(null);
        assumeTrue(root != null, "reactor root not found");
        List<String> found = new ArrayList<>();
        for (String module : List.of("pipeline-model", "traces", "emulator", "programs", "bench")) {
            Path src = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    for (String hit : inlineNames(Files.readAllLines(f))) {
                        found.add(root.relativize(f) + ":" + hit);
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }

    @Test
    void codeIsToldApartFromCommentsStringsAndImports() {
        List<String> source = List.of(
                "import java.util.List;",
                "/** See {@link java.util.TreeSet}. */",
                "class A {",
                "    Set<String> s = new java.util.TreeSet<>(); // java.util.Map in a comment",
                "    String t = \"java.util.Map in a string\";",
                "    java.util.Map<String, String> m;",
                "    java.util.function.Supplier<dev.rmtemu.model.UserError> u;",
                "}");
        assertEquals(List.of("4: java.util.TreeSet", "6: java.util.Map", "7: java.util.function.Supplier",
                "7: dev.rmtemu.model.UserError"), inlineNames(source));
    }
}

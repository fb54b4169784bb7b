package dev.rmtemu.programs.docs;

import dev.rmtemu.emulator.cli.Main;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The runnable examples of one Markdown page. A page marks them with HTML comments, which
 * Markdown renders as nothing:
 * <ul>
 * <li>{@code <!-- rmtemu:file name=NAME -->} before a fenced block: the block's text is written
 * to NAME in the page's working directory (a program, a topology, a control script);</li>
 * <li>{@code <!-- rmtemu:example id=ID -->} before a {@code console} block: each {@code $ }
 * line is a command (a trailing backslash continues it), the lines after it its output
 * (stdout and stderr as a terminal shows them; {@code [exit N]} ends the output of a
 * command that exits non-zero).</li>
 * </ul>
 * Commands run in page order in one temporary directory, so an example can read what an
 * earlier one wrote. {@code ./rmtemu ARGS} runs {@link Main#run} in this JVM; {@code ls},
 * {@code cat} and {@code head -n N} read the working directory. Paths in arguments are
 * resolved against it and printed back relative to it.
 */
final class DocExamples {
    static final String FILE_MARK = "<!-- rmtemu:file name=";
    static final String EXAMPLE_MARK = "<!-- rmtemu:example id=";
    private static final Pattern MARK_END = Pattern.compile("^(\\S+?)\\s*-->\\s*$");

    /** Options whose value is a path that may not exist yet. */
    private static final Set<String> PATH_OPTIONS = Set.of("--out", "--plots", "--journal", "--control",
            "--paths", "--success", "--truth");
    private static final Pattern FILE_LIKE = Pattern.compile(".*\\.(pcap|pcapng|cq|json|yaml|yml|txt|ctl|java|hgrm|csv|gz)$");

    /**
     * Host-dependent values (the host's clock and speed) become {@code #}; everything else
     * must match exactly.
     */
    private static final List<Pattern> HOST_VALUES = List.of(
            Pattern.compile("(?<=host\\s{1,40})[0-9][0-9.,]* s wall, [0-9][0-9.,]* [KMG]?pps"),
            Pattern.compile("[0-9][0-9.,]* ?[KMG]? ?packets/s \\(host\\)"),
            Pattern.compile("(?<=\"wall_ns\": )[0-9]+"));

    /** A marked block: where its text starts and ends in the page (line indexes), and what it holds. */
    record Block(String kind, String name, int firstLine, int endLine, List<String> text) {
    }

    private DocExamples() {
    }

    /** The marked blocks of a page, in page order; an unmarked {@code console} block is an error. */
    static List<Block> blocks(Path page, List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        String pendingKind = null;
        String pendingName = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith(FILE_MARK) || line.startsWith(EXAMPLE_MARK)) {
                boolean file = line.startsWith(FILE_MARK);
                Matcher m = MARK_END.matcher(line.substring((file ? FILE_MARK : EXAMPLE_MARK).length()));
                if (!m.matches()) {
                    throw new IllegalStateException(page + ":" + (i + 1) + ": malformed mark: " + line);
                }
                pendingKind = file ? "file" : "example";
                pendingName = m.group(1);
                continue;
            }
            if (line.startsWith("```")) {
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).equals("```")) {
                    end++;
                }
                if (end == lines.size()) {
                    throw new IllegalStateException(page + ":" + (i + 1) + ": unclosed code block");
                }
                String lang = line.substring(3).trim();
                if (pendingKind == null && lang.equals("console")) {
                    throw new IllegalStateException(page + ":" + (i + 1)
                            + ": a console block must be marked <!-- rmtemu:example id=... --> so a test runs it"
                            + " (show a command without its output in a sh block)");
                }
                if (pendingKind != null) {
                    if (pendingKind.equals("example") && !lang.equals("console")) {
                        throw new IllegalStateException(page + ":" + (i + 1) + ": an example must be a console block");
                    }
                    blocks.add(new Block(pendingKind, pendingName, i + 1, end, List.copyOf(lines.subList(i + 1, end))));
                }
                pendingKind = null;
                i = end;
                continue;
            }
            if (pendingKind != null && !line.isBlank()) {
                throw new IllegalStateException(page + ":" + (i + 1) + ": a mark must stand right before its code block");
            }
        }
        return blocks;
    }

    /** One command of an example and the output the page shows for it. */
    record Command(String line, List<String> raw, List<String> shown) {
    }

    static List<Command> commands(Block example) {
        List<Command> commands = new ArrayList<>();
        String command = null;
        List<String> raw = null;
        List<String> shown = new ArrayList<>();
        List<String> text = example.text();
        for (int i = 0; i < text.size(); i++) {
            String line = text.get(i);
            if (line.startsWith("$ ")) {
                if (command != null) {
                    commands.add(new Command(command, raw, shown));
                }
                raw = new ArrayList<>(List.of(line));
                StringBuilder full = new StringBuilder(line.substring(2));
                while (full.toString().endsWith("\\") && i + 1 < text.size()) {
                    String head = full.substring(0, full.length() - 1).stripTrailing();
                    full.setLength(0);
                    full.append(head);
                    raw.add(text.get(++i));
                    full.append(' ').append(text.get(i).trim());
                }
                command = full.toString();
                shown = new ArrayList<>();
            } else if (command == null) {
                throw new IllegalStateException("example " + example.name() + ": output before the first $ command");
            } else {
                shown.add(line);
            }
        }
        if (command != null) {
            commands.add(new Command(command, raw, shown));
        }
        return commands;
    }

    /** Runs one command line in {@code dir} and returns what a terminal would show. */
    static List<String> run(String commandLine, Path dir) {
        List<String> words = words(commandLine);
        String program = words.get(0);
        List<String> args = words.subList(1, words.size());
        StringWriter text = new StringWriter();
        int exit;
        switch (program) {
            case "./rmtemu" -> {
                if (!args.isEmpty() && (args.get(0).equals("replay") || args.get(0).equals("demo"))
                        && !args.contains("--out") && !args.contains("--help")) {
                    // without --out a run writes runs/NAME below the test's working directory
                    throw new IllegalArgumentException("an example replay needs --out DIR: " + commandLine);
                }
                PrintWriter both = new PrintWriter(text, true);
                exit = Main.run(resolve(args, dir).toArray(String[]::new), both, both);
                both.flush();
            }
            case "ls" -> exit = ls(args, dir, text);
            case "cat" -> exit = head(Integer.MAX_VALUE, args, dir, text);
            case "head" -> {
                if (args.size() < 3 || !args.get(0).equals("-n")) {
                    throw new IllegalArgumentException("only 'head -n N FILE' is supported: " + commandLine);
                }
                exit = head(Integer.parseInt(args.get(1)), args.subList(2, args.size()), dir, text);
            }
            default -> throw new IllegalArgumentException("examples run ./rmtemu, ls, cat or head, not: " + commandLine);
        }
        String out = text.toString().replace(dir + "/", "").replace(dir.toString(), ".");
        List<String> lines = new ArrayList<>(out.lines().toList());
        if (exit != 0) {
            lines.add("[exit " + exit + "]");
        }
        return lines;
    }

    /** Host-dependent values replaced, for the comparison only. */
    static List<String> normalise(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            String l = line;
            for (Pattern p : HOST_VALUES) {
                l = p.matcher(l).replaceAll("#");
            }
            out.add(l.stripTrailing());
        }
        return out;
    }

    private static List<String> resolve(List<String> args, Path dir) {
        List<String> out = new ArrayList<>(args.size());
        boolean pathNext = false;
        for (String a : args) {
            boolean option = a.startsWith("-");
            boolean spec = a.startsWith("gen:") || a.startsWith("builtin:") || a.contains("=") || a.contains("?");
            if (!option && !spec && (pathNext || a.contains("/") || FILE_LIKE.matcher(a).matches())) {
                out.add(dir.resolve(a).normalize().toString());
            } else {
                out.add(a);
            }
            pathNext = PATH_OPTIONS.contains(a);
        }
        return out;
    }

    private static int ls(List<String> args, Path dir, StringWriter text) {
        Path target = args.isEmpty() ? dir : dir.resolve(args.get(0));
        if (!Files.isDirectory(target)) {
            text.append("ls: cannot access '").append(args.isEmpty() ? "." : args.get(0))
                    .append("': No such file or directory\n");
            return 2;
        }
        try (Stream<Path> files = Files.list(target)) {
            files.map(p -> p.getFileName() + (Files.isDirectory(p) ? "/" : "")).sorted()
                    .forEach(name -> text.append(name).append('\n'));
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int head(int n, List<String> args, Path dir, StringWriter text) {
        for (String a : args) {
            try {
                Files.readAllLines(dir.resolve(a), StandardCharsets.UTF_8).stream().limit(n)
                        .forEach(line -> text.append(line).append('\n'));
            } catch (IOException e) {
                text.append(a).append(": No such file or directory\n");
                return 1;
            }
        }
        return 0;
    }

    /** Splits a command line as a POSIX shell does for quotes and backslashes (no expansions). */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                w = w == null ? new StringBuilder() : w;
            } else if (c == '\\' && i + 1 < line.length()) {
                w = w == null ? new StringBuilder() : w;
                w.append(line.charAt(++i));
            } else if (Character.isWhitespace(c)) {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else if (c == '#' && w == null) {
                break;
            } else {
                w = w == null ? new StringBuilder() : w;
                w.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unclosed quote: " + line);
        }
        if (w != null) {
            words.add(w.toString());
        }
        return words;
    }
}

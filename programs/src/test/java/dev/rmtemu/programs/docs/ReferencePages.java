package dev.rmtemu.programs.docs;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * docs/reference/commands/: one Markdown page per command, generated from the picocli model
 * ({@link CommandSpec}) that the CLI runs: the description, the usage text exactly as
 * {@code --help} prints it, a table of the options and parameters, and links to subcommands.
 */
final class ReferencePages {
    static final String DIR = "docs/reference/commands";
    static final String REGENERATE = "mvn -B -ntp -pl programs -am test -Dtest=ReferencePagesTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Drmtemu.docs.update=true";

    private ReferencePages() {
    }

    /** Every command of the tree but picocli's {@code help}, by page file name, in tree order. */
    static Map<String, CommandLine> commands(CommandLine root) {
        Map<String, CommandLine> out = new LinkedHashMap<>();
        collect(root, out);
        return out;
    }

    private static void collect(CommandLine cli, Map<String, CommandLine> out) {
        out.put(fileName(cli), cli);
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (!sub.getCommandName().equals("help") && !out.containsKey(fileName(sub))) {
                collect(sub, out);
            }
        }
    }

    static String fileName(CommandLine cli) {
        return cli.getCommandSpec().qualifiedName("-") + ".md";
    }

    /** The usage text, as {@code --help} prints it. */
    static String usage(CommandLine cli) {
        return cli.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    static String page(CommandLine cli) {
        CommandSpec spec = cli.getCommandSpec();
        StringBuilder p = new StringBuilder();
        p.append("<!-- generated from the picocli model; do not edit. Regenerate: ").append(REGENERATE).append(" -->\n");
        p.append("# ").append(spec.qualifiedName(" ")).append("\n\n");
        String description = String.join(" ", spec.usageMessage().description()).trim();
        if (!description.isEmpty()) {
            p.append(description.replaceAll("\\s+", " ")).append("\n\n");
        }
        p.append("## Usage\n\n```text\n").append(usage(cli));
        if (!usage(cli).endsWith("\n")) {
            p.append('\n');
        }
        p.append("```\n");
        List<PositionalParamSpec> positionals = spec.positionalParameters().stream()
                .filter(a -> !a.hidden()).toList();
        if (!positionals.isEmpty()) {
            p.append("\n## Parameters\n\n| parameter | description |\n|---|---|\n");
            for (PositionalParamSpec a : positionals) {
                p.append("| `").append(cell(a.paramLabel())).append("` | ").append(cell(description(a))).append(" |\n");
            }
        }
        List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
        if (!options.isEmpty()) {
            p.append("\n## Options\n\n| option | value | default | description |\n|---|---|---|---|\n");
            for (OptionSpec o : options) {
                String value = o.arity().max() == 0 ? "" : "`" + cell(o.paramLabel()) + "`";
                String def = o.defaultValue() == null ? "" : "`" + cell(o.defaultValue()) + "`";
                p.append("| `").append(cell(String.join("`, `", o.names()))).append("` | ").append(value)
                        .append(" | ").append(def).append(" | ").append(cell(description(o))).append(" |\n");
            }
        }
        List<CommandLine> subs = new ArrayList<>();
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (!sub.getCommandName().equals("help") && !subs.contains(sub)) {
                subs.add(sub);
            }
        }
        if (!subs.isEmpty()) {
            p.append("\n## Subcommands\n\n");
            for (CommandLine sub : subs) {
                String first = sub.getCommandSpec().usageMessage().description().length == 0 ? ""
                        : sub.getCommandSpec().usageMessage().description()[0];
                p.append("- [").append(sub.getCommandSpec().qualifiedName(" ")).append("](").append(fileName(sub))
                        .append(")").append(first.isEmpty() ? "" : ": " + first.trim()).append('\n');
            }
        }
        return p.toString();
    }

    /** The index page: every command with the first line of its description. */
    static String index(Map<String, CommandLine> commands) {
        StringBuilder p = new StringBuilder();
        p.append("<!-- generated from the picocli model; do not edit. Regenerate: ").append(REGENERATE).append(" -->\n");
        p.append("# Command reference\n\n");
        p.append("One page per command, generated from the CLI's own model; a test fails when a page and the\n");
        p.append("command's `--help` differ.\n\n");
        p.append("| command | what it does |\n|---|---|\n");
        for (Map.Entry<String, CommandLine> e : commands.entrySet()) {
            String[] d = e.getValue().getCommandSpec().usageMessage().description();
            p.append("| [").append(e.getValue().getCommandSpec().qualifiedName(" ")).append("](").append(e.getKey())
                    .append(") | ").append(d.length == 0 ? "" : cell(d[0].trim())).append(" |\n");
        }
        return p.toString();
    }

    private static String description(ArgSpec a) {
        return String.join(" ", a.description()).replace("${DEFAULT-VALUE}", String.valueOf(a.defaultValue()))
                .replaceAll("\\s+", " ").trim();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }
}

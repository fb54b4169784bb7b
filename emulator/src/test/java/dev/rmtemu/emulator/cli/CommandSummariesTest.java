package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A command's list of subcommands shows the first line of each one's description: that line must be
 * a whole sentence, not a sentence cut where the text wrapped ("... skipped frames by").
 */
class CommandSummariesTest {
    @Test
    void everyCommandsFirstDescriptionLineIsAWholeSentence() {
        List<String> cut = new ArrayList<>();
        collect(Main.commandLine(), cut);
        assertEquals(List.of(), cut);
    }

    private static void collect(CommandLine c, List<String> cut) {
        String[] d = c.getCommandSpec().usageMessage().description();
        if (d.length > 0 && !d[0].strip().endsWith(".")) {
            cut.add(c.getCommandSpec().qualifiedName() + ": " + d[0]);
        }
        c.getSubcommands().values().forEach(s -> collect(s, cut));
    }

    @Test
    void traceHelpListsWholeSummaries() {
        CliRunner r = CliRunner.run("trace", "--help");
        assertEquals(0, r.exit(), r.err());
        List<String> commands = r.out().lines().dropWhile(l -> !l.equals("Commands:")).skip(1).toList();
        assertEquals(List.of(
                "  gen      Generate a seeded synthetic trace and write it as pcap, pcapng or a trace store.",
                "  info     Summarise a trace: packets, flows, bytes, duration, protocol mix, largest flows.",
                "  convert  Convert a trace to pcap, pcapng or a trace store."), commands);
    }
}

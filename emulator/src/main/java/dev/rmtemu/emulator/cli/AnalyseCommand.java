package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.spi.ProgramPlugin;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.spi.Analysis;
import dev.rmtemu.model.UserError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/** {@code rmtemu analyse NAME ...}: an algorithm's analysis on the user's own measurement files. */
@Command(name = "analyse",
        mixinStandardHelpOptions = true,
        description = {
            "Run an algorithm's analysis on your own measurements.",
            "",
            "Each analysis is a subcommand with its own --help (for example 'rmtemu analyse",
            "netbouncer --help': NetBouncer's link failure inference from path success rates)."
        })
public final class AnalyseCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /**
     * Adds every {@link Analysis} on the class path to {@code analyse}, in name order: the programs'
     * ({@link ProgramPlugin#analysis()}) and any registered on its own under
     * {@code META-INF/services/dev.rmtemu.emulator.cli.Analysis}.
     */
    static void addAnalyses(CommandLine analyse) {
        TreeMap<String, Analysis> byName = new TreeMap<>();
        for (ProgramPlugin p : ProgramPlugins.registered()) {
            p.analysis().ifPresent(a -> byName.put(new CommandLine(a).getCommandName(), a));
        }
        for (Analysis a : ServiceLoader.load(Analysis.class)) {
            byName.put(new CommandLine(a).getCommandName(), a);
        }
        for (Analysis a : byName.values()) {
            analyse.addSubcommand(a);
        }
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return UserError.BAD_INPUT;
    }
}

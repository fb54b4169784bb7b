package dev.rmtemu.emulator.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** The root {@code rmtemu} command; each capability is a subcommand. */
@Command(name = "rmtemu",
        mixinStandardHelpOptions = true,
        version = "rmtemu 0.1.0",
        description = {
            "Deterministic cycle-level emulator of an RMT / Tofino-like programmable switch.",
            "Stage programs are compiled before the first packet: passes check the target's rules",
            "(operators, stage dependencies, one read-modify-write per register array, VLIW",
            "instructions, stages, RAMs, stateful ALUs, hash, PHV) and a generated class runs them."
        },
        subcommands = {
            ResourcesCommand.class,
            CheckCommand.class,
            ProgramsCommand.class,
            ShowCommand.class,
            ReplayCommand.class,
            DemoCommand.class,
            TraceCommand.class,
            TopoCommand.class,
            ExperimentCommand.class,
            AnalyseCommand.class,
            CollectCommand.class,
            RegistersCommand.class,
            HelpCommand.class
        })
public final class RmtemuCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--debug", description = "Print stack traces for errors.", scope = ScopeType.INHERIT)
    boolean debug;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}

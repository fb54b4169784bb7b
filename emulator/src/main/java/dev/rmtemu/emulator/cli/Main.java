package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.UserError;
import picocli.CommandLine;

import java.io.PrintWriter;

/** Entry point of the {@code rmtemu} command. */
public final class Main {
    private Main() {
    }

    /**
     * Agrona bounds checks off for the CLI: every record access is at a fixed offset
     * inside a 64-byte slot, and the capture decoder checks each read against the
     * captured length itself. Tests keep the checks on.
     */
    private static final String AGRONA_BOUNDS_CHECKS = "agrona.disable.bounds.checks";

    public static void main(String[] args) {
        if (System.getProperty(AGRONA_BOUNDS_CHECKS) == null) {
            System.setProperty(AGRONA_BOUNDS_CHECKS, "true");
        }
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Columns of --help text: the descriptions' own lines (up to 100 characters) must not be re-wrapped mid-sentence. */
    static final int USAGE_WIDTH = 104;

    /** Runs the CLI with the given streams and returns the exit code (used by tests). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        boolean debug = false;
        for (String a : args) {
            if (a.equals("--debug")) {
                debug = true;
            }
        }
        final boolean showStack = debug;
        CommandLine cli = new CommandLine(new RmtemuCommand());
        AnalyseCommand.addAnalyses(cli.getSubcommands().get("analyse"));
        cli.setUsageHelpWidth(USAGE_WIDTH);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof UserError ue) {
                err.println("rmtemu: " + ue.getMessage());
                if (showStack) {
                    ue.printStackTrace(err);
                }
                err.flush();
                return ue.exitCode();
            }
            err.println("rmtemu: internal error: " + ex);
            if (showStack) {
                ex.printStackTrace(err);
            } else {
                err.println("(run again with --debug for the stack trace)");
            }
            err.flush();
            return 1;
        });
        cli.setParameterExceptionHandler((ex, a) -> {
            err.println("rmtemu: " + ex.getMessage());
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            err.flush();
            return UserError.BAD_INPUT;
        });
        return cli.execute(args);
    }
}

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
        CommandLine cli = commandLine();
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
        try {
            return cli.execute(args);
        } catch (Error e) {
            // picocli hands only Exceptions to the handler above; an Error (out of memory, a fault in a
            // memory-mapped file) still gets one line and exit 1, the stack only with --debug
            err.println("rmtemu: " + errorLine(e) + (showStack ? "" : " (--debug shows the stack trace)"));
            if (showStack) {
                e.printStackTrace(err);
            }
            err.flush();
            return INTERNAL_ERROR;
        }
    }

    /**
     * The whole command tree as {@link #run} executes it (every subcommand and analysis, the
     * usage width set); docs/reference/commands is generated from this model.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RmtemuCommand());
        AnalyseCommand.addAnalyses(cli.getSubcommands().get("analyse"));
        cli.setUsageHelpWidth(USAGE_WIDTH);
        return cli;
    }

    /** Exit code of a failure that is not the user's: an internal error, or the JVM ran out of memory. */
    static final int INTERNAL_ERROR = 1;

    static String errorLine(Error e) {
        if (e instanceof OutOfMemoryError) {
            return "out of memory (" + e.getMessage() + ", this JVM may use "
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB); give it more, e.g. RMTEMU_JAVA_OPTS=-Xmx"
                    + suggestedHeapGb() + "g";
        }
        return "internal error: " + e;
    }

    /** Twice the current heap limit, in whole GB (at least 1). */
    static long suggestedHeapGb() {
        return Math.max(1, 2 * Runtime.getRuntime().maxMemory() / (1024L * 1024 * 1024));
    }
}

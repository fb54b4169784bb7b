package dev.rmtemu.emulator.cli;

/** Help sentences several commands share (constants, so picocli annotations can use them). */
final class HelpText {
    private HelpText() {
    }

    /**
     * What loading a user's program means: it is code, run in rmtemu's JVM with the user's
     * rights, as plugins of any tool are (issue 30 point 15).
     */
    static final String PROGRAM_IS_CODE = "A FILE.java or JAR!CLASS is Java code that rmtemu compiles and loads into its"
            + " own JVM: it runs as you, with your permissions, as soon as it is loaded (its static initialisers run even"
            + " for 'show' and 'resources'). Load only programs you trust.";

    /** How a run behaves when it starts with SIGINT ignored (issue 30 point 15). */
    static final String SIGINT_INHERITED_IGNORED = "A run that starts with SIGINT ignored (started with '&' by a script or"
            + " another shell without job control, or by any parent that ignores SIGINT, e.g. 'nohup rmtemu ... &' in a"
            + " script) keeps ignoring it, as the JVM does; stop it with SIGTERM ('kill PID'): same incomplete report, exit 143.";
}

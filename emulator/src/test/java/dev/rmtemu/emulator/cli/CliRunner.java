package dev.rmtemu.emulator.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process and captures its streams (test helper). */
record CliRunner(int exit, String out, String err) {
    static CliRunner run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRunner(code, out.toString(), err.toString());
    }
}

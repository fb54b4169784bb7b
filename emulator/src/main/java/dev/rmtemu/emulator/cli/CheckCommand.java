package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.target.TargetProfiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rmtemu check FILE.p4}: is a P4_16 program well-formed, and if not, every error in it. */
@Command(name = "check",
        resourceBundle = "dev.rmtemu.emulator.cli.help.check",
        mixinStandardHelpOptions = true,
        description = {
            "Check a P4_16 program for TNA and print every error in it.",
            "",
            "The program is preprocessed as P4 uses the C preprocessor (#include, #define, #if ...,",
            "with -I and -D; __TARGET_TOFINO__ is 2 on --target tofino2, else 1), and #include <core.p4>",
            "and <tna.p4> resolve to rmtemu's own declarations of P4's core library and of TNA. Then the",
            "whole P4_16 grammar (specification v1.2.x) parses it, and its names are resolved: declared",
            "before use, once per scope, a type where a type is written, an action in a table's actions,",
            "a match kind after a key, a state after transition (with the closest name when one is near).",
            "Each error is one line 'FILE:LINE:COL: message' in your own file (through includes and",
            "macros), on stderr; all of them are printed, as a compiler does. The types of expressions",
            "are not checked yet. A program without such errors is then lowered to rmtemu's pipeline",
            "(Switch(pipe) main's ingress parser, control and deparser; what the lowering does not",
            "support is refused with its FILE:LINE:COL) and its tables placed on --target.",
            "Exit 2 when the program has errors, uses what the lowering does not support, or the file",
            "cannot be read; exit 3 when it does not fit the target."
        },
        footer = {"", "Examples:",
            "  rmtemu check switch.p4",
            "  rmtemu check -I include -D USE_VLAN -D TABLE_SIZE=4096 switch.p4"})
public final class CheckCommand implements Callable<Integer> {
    @Mixin
    TargetOption targetOption;

    @Parameters(index = "0", paramLabel = "FILE.p4", description = "The P4_16 program to check.")
    Path file;

    @Option(names = "-I", paramLabel = "DIR", description = "Directory to search for #include files, after the including file's own "
            + "directory for \"...\" and before rmtemu's built-in library; repeat for several.")
    List<Path> includeDirs = new ArrayList<>();

    @Option(names = "-D", paramLabel = "NAME[=VALUE]", description = "Define a macro (value 1 when none is given); repeat for several.")
    List<String> defines = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String profile = TargetProfiles.load(targetOption.target).name();
        PreprocessorOptions options = new PreprocessorOptions(includeDirs, defines, PreprocessorOptions.tofinoGeneration(profile));
        P4Front.Result result = P4Front.file(file, options);
        if (!result.ok()) {
            for (Diagnostic d : result.errors()) {
                err.println(d.line());
            }
            int n = result.errorCount();
            if (n > result.errors().size()) {
                err.println(file + ": " + (n - result.errors().size()) + " more errors not shown (the first "
                        + Diagnostics.MAX_KEPT + " are)");
            }
            err.flush();
            throw new UserError(file + ": " + n + (n == 1 ? " error" : " errors"));
        }
        P4Programs.Result lowered = P4Programs.lower(result, file);
        if (lowered.program() == null) {
            for (Diagnostic d : lowered.errors()) {
                err.println(d.line());
            }
            err.flush();
            int n = lowered.errors().size();
            throw new UserError(file + ": " + n + (n == 1 ? " error" : " errors"));
        }
        Compilation c = ProgramCompiler.compile(lowered.program(), TargetProfiles.load(targetOption.target)).requireAccepted();
        int tables = c.program().tables().size();
        int stages = c.program().stages(Gress.INGRESS).size();
        out.println(file + ": no errors; lowered to the pipeline and placed on " + profile + ": " + tables
                + (tables == 1 ? " table" : " tables") + " in " + stages + (stages == 1 ? " ingress stage" : " ingress stages"));
        out.flush();
        return 0;
    }
}

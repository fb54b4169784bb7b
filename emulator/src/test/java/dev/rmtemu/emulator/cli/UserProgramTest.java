package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's own program from the command line: the two shipped examples
 * (compiled in the process from their .java files), a jar with a class name,
 * and the errors a user can make (compile errors as FILE:LINE, a class that is
 * not a program, a program the target refuses).
 */
class UserProgramTest {
    private static final Path EXAMPLES = Path.of("..", "examples");
    private static final Pattern DROPPED = Pattern.compile("ingress_drop_ctl\\s+([0-9,]+)");

    @Test
    void theCountMinSketchExampleFitsTofino1() {
        CliRunner r = CliRunner.run("resources", "--program", EXAMPLES.resolve("CountMinSketch.java").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("count_min_sketch"), r.out());
        assertTrue(r.out().contains("Accepted: every rule holds."), r.out());
    }

    @Test
    void theSynFloodGuardExampleDropsSynsOverItsLimitOnly(@TempDir Path tmp) {
        String guard = EXAMPLES.resolve("SynFloodGuard.java").toString();
        // dist=zipf: every flow spans the trace and starts with a SYN, so 30,000 flows send 30,000 SYNs
        String trace = "gen:isp?packets=30000&flows=30000&seed=4&dist=zipf";
        CliRunner strict = CliRunner.run("replay", "--program", guard, "--param", "limit=2", "--trace", trace,
                "--out", tmp.resolve("strict").toString());
        assertEquals(0, strict.exit(), strict.err());
        Matcher m = DROPPED.matcher(strict.out());
        assertTrue(m.find(), strict.out());
        assertTrue(Long.parseLong(m.group(1).replace(",", "")) > 0, strict.out());
        CliRunner lax = CliRunner.run("replay", "--program", guard, "--param", "limit=1000000", "--trace", trace,
                "--out", tmp.resolve("lax").toString());
        assertEquals(0, lax.exit(), lax.err());
        assertTrue(!DROPPED.matcher(lax.out()).find(), lax.out());
    }

    @Test
    void compileErrorsNameFileAndLine(@TempDir Path tmp) throws IOException {
        Path bad = tmp.resolve("Broken.java");
        Files.writeString(bad, "public final class Broken {\n    int x = ;\n}\n");
        CliRunner r = CliRunner.run("resources", "--program", bad.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains(bad + ":2: "), r.err());
    }

    @Test
    void aCompileErrorShowsJavacsWholeDiagnostic(@TempDir Path tmp) throws IOException {
        // issue 29: only javac's first line was kept ("cannot find symbol", without the symbol)
        Path bad = tmp.resolve("DstBytes.java");
        Files.writeString(bad, "public final class DstBytes {\n    int bytes() {\n        return dstBytes + 1;\n    }\n}\n");
        CliRunner r = CliRunner.run("resources", "--program", bad.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: program source " + bad + " does not compile:\n"
                + "  " + bad + ":3: error: cannot find symbol\n"
                + "          return dstBytes + 1;\n"
                + "                 ^\n"
                + "    symbol:   variable dstBytes\n"
                + "    location: class DstBytes\n", r.err());
    }

    @Test
    void aClassThatIsNotAProgramIsRefused(@TempDir Path tmp) throws IOException {
        Path notProgram = tmp.resolve("Plain.java");
        Files.writeString(notProgram, "public final class Plain {\n}\n");
        CliRunner r = CliRunner.run("resources", "--program", notProgram.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: program " + notProgram + ": class Plain does not implement dev.rmtemu.model.program.ProgramFactory\n",
                r.err());
    }

    @Test
    void aMistakeInTheUsersBuildIsOneLine(@TempDir Path tmp) throws IOException {
        Path source = tmp.resolve("Twice.java");
        String example = Files.readString(EXAMPLES.resolve("SynFloodGuard.java"));
        // declare the metadata field twice: the builder refuses it when the program is built
        Files.writeString(source, example.replace("SynFloodGuard", "Twice")
                .replace("Field over = b.metadata(Gress.INGRESS, \"meta.over_limit\", 1);",
                        "Field over = b.metadata(Gress.INGRESS, \"meta.over_limit\", 1);\n        b.metadata(Gress.INGRESS, \"meta.over_limit\", 8);"));
        CliRunner r = CliRunner.run("resources", "--program", source.toString());
        assertEquals(2, r.exit(), r.err());
        assertEquals("rmtemu: program " + source + ": building it failed: field meta.over_limit declared twice\n", r.err());
    }

    @Test
    void aProgramTheTargetRefusesExitsThreeWithTheRule() {
        // 3000 counters per row: the index is a 12-bit hash folded with '% 3000', which tofino1 cannot do
        CliRunner r = CliRunner.run("resources", "--program", EXAMPLES.resolve("CountMinSketch.java").toString(),
                "--param", "cells=3000");
        assertEquals(3, r.exit());
        assertTrue(r.err().contains("register array row0: index row0_hash.get() can reach 4095 but the array has 3000 cells"),
                r.err());
    }

    @Test
    void aJarAndAClassName(@TempDir Path tmp) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), "-classpath", System.getProperty("java.class.path"),
                EXAMPLES.resolve("CountMinSketch.java").toString()));
        Path jar = tmp.resolve("sketch.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("CountMinSketch.class"));
            out.write(Files.readAllBytes(classes.resolve("CountMinSketch.class")));
            out.closeEntry();
        }
        CliRunner r = CliRunner.run("resources", "--program", jar + "!CountMinSketch", "--target", "rmt");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("count_min_sketch"), r.out());
        CliRunner missing = CliRunner.run("resources", "--program", jar + "!NoSuchClass");
        assertEquals(2, missing.exit());
        assertTrue(missing.err().startsWith("rmtemu: program " + jar + ": class NoSuchClass not found"), missing.err());
    }
}

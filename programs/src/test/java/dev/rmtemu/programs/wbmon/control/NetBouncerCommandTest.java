package dev.rmtemu.programs.wbmon.control;

import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code rmtemu analyse netbouncer} on good and malformed measurement files. */
class NetBouncerCommandTest {
    /**
     * Four paths over seven links (the system of NetBouncerTest, for NetBouncer's Algorithm 1,
     * Tan et al., NSDI 2019, Section 5), links named as a user would: links l3 and l6 fail-stop.
     */
    private static final String PATHS = "# four paths over seven links\n"
            + "p0: l0 l1 l2 l3\n"
            + "p1: l0 l1 l2 l4\n"
            + "\n"
            + "p2: l5 l6 l2 l3\n"
            + "p3: l5 l6 l2 l4\n";
    private static final String SUCCESS = "p0 0\np1 1.0\np2 0.0\np3 0\n";

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private Run run(String paths, String success, String... extra) throws IOException {
        Path p = dir.resolve("paths.txt");
        Path s = dir.resolve("success.txt");
        Files.writeString(p, paths);
        Files.writeString(s, success);
        String[] args = new String[4 + extra.length];
        args[0] = "analyse";
        args[1] = "netbouncer";
        args[2] = "--paths=" + p;
        args[3] = "--success=" + s;
        System.arraycopy(extra, 0, args, 4, extra.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void printsEveryLinksSuccessAndTheBlamedLinks() throws IOException {
        Run r = run(PATHS, SUCCESS);
        assertEquals(0, r.code(), r.err());
        assertEquals("link  success\n"
                + "l0    1.000000\n"
                + "l1    1.000000\n"
                + "l2    1.000000\n"
                + "l3    0.000000\n"
                + "l4    1.000000\n"
                + "l5    1.000000\n"
                + "l6    0.000000\n"
                + "blamed (success below 0.998): l3 l6\n", r.out().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void jsonIsTheDocumentedShape() throws IOException {
        Run r = run(PATHS, SUCCESS, "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals("{\"links\":[{\"link\":\"l0\",\"success\":1.0},{\"link\":\"l1\",\"success\":1.0},{\"link\":\"l2\",\"success\":1.0},"
                + "{\"link\":\"l3\",\"success\":0.0},{\"link\":\"l4\",\"success\":1.0},{\"link\":\"l5\",\"success\":1.0},"
                + "{\"link\":\"l6\",\"success\":0.0}],\"blamed\":[\"l3\",\"l6\"]}", r.out().strip());
    }

    @Test
    void lambdaIsPassedToTheSolver() throws IOException {
        // links l3 and l6 drop 75 % each: with λ = 1 both go to 0, with the default λ they stay near 0.25 and 0.5
        String rates = "p0 0.25\np1 1\np2 0.0625\np3 0.25\n";
        Run strong = run(PATHS, rates, "--lambda", "1", "--json");
        assertEquals(0, strong.code(), strong.err());
        assertEquals(true, strong.out().contains("{\"link\":\"l3\",\"success\":0.0}"), strong.out());
        Run weak = run(PATHS, rates, "--json");
        assertEquals(false, weak.out().contains("{\"link\":\"l3\",\"success\":0.0}"), weak.out());
        assertEquals(true, weak.out().contains("\"blamed\":[\"l3\","), weak.out());
    }

    private void refused(String paths, String success, String message, String... extra) throws IOException {
        Run r = run(paths, success, extra);
        assertEquals(2, r.code(), r.out());
        assertEquals("rmtemu: " + message, r.err().strip());
    }

    @Test
    void everyMalformedPathsLineIsRefusedWithFileAndLine() throws IOException {
        refused("p0 l0 l1\n", SUCCESS, file("paths.txt") + ":1: expected 'PATH_ID: LINK LINK ...', found no ':'");
        refused("p0: l0\n: l1\n", "p0 1\n", file("paths.txt") + ":2: path id must be one word before ':', found ''");
        refused("p 0: l0\n", "p0 1\n", file("paths.txt") + ":1: path id must be one word before ':', found 'p 0'");
        refused("p0: l0\n\np0: l1\n", "p0 1\n", file("paths.txt") + ":3: path p0 already given on line 1");
        refused("p0: l0\np1:\n", "p0 1\n", file("paths.txt") + ":2: path p1 has no links");
        refused("p0: l0 l1 l0\n", "p0 1\n", file("paths.txt") + ":1: path p0 crosses link l0 twice");
        refused("p0: l0 p1: l1\n", "p0 1\n", file("paths.txt") + ":1: link 'p1:' contains ':' (one path per line)");
        refused("# nothing\n", "p0 1\n", file("paths.txt") + ": no paths (expected lines 'PATH_ID: LINK LINK ...')");
    }

    @Test
    void everyMalformedSuccessLineIsRefusedWithFileAndLine() throws IOException {
        refused(PATHS, "p0 0\np1\n", file("success.txt") + ":2: expected 'PATH_ID RATE', found 1 fields");
        refused(PATHS, "p0 0 0.5\n", file("success.txt") + ":1: expected 'PATH_ID RATE', found 3 fields");
        refused(PATHS, "p0 0\np9 1\n", file("success.txt") + ":2: path p9 is not in " + file("paths.txt"));
        refused(PATHS, "p0 0\n# again\np0 1\n", file("success.txt") + ":3: path p0 already has a rate on line 1");
        refused(PATHS, "p0 half\n", file("success.txt") + ":1: rate 'half' is not a number");
        refused(PATHS, "p0 1.5\n", file("success.txt") + ":1: rate 1.5 is outside [0, 1]");
        refused(PATHS, "p0 NaN\n", file("success.txt") + ":1: rate NaN is outside [0, 1]");
        refused(PATHS, "p0 0\np1 1\np2 0\n", file("paths.txt") + ":6: path p3 has no rate in " + file("success.txt"));
    }

    @Test
    void badOptionsAreRefused() throws IOException {
        refused(PATHS, SUCCESS, "--lambda must be a finite number >= 0: -1.0", "--lambda", "-1");
        refused(PATHS, SUCCESS, "--blame-below must be in [0, 1]: 2.0", "--blame-below", "2");
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"analyse", "netbouncer", "--paths", file("none.txt"), "--success", file("none.txt")},
                new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertEquals(2, code);
        assertEquals(true, err.toString().startsWith("rmtemu: " + file("none.txt") + ": cannot read: "), err.toString());
    }

    @Test
    void outputIsByteIdenticalOnTwoRuns() throws IOException {
        assertEquals(run(PATHS, SUCCESS, "--json").out(), run(PATHS, SUCCESS, "--json").out());
    }
}

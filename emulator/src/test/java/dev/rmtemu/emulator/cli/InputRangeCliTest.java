package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.store.TraceStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30 point 13, the inputs that were accepted out of range: a target profile followed
 * by a second JSON document; a store manifest's skip counts of -5 or 2^63-1 (they went into
 * report.json); a manifest's {@code source} text printed raw (terminal escapes, a 500 KB line).
 * Each: exit 2 and one line naming the file, --out never created; and the legal twin.
 */
class InputRangeCliTest {
    private static final String TRACE = "gen:isp?packets=300&flows=20&seed=4";

    private static String tofino1() throws IOException {
        try (InputStream in = TargetProfiles.class.getResourceAsStream("tofino1.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aProfileFollowedByASecondDocumentIsRefused(@TempDir Path tmp) throws IOException {
        Path profile = tmp.resolve("two.json");
        String one = tofino1();
        Files.writeString(profile, one + "\n" + one.replace("\"tofino1\"", "\"other\""));
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--target", profile.toString(), "--trace", TRACE,
                "--no-progress", "--out", out.toString());
        assertEquals(2, r.exit(), r.err());
        long line = one.lines().count() + 1;
        assertEquals(List.of("rmtemu: " + profile + ": text after the profile's JSON object at line " + (line + 1)
                + ", column 1 (a profile file holds one JSON object)"), r.err().lines().toList());
        assertFalse(Files.exists(out));
        // legal twin: the same profile alone (trailing white space is fine)
        Files.writeString(profile, one + "\n\n  \n");
        r = CliRunner.run("resources", "--program", "counter", "--target", profile.toString());
        assertEquals(0, r.exit(), r.err());
    }

    /** A store of the trace, its manifest edited by {@code edit}. */
    private static Path store(Path tmp, java.util.function.UnaryOperator<String> edit) throws IOException {
        Path store = tmp.resolve("s.cq");
        CliRunner r = CliRunner.run("trace", "convert", TRACE, store.toString());
        assertEquals(0, r.exit(), r.err());
        Path manifest = store.resolve(TraceStore.MANIFEST);
        Files.writeString(manifest, edit.apply(Files.readString(manifest)));
        return store;
    }

    @Test
    void skipCountsOutOfRangeAreRefusedWhenTheManifestIsRead(@TempDir Path tmp) throws IOException {
        for (String count : List.of("-5", "9223372036854775807")) {
            Path dir = Files.createDirectory(tmp.resolve("c" + count.length()));
            Path store = store(dir, m -> m + "skipped.arp=" + count + "\n");
            Path out = dir.resolve("run");
            CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", store.toString(), "--no-progress",
                    "--out", out.toString());
            assertEquals(2, r.exit(), r.err());
            assertEquals(List.of("rmtemu: " + store + ": corrupt trace store: manifest value of 'skipped.arp' is '" + count
                    + (count.equals("-5") ? "', not a count"
                            : "', more frames than a capture holds (at most 281474976710656)")),
                    r.err().lines().toList());
            assertFalse(Files.exists(out));
        }
        // legal twin: a count the source could have skipped reaches the report
        Path dir = Files.createDirectory(tmp.resolve("legal"));
        Path store = store(dir, m -> m + "skipped.arp=5\n");
        Path out = dir.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", store.toString(), "--no-progress",
                "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(Files.readString(out.resolve("report.json")).replace(" ", "").contains("\"arp\":5"));
    }

    @Test
    void aManifestsSourceIsPrintedEscapedAndCut(@TempDir Path tmp) throws IOException {
        String flood = "x".repeat(500_000);
        Path store = store(tmp, m -> m.replaceFirst("(?m)^source=.*$", "source=\u001b]0;pwned\u0007\u001b[2J" + flood));
        try (var src = TraceSpec.open(store.toString())) {
            assertEquals("trace store " + store + " (300 records from \\u001b]0;pwned\\u0007\\u001b[2J"
                    + "x".repeat(300 - 14) + "... (500014 characters))", src.describe());
        }
        CliRunner r = CliRunner.run("trace", "info", store.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("\u001b"), "an escape reached the terminal");
        assertFalse(r.out().contains("x".repeat(301)), "the whole source was printed");
    }
}

package dev.rmtemu.emulator.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** replay --capture, --capture-limit, --packet-log on the command line: the files, the warning, the refusals. */
class CaptureOptionsCliTest {
    @Test
    void aLimitedCaptureWarnsOnStderrAndWritesItsFiles(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=300&flows=20",
                "--rate", "10G", "--no-progress", "--capture", "--capture-limit", "100", "--packet-log",
                "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("rmtemu: warning: capture/egress.pcapng: capture limit of 100 packets reached; 200 more were not"
                + " written (--capture-limit)\n", r.err());
        assertTrue(Files.size(out.resolve("capture/egress.pcapng")) > 0);
        assertTrue(Files.size(out.resolve("capture/drops.pcapng")) > 0);
        assertTrue(Files.size(out.resolve("packets.csv.gz")) > 0);
    }

    @Test
    void aLimitWithoutACaptureIsRefused(@TempDir Path tmp) {
        Path out = tmp.resolve("run");
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10",
                "--capture-limit", "5", "--out", out.toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: --capture-limit bounds the capture files: it needs --capture\n", r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void aLimitBelowOneIsRefused(@TempDir Path tmp) {
        CliRunner r = CliRunner.run("replay", "--program", "counter", "--trace", "gen:isp?packets=10", "--capture",
                "--capture-limit", "0", "--out", tmp.resolve("run").toString());
        assertEquals(2, r.exit());
        assertEquals("rmtemu: --capture-limit must be at least 1 packet, got 0\n", r.err());
    }

    @Test
    void helpNamesTheNewOptions() {
        CliRunner r = CliRunner.run("replay", "--help");
        assertEquals(0, r.exit());
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--capture Record every frame leaving an egress port"), help);
        assertTrue(help.contains("--capture-limit=N Packets each capture file takes at most (default: 1000000)"), help);
        assertTrue(help.contains("--packet-log Write DIR/packets.csv.gz"), help);
    }
}

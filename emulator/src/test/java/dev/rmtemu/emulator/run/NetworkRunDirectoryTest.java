package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.emulator.output.RunOutputs;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Network replays get what single-switch replays get: control scripts, a journal, report.html. */
class NetworkRunDirectoryTest {
    private static final String TRACE = "gen:isp?packets=3000&flows=200&seed=3";
    private static final int CELLS = 64;

    private static Path topology(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path topo = dir.resolve("line.yaml");
        dev.rmtemu.emulator.LineTopology.write(topo);
        return topo;
    }

    private static ReplayResult run(Path dir, Path control) throws Exception {
        ReplayOptions o = new ReplayOptions("counter", Map.of("cells", String.valueOf(CELLS), "port", "511"), "tofino1",
                TRACE, "rate:10G", 1, 0, 100, true, 0, dir.resolve("run"), false, control, topology(dir).toString());
        return NetworkReplay.run(o, null);
    }

    private static long[] cells(ReplayResult r) {
        PipelineState s = r.network().switchEngine("s1").state();
        long[] v = new long[CELLS];
        for (int i = 0; i < CELLS; i++) {
            v[i] = s.readRegister(0, "flow_count", i);
        }
        return v;
    }

    @Test
    void controlLinesNameTheirSwitchAndApplyBeforeAndDuringTheRun(@TempDir Path tmp) throws Exception {
        long[] plain = cells(run(tmp.resolve("plain"), null));
        long total = 0;
        for (long c : plain) {
            total += c;
        }
        assertEquals(3000, total, "counter counts every packet at s1");

        Path before = tmp.resolve("before.txt");
        Files.writeString(before, "on s1 register_write flow_count 3 1000000   # before the run\n");
        long[] written = cells(run(tmp.resolve("before"), before));
        assertEquals(plain[3] + 1_000_000, written[3]);
        assertEquals(plain[4], written[4]);

        Path later = tmp.resolve("later.txt");
        // far after the last packet: not applied, and the run is not stretched to reach it
        Files.writeString(later, "at 1000000000 on s1 register_reset flow_count\n");
        ReplayResult lateRun = run(tmp.resolve("later"), later);
        assertArrayEquals(plain, cells(lateRun));
        assertEquals(List.of(later + ":1"),
                lateRun.network().switchEngine("s1").controlOpsNotApplied().stream().map(Object::toString).toList());
        assertTrue(lateRun.network().now() < 1_000_000_000L, "run not stretched: " + lateRun.network().now());
    }

    @Test
    void controlMistakesAreOneClearLine(@TempDir Path tmp) throws Exception {
        Path noSwitch = tmp.resolve("a.txt");
        Files.writeString(noSwitch, "register_reset flow_count\n");
        UserError e = assertThrows(UserError.class, () -> run(tmp.resolve("a"), noSwitch));
        assertTrue(e.getMessage().contains("a.txt:1") && e.getMessage().contains("on SWITCH"), e.getMessage());

        Path unknown = tmp.resolve("b.txt");
        Files.writeString(unknown, "\n on s9 register_reset flow_count\n");
        e = assertThrows(UserError.class, () -> run(tmp.resolve("b"), unknown));
        assertTrue(e.getMessage().contains("b.txt:2") && e.getMessage().contains("no switch named 's9' (switches: s1, s2)"),
                e.getMessage());

        Path regular = tmp.resolve("c.txt");
        Files.writeString(regular, "on s2 register_reset flow_count\n");
        e = assertThrows(UserError.class, () -> run(tmp.resolve("c"), regular));
        assertTrue(e.getMessage().contains("c.txt:1") && e.getMessage().contains("flow_count"), e.getMessage());
    }

    @Test
    void runDirectoryHoldsJournalAndHtmlReport(@TempDir Path tmp) throws Exception {
        ReplayResult r = run(tmp, null);
        Path run = tmp.resolve("run");
        try (JournalReader reader = JournalReader.open(run.resolve("journal"))) {
            assertTrue(reader.directory().toString().endsWith("journal"));
        }
        String html = Files.readString(run.resolve(RunOutputs.HTML));
        assertTrue(html.contains("<h2>Switches</h2>") && html.contains("<td>s1</td>") && html.contains("<td>s2</td>"), html);
        assertTrue(html.contains("<div class=\"chart\" id=\"latency\""), "latency distribution placed");
        assertTrue(html.contains("<code>counter</code> (first on s1)"), "resource bars of the program");
        assertEquals(3000, r.network().totals().delivered());
        // rerunning into the same directory replaces the journal instead of refusing it
        run(tmp, null);
        assertEquals(html, Files.readString(run.resolve(RunOutputs.HTML)));
    }
}

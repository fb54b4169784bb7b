package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.run.NetworkReplay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import dev.rmtemu.model.runtime.PipelineState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A network replay keeps each switch's counters in counters/SWITCH/NAME.csv and each switch's
 * counter_read answers in counter_reads/SWITCH.csv: l2fwd on both switches of h1 - s1 - s2 - h2,
 * every frame a miss that the control plane's default action forwards and counts in the
 * direct counter's miss cell (index 16 of a 16-entry table).
 */
class NetworkSavedCountersTest {
    private static final String TRACE = "gen:isp?packets=500&flows=50&seed=3";

    @Test
    void eachSwitchsCountersAreSavedInItsFolder(@TempDir Path tmp) throws Exception {
        Path control = tmp.resolve("control.txt");
        Files.writeString(control, """
                on s1 table_set_default l2_fwd forward 1
                on s2 table_set_default l2_fwd forward 0
                on s1 counter_read l2_fwd_hits 16
                """);
        Path out = tmp.resolve("run");
        ReplayOptions o = new ReplayOptions("l2fwd", Map.of("entries", "16"), "tofino1", TRACE, "rate:10G", 1, 0, 100, true, 0,
                out, false, control, NetworkSavedRegistersTest.topology(tmp).toString());
        ReplayResult r = NetworkReplay.run(o, null);
        for (String sw : new String[] {"s1", "s2"}) {
            PipelineState st = r.network().switchEngine(sw).state();
            long[] miss = st.readCounter("l2_fwd_hits", 16);
            assertEquals(500, miss[0], sw + ": every frame crosses it as a miss");
            List<String> rows = Files.readAllLines(out.resolve("counters/" + sw + "/l2_fwd_hits.csv"));
            assertEquals(18, rows.size(), sw);
            assertEquals("index,packets,bytes", rows.get(0));
            assertEquals("0,0,0", rows.get(1));
            assertEquals("16,500," + miss[1], rows.get(17));
        }
        assertEquals(List.of("where,cycle,counter,index,packets,bytes", "\"" + control + ":3\",0,l2_fwd_hits,16,0,0"),
                Files.readAllLines(out.resolve("counter_reads/s1.csv")));
        assertEquals("counters/s%2F1/c.csv", SavedCounters.fileName("s/1", "c"));
    }
}

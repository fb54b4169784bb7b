package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.model.UserError;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The experiment at a small scale: shape of the output, determinism, bad options. */
class HashPipeExperimentTest {
    private static final Map<String, String> SMALL = Map.of("packets", "60000", "flows", "6000", "intervals", "3",
            "memory", "300,1200", "k", "30,60", "d", "2,6");

    private static String run(Map<String, String> opts, boolean json) {
        StringWriter out = new StringWriter();
        assertEquals(0, new HashPipeExperiment().run(opts, json, new PrintWriter(out), new PrintWriter(new StringWriter())));
        return out.toString();
    }

    @Test
    void sameOutputTwiceAndWithOneThread() {
        String a = run(SMALL, true);
        java.util.Map<String, String> one = new java.util.TreeMap<>(SMALL);
        one.put("threads", "1");
        assertEquals(a, run(SMALL, true));
        assertEquals(a, run(one, true));
        // experiment JSON goes out through the shared writer: one line, schema_version first
        assertTrue(a.startsWith("{\"schema_version\":"), a);
        assertTrue(a.contains("\"algorithm\":\"hashpipe d=6\",\"d\":6,\"memory\":1200,\"k\":60"), a);
    }

    @Test
    void moreMemoryAndDepthFindMoreHeavyHitters() {
        HashPipeExperiment.Outcome o = HashPipeExperiment.measure(HashPipeExperiment.parse(SMALL));
        double small = 0;
        double large = 0;
        for (HashPipeExperiment.Result r : o.results()) {
            if (r.algorithm().equals("hashpipe d=6") && r.k() == 60) {
                if (r.memory() == 300) {
                    small = r.falseNegativePct();
                } else {
                    large = r.falseNegativePct();
                }
            }
            assertTrue(r.falseNegativePct() >= 0 && r.falseNegativePct() <= 100);
        }
        assertTrue(large < small, "FN " + large + " at 1200 counters vs " + small + " at 300");
        String tables = HashPipeExperiment.tables(o);
        assertTrue(tables.contains("false negatives %, k = 30"));
        assertTrue(tables.contains("duplicate-key share %"));
        assertTrue(tables.contains("space saving"));
        assertTrue(tables.contains("sample&hold"));
        assertTrue(tables.contains("count-min+cache"));
        assertTrue(tables.contains("hashparallel d=6"));
    }

    @Test
    void badOptionsAreUserErrors() {
        assertThrows(UserError.class, () -> HashPipeExperiment.parse(Map.of("memory", "abc")));
        assertThrows(UserError.class, () -> HashPipeExperiment.parse(Map.of("d", "12")));
        assertThrows(UserError.class, () -> HashPipeExperiment.parse(Map.of("colour", "red")));
    }
}

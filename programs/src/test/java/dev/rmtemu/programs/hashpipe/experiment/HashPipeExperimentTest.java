package dev.rmtemu.programs.hashpipe.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.json.Json;
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
        assertTrue(a.contains("\"algorithm\":\"hashpipe d=6\",\"engine\":\"pipeline\",\"d\":6,\"memory\":1200,\"k\":60"), a);
    }

    @Test
    void everyRowSaysWhichEngineRanItAndHashPipeRowsRanOnTheSwitch() {
        HashPipeExperiment.Outcome o = HashPipeExperiment.measure(HashPipeExperiment.parse(SMALL));
        int pipeline = 0;
        for (HashPipeExperiment.Result r : o.results()) {
            String expected = r.algorithm().startsWith("hashpipe ") ? HashPipeExperiment.ENGINE_PIPELINE
                    : HashPipeExperiment.ENGINE_REFERENCE;
            assertEquals(expected, r.engine(), r.toString());
            pipeline += r.engine().equals(HashPipeExperiment.ENGINE_PIPELINE) ? 1 : 0;
        }
        assertEquals(2 * 2 * 2, pipeline); // memory x d x k
        JsonNode json = tree(HashPipeExperiment.json(o));
        assertEquals(o.results().size(), json.get("results").size());
        JsonNode fig5 = json.get("paper").get(0);
        assertEquals("abstract, Fig. 5", fig5.get("figure").asText(), json.toString());
        assertEquals("d=6, 1200 counters (nearest to 4500), k=300", fig5.get("setting").asText(), json.toString());
    }

    private static JsonNode tree(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError(json, e);
        }
    }

    @Test
    void memoryIsStatedPerPipeAndInTotalOnAFourPipeTarget() {
        // 1536 counters / 6 stages = 256 slots per stage: a power of two, so the rows fit tofino1
        Map<String, String> opts = Map.of("packets", "20000", "intervals", "1", "memory", "1536", "k", "30", "d", "6",
                "target", "tofino1");
        HashPipeExperiment.Outcome o = HashPipeExperiment.measure(HashPipeExperiment.parse(opts));
        assertEquals(4, o.pipes());
        String tables = HashPipeExperiment.tables(o);
        // (key, count) = 8 B a slot, kept twice (table + mirror) in each of tofino1's 4 pipes
        assertTrue(tables.contains("tofino1 has 4 pipes; register arrays exist in every pipe, so the tables cost 4x in total"),
                tables);
        assertTrue(tables.contains("  1536 counters, d=6: 24,576 B per pipe (table + mirror), 98,304 B in total"), tables);
        JsonNode row = tree(HashPipeExperiment.json(o)).get("results").get(0);
        assertEquals(HashPipeExperiment.ENGINE_PIPELINE, row.get("engine").asText(), row.toString());
        assertEquals(24576, row.get("memory_bytes_per_pipe").asLong(), row.toString());
        assertEquals(98304, row.get("memory_bytes_total").asLong(), row.toString());
    }

    @Test
    void rowsThatDoNotFitTheTargetAreRefusedByTheCompiler() {
        StringWriter err = new StringWriter();
        int code = dev.rmtemu.emulator.cli.Main.run(new String[] {"experiment", "hashpipe", "--opt", "packets=2000", "--opt",
            "target=tofino1", "--opt", "memory=300", "--opt", "d=6"}, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        assertEquals(3, code, err.toString());
        assertTrue(err.toString().contains("not a power of two"), err.toString());
    }

    @Test
    void ipv4KeysRefuseAnIpv6TraceAndByteCountsOfFiveTuplesAreRefused() {
        UserError e = assertThrows(UserError.class, () -> HashPipeExperiment.measure(HashPipeExperiment.parse(Map.of(
                "trace", "gen:isp?packets=2000&seed=1&ipv6=1", "key", "srcip", "intervals", "1"))));
        assertEquals("experiment hashpipe: key=srcip holds IPv4 flows only, and packet 0 of gen:isp?packets=2000&seed=1&ipv6=1"
                + " is IPv6; use key=fingerprint (a CRC-32 of the whole 5-tuple)", e.getMessage());
        e = assertThrows(UserError.class, () -> HashPipeExperiment.parse(Map.of("key", "5tuple", "count", "bytes")));
        assertTrue(e.getMessage().startsWith("hashpipe: key=5tuple with count=bytes: the 128-bit slot keeps 24 count bits"),
                e.getMessage());
    }

    @Test
    void paperScaleIsTheTenMillionPacketChunk() {
        HashPipeExperiment.Settings s = HashPipeExperiment.parse(Map.of("scale", "paper"));
        assertEquals("gen:isp?packets=10000000&seed=1", s.trace());
        assertEquals(1, s.intervals());
        assertEquals("[600, 1200, 2400, 4500, 5600]", java.util.Arrays.toString(s.memory()));
        assertEquals("[60, 150, 300]", java.util.Arrays.toString(s.ks()));
        UserError e = assertThrows(UserError.class, () -> HashPipeExperiment.parse(Map.of("scale", "huge")));
        assertEquals("experiment hashpipe: scale=huge is not ci or paper", e.getMessage());
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

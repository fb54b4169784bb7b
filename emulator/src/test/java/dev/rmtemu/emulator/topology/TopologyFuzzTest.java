package dev.rmtemu.emulator.topology;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rmtemu.model.UserError;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Fuzz target: topology files, JSON or YAML (byte 0 picks), loaded as {@code rmtemu topo}
 * and {@code replay --topology} load them: parsed, built, routed, impairments checked.
 * Contract: a topology, or a UserError naming the file; nothing else, no hang.
 */
class TopologyFuzzTest {
    static final String JSON_NAME = "fuzz-topology.json";
    static final String YAML_NAME = "fuzz-topology.yaml";

    @FuzzTest(maxDuration = "10m")
    void topologyFile(byte[] input) {
        if (input.length < 1) {
            return;
        }
        boolean yaml = (input[0] & 1) != 0;
        String name = yaml ? YAML_NAME : JSON_NAME;
        String text = new String(Arrays.copyOfRange(input, 1, input.length), StandardCharsets.UTF_8);
        try {
            Topology t = TopologyFile.parse(text, name, yaml ? TopologyFile.Format.YAML : TopologyFile.Format.JSON);
            LinkImpairments.check(t);
        } catch (UserError e) {
            if (!e.getMessage().contains(name)) {
                throw new AssertionError("refusal does not name the file: " + e.getMessage(), e);
            }
        }
    }
}

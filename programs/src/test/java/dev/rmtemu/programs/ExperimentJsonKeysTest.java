package dev.rmtemu.programs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.cli.Main;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One schema (issue 20): every experiment's {@code --json}, from a small run, has only snake_case keys
 * (no lower-then-upper letter pair anywhere in the tree) and starts with {@code schema_version}.
 */
class ExperimentJsonKeysTest {
    private static final Pattern CAMEL = Pattern.compile("[a-z][A-Z]");

    static Stream<Arguments> experiments() {
        return Stream.of(
                Arguments.of("hashpipe", List.of("packets=20000", "intervals=1", "memory=1536", "k=30", "d=6")),
                Arguments.of("lds", List.of("part=a", "packets=20000", "flows=400", "seed=3")),
                Arguments.of("midst", List.of("part=abcde", "pq_burst_packets=4000", "memories=10", "overloads=1.5", "flows=5000", "bursts=2",
                        "burst_packets=4000", "burst_sizes=4000", "interval_us=5000", "clean_sizes=20", "shrew_flows=10",
                        "shrew_ms=40", "shrew_periods_ms=15", "shrew_start_ms=5", "drop_overloads=3")),
                Arguments.of("wbmon", List.of("part=abcdef", "a_step=32", "b_max=200", "b_step=50", "c_packets=20000", "c_runs=2",
                        "d_packets=20000", "d_conv_packets=20000", "d_conv_runs=2", "d_net_packets=5000", "d_losses=0.1",
                        "d_gbps=10", "d_conv_gbps=10", "d_net_gbps=10", "e_runs=2", "e_fractions=0.4", "e_packets=2000",
                        "f_fractions=0.4", "f_faults=1", "f_placements=2", "f_subsets=2", "f_packets=2000")),
                Arguments.of("lossradar", List.of("part=abcdflmr", "a_losses=100", "a_ratios=1.5,2.0", "a_trials=5",
                        "a_trace=gen:isp?packets=5000&seed=1", "r_rules=100", "r_trials=5", "m_loss=0.01", "m_batch_ms=10",
                        "m_trials=5", "m_gbps=1", "m_packet_bytes=1000", "b_ms=20", "b_cells=24,96", "f_ms=2", "f_cells=6,192",
                        "f_burst_packets=200", "c_ms=30", "c_senders=4", "c_bursts=2", "c_burst_packets=200", "l_packets=2000")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("experiments")
    void everyKeyIsSnakeCase(String name, List<String> opts) throws IOException {
        List<String> args = new ArrayList<>(List.of("experiment", name, "--json"));
        for (String o : opts) {
            args.add("--opt");
            args.add(o);
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, err.toString());
        JsonNode root = new ObjectMapper().readTree(out.toString());
        assertEquals("schema_version", root.fieldNames().next(), out.toString());
        List<String> camel = new ArrayList<>();
        collectCamel(root, "", camel);
        assertTrue(camel.isEmpty(), name + ": camelCase keys " + camel);
        assertTrue(root.size() > 2, out.toString());
    }

    private static void collectCamel(JsonNode n, String path, List<String> camel) {
        if (n.isObject()) {
            Iterator<String> names = n.fieldNames();
            while (names.hasNext()) {
                String k = names.next();
                if (CAMEL.matcher(k).find()) {
                    camel.add(path + "/" + k);
                }
                collectCamel(n.get(k), path + "/" + k, camel);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                collectCamel(n.get(i), path + "/" + i, camel);
            }
        }
    }
}

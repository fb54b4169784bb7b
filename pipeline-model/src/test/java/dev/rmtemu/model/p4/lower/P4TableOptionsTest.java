package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.table.AlgorithmicTcam;
import dev.rmtemu.model.table.IdleTimeout;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TNA's table properties {@code idle_timeout = true} (with p4c's {@code @idletime_precision}) and
 * {@code implementation = } an {@code Alpm} lower to the table's {@link TableOptions}; what p4c
 * refuses (bf-p4c midend/alpm.cpp SplitAlpm: partitions outside {1024, 2048, 4096, 8192}, an Alpm
 * on a table without an lpm key; mau/table_layout.cpp createIdleTime: precisions 1, 2, 3, 6) is
 * refused at the construct, and so are the Alpm parameters rmtemu does not model.
 */
class P4TableOptionsTest {
    private static final String FILE = "base.p4";
    private static final String AT = "    Register<bit<32>, bit<16>>(65536) flow_count;";

    private static String program(String declarations, String keyKind, String properties, String annotation) {
        String base;
        try (InputStream in = P4TableOptionsTest.class.getResourceAsStream(FILE)) {
            base = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String table = declarations + "\n"
                + "    action set_port(PortId_t port) { ig_tm_md.ucast_egress_port = port; }\n"
                + "    " + annotation + "table routes {\n"
                + "        key = { hdr.ipv4.dst_addr : " + keyKind + "; }\n"
                + "        actions = { set_port; }\n"
                + "        size = 4096;\n"
                + properties
                + "    }\n";
        return base.replace(AT, AT + "\n" + table).replace("        ig_tm_md.ucast_egress_port = 1;\n",
                "        ig_tm_md.ucast_egress_port = 1;\n        routes.apply();\n");
    }

    private static P4Programs.Result lower(String text) {
        return P4Programs.text(FILE, text, PreprocessorOptions.defaults());
    }

    private static TableOptions options(String text) {
        P4Programs.Result r = lower(text);
        assertEquals(List.of(), r.errors().stream().map(Diagnostic::line).toList());
        MatchTable t = r.program().control(Gress.INGRESS).tables().stream().filter(x -> x.name().equals("routes")).findFirst()
                .orElseThrow();
        return t.options();
    }

    private static String error(String text) {
        List<String> lines = lower(text).errors().stream().map(Diagnostic::line).toList();
        assertEquals(1, lines.size(), lines.toString());
        return lines.get(0).replaceFirst("^base\\.p4:[0-9]+:[0-9]+: ", "");
    }

    @Test
    void idleTimeoutAndAlpmBecomeTheTablesOptions() {
        assertEquals(TableOptions.NONE, options(program("", "lpm", "", "")));
        assertEquals(new TableOptions(IdleTimeout.DEFAULT, null), options(program("", "lpm", "        idle_timeout = true;\n", "")));
        assertEquals(TableOptions.NONE, options(program("", "lpm", "        idle_timeout = false;\n", "")));
        assertEquals(new TableOptions(new IdleTimeout(1), null),
                options(program("", "lpm", "        idle_timeout = true;\n", "@idletime_precision(1) ")));
        assertEquals(new TableOptions(null, AlgorithmicTcam.alpm(2048, 4)), options(program(
                "    Alpm(number_partitions = 2048, subtrees_per_partition = 4) alpm;", "lpm",
                "        implementation = alpm;\n", "")));
        assertEquals(new TableOptions(IdleTimeout.DEFAULT, AlgorithmicTcam.alpm(1024, 2)), options(program(
                "    Alpm() alpm;", "lpm", "        implementation = alpm;\n        idle_timeout = true;\n", "")));
    }

    @Test
    void whatP4cRefusesIsRefusedAtTheConstruct() {
        assertEquals("Alpm number_partitions 1000: allowed values are 1024, 2048, 4096 and 8192",
                error(program("    Alpm(number_partitions = 1000) alpm;", "lpm", "        implementation = alpm;\n", "")));
        assertEquals("table routes: an Alpm implementation needs exactly one lpm key (midend/alpm.cpp)",
                error(program("    Alpm() alpm;", "ternary", "        implementation = alpm;\n", "")));
        assertEquals("idle time precision of 4 bits: Tofino keeps 1, 2, 3 or 6",
                error(program("", "lpm", "        idle_timeout = true;\n", "@idletime_precision(4) ")));
        assertEquals("Alpm alpm: atcam_subset_width and shift_granularity (the partition-key optimisation) are not supported by"
                + " rmtemu", error(program("    Alpm(number_partitions = 1024, atcam_subset_width = 12) alpm;", "lpm",
                "        implementation = alpm;\n", "")));
    }
}

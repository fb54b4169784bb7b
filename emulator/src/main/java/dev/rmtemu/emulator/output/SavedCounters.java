package dev.rmtemu.emulator.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.runtime.PipelineState;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's final counter values: {@code counters/NAME.csv} per counter (header
 * {@code index,packets,bytes}, one row per cell, summed over the pipes as the control plane's
 * {@code counter_read} reads them; a direct counter's index is its table entry's handle, and its
 * last row, index = its table's size, the miss entry's cell: {@link Counter#cells()}), and
 * report.json's {@code results.externs.counters} (per counter its placement, totals, the file and,
 * for counters of at most {@value #CELLS_IN_REPORT} cells, the cells that counted something).
 * A network run keeps each switch's in {@code counters/SWITCH/NAME.csv} and its reads in
 * {@code counter_reads/SWITCH.csv} (names as {@link SavedRegisters#pathPart}).
 */
public final class SavedCounters {
    /** Folder of the counter files in a run directory. */
    public static final String DIR = "counters/";
    public static final String SUFFIX = ".csv";
    /** Cells a counter may have for report.json to list its non-zero cells (its file always has all). */
    public static final int CELLS_IN_REPORT = 1024;
    /** The key under report.json's {@code results}. */
    public static final String RESULTS_KEY = "externs";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SavedCounters() {
    }

    public static String fileName(String counter) {
        return DIR + counter + SUFFIX;
    }

    /** The control script's counter_read answers, when it asked any: {@code where,cycle,counter,index,packets,bytes}. */
    public static final String READS = "counter_reads.csv";

    /** A counter's file in a network run: in its switch's folder. */
    public static String fileName(String switchName, String counter) {
        return switchName == null ? fileName(counter)
                : DIR + SavedRegisters.pathPart(switchName) + "/" + SavedRegisters.pathPart(counter) + SUFFIX;
    }

    /** The counter_read answers' file: {@link #READS}, or in a network run {@code counter_reads/SWITCH.csv}. */
    public static String readsFileName(String switchName) {
        return switchName == null ? READS : "counter_reads/" + SavedRegisters.pathPart(switchName) + SUFFIX;
    }

    /** The files {@link #write} writes, for the manifest. */
    static List<String> names(PipelineState s) {
        return names(s, null);
    }

    /** The files {@link #write(PipelineState, String, RunDirectory)} writes ({@code switchName} null: a single-switch run). */
    static List<String> names(PipelineState s, String switchName) {
        List<String> out = new ArrayList<>();
        if (!s.counterReads().isEmpty()) {
            out.add(readsFileName(switchName));
        }
        for (Counter c : s.program().counters()) {
            out.add(fileName(switchName, c.name()));
        }
        return out;
    }

    static void write(PipelineState s, RunDirectory rd) {
        write(s, null, rd);
    }

    /** Writes one switch's counters ({@code switchName} null: a single-switch run). */
    static void write(PipelineState s, String switchName, RunDirectory rd) {
        if (!s.counterReads().isEmpty()) {
            StringBuilder b = new StringBuilder("where,cycle,counter,index,packets,bytes\n");
            for (PipelineState.CounterRead r : s.counterReads()) {
                b.append('"').append(r.where().replace("\"", "\"\"")).append("\",").append(r.cycle()).append(',')
                        .append(r.counter()).append(',').append(r.index()).append(',')
                        .append(Long.toUnsignedString(r.packets())).append(',').append(Long.toUnsignedString(r.bytes()))
                        .append('\n');
            }
            rd.writeString(readsFileName(switchName), b.toString());
        }
        for (Counter c : s.program().counters()) {
            StringBuilder b = new StringBuilder(c.cells() * 8 + 32).append("index,packets,bytes\n");
            for (int i = 0; i < c.cells(); i++) {
                long[] v = s.readCounter(c.name(), i);
                b.append(i).append(',').append(Long.toUnsignedString(v[0])).append(',')
                        .append(Long.toUnsignedString(v[1])).append('\n');
            }
            rd.writeString(fileName(switchName, c.name()), b.toString());
        }
    }

    /** {@code {"counters": {NAME: {...}}}} for report.json's results; null when the program has no counters. */
    static ObjectNode json(PipelineState s) {
        if (s.program().counters().isEmpty()) {
            return null;
        }
        ObjectNode counters = JSON.createObjectNode();
        for (Counter c : s.program().counters()) {
            ObjectNode o = counters.putObject(c.name());
            o.put("gress", c.gress().label());
            o.put("stage", c.stage());
            o.put("type", c.type().name());
            o.put("width", c.widthBits());
            o.put("size", c.size());
            o.put("cell_count", c.cells());
            if (c.direct()) {
                o.put("direct_on", c.table().name());
            }
            o.put("file", fileName(c.name()));
            long packets = 0;
            long bytes = 0;
            ArrayNode cells = JSON.createArrayNode();
            for (int i = 0; i < c.cells(); i++) {
                long[] v = s.readCounter(c.name(), i);
                packets += v[0];
                bytes += v[1];
                if ((v[0] != 0 || v[1] != 0) && c.cells() <= CELLS_IN_REPORT) {
                    ObjectNode cell = cells.addObject();
                    cell.put("index", i);
                    cell.put("packets", v[0]);
                    cell.put("bytes", v[1]);
                }
            }
            o.put("packets", packets);
            o.put("bytes", bytes);
            if (c.cells() <= CELLS_IN_REPORT) {
                o.set("cells", cells);
            }
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("counters", counters);
        return out;
    }
}

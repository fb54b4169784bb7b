package dev.rmtemu.emulator.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.rundir.RunDirectory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The results of every program of a run, by program name (sorted, so the order never depends
 * on a hash): report.json's {@code results} object, the CSV tables of {@value #DIR}/ and the
 * terminal sections all come from these records.
 */
public final class RunResults {
    /** Subdirectory of the run directory holding one CSV file per results table. */
    public static final String DIR = "results";

    /** No program results (a program without a report, or a run that ended early). */
    public static final RunResults NONE = new RunResults(new TreeMap<>());

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SortedMap<String, ProgramResults> byProgram;

    private RunResults(SortedMap<String, ProgramResults> byProgram) {
        this.byProgram = Collections.unmodifiableSortedMap(byProgram);
    }

    /** The results of {@code byProgram} (a program mapped to null has none and is left out). */
    public static RunResults of(Map<String, ProgramResults> byProgram) {
        TreeMap<String, ProgramResults> m = new TreeMap<>();
        byProgram.forEach((k, v) -> {
            if (v != null) {
                m.put(k, v);
            }
        });
        return new RunResults(m);
    }

    public SortedMap<String, ProgramResults> byProgram() {
        return byProgram;
    }

    /** report.json's {@code results}: one object per program. */
    public ObjectNode json() {
        ObjectNode o = JSON.createObjectNode();
        byProgram.forEach((name, r) -> o.set(name, JSON.valueToTree(r)));
        return o;
    }

    /** One CSV table per list of rows of each program's results, named {@code PROGRAM_TABLE}. */
    public List<CsvTables.Table> tables() {
        List<CsvTables.Table> out = new ArrayList<>();
        for (Map.Entry<String, ProgramResults> e : byProgram.entrySet()) {
            for (CsvTables.Table t : CsvTables.of(text(JSON.valueToTree(e.getValue())))) {
                out.add(new CsvTables.Table(e.getKey() + "_" + t.name(), t.columns(), t.rows()));
            }
        }
        return out;
    }

    /** The tables of one program's results, by their own names (without the program's prefix). */
    public static List<CsvTables.Table> tablesOf(ProgramResults r) {
        return CsvTables.of(text(JSON.valueToTree(r)));
    }

    /** The run-directory name of {@code table}'s CSV file. */
    public static String fileName(CsvTables.Table table) {
        return DIR + "/" + table.name() + ".csv";
    }

    /** The names {@link #write} writes, for the run directory's manifest. */
    public List<String> fileNames() {
        List<String> names = new ArrayList<>();
        for (CsvTables.Table t : tables()) {
            names.add(fileName(t));
        }
        return names;
    }

    /** Writes every table as {@value #DIR}/PROGRAM_TABLE.csv. */
    public void write(RunDirectory rd) {
        for (CsvTables.Table t : tables()) {
            rd.writeString(fileName(t), t.csv());
        }
    }

    /** Every program's terminal section, in program order. */
    public String render() {
        StringBuilder b = new StringBuilder();
        byProgram.values().forEach(r -> b.append(r.render()));
        return b.toString();
    }

    private static String text(JsonNode n) {
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("program results do not serialise: " + e.getOriginalMessage(), e);
        }
    }
}

package dev.rmtemu.emulator.spi;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunResultsTest {
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Flow(int rank, String fiveTuple, @JsonProperty("true") long trueCount, Double error) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Toy(int slotsPerStage, List<Flow> topFlows, List<Flow> none) implements ProgramResults {
        @Override
        public String render() {
            return "toy " + topFlows.size() + "\n";
        }
    }

    @Test
    void jsonCsvAndSummaryComeFromTheSameRecordsInProgramOrder() {
        Map<String, ProgramResults> m = new LinkedHashMap<>();
        m.put("zeta", new NoteResults("zeta: nothing to say"));
        m.put("alpha", new Toy(32, List.of(new Flow(1, "a > b, c", 7, 0.25), new Flow(2, "x", 3, null)), List.of()));
        m.put("none", null);
        RunResults r = RunResults.of(m);

        assertEquals("{\"alpha\":{\"slots_per_stage\":32,\"top_flows\":[{\"rank\":1,\"five_tuple\":\"a > b, c\",\"true\":7,"
                + "\"error\":0.25},{\"rank\":2,\"five_tuple\":\"x\",\"true\":3,\"error\":null}],\"none\":[]},"
                + "\"zeta\":{\"note\":\"zeta: nothing to say\"}}", r.json().toString());
        List<CsvTables.Table> tables = r.tables();
        assertEquals(1, tables.size(), "a table without rows has no file");
        assertEquals("alpha_top_flows", tables.get(0).name());
        assertEquals("rank,five_tuple,true,error\n1,\"a > b, c\",7,0.25\n2,x,3,\n", tables.get(0).csv());
        assertEquals(List.of("results/alpha_top_flows.csv"), r.fileNames());
        assertEquals("toy 2\nzeta: nothing to say\n", r.render());
    }
}

package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.spi.CsvTables;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ExperimentPlotsTest {
    @Test
    void oneChartPerMeasuredColumnAgainstTheParameterWithALinePerMethod() {
        String json = "{\"sweep\":[{\"method\":\"a\",\"memory_kb\":1,\"error_pct\":5.5,\"k\":10,\"fn_pct\":1},"
                + "{\"method\":\"a\",\"memory_kb\":2,\"error_pct\":3,\"k\":10,\"fn_pct\":0},"
                + "{\"method\":\"b\",\"memory_kb\":1,\"error_pct\":7,\"k\":10,\"fn_pct\":2},"
                + "{\"method\":\"b\",\"memory_kb\":2,\"error_pct\":4,\"k\":10,\"fn_pct\":1}]}";
        List<ObjectNode> charts = ExperimentPlots.charts("x", CsvTables.of(json).get(0));
        // k is the same on every row: not a parameter and not worth a chart
        assertEquals(2, charts.size());
        ObjectNode error = charts.get(0);
        assertEquals("x sweep: error_pct", error.get("title").get("text").asText());
        assertEquals("memory_kb", error.get("xAxis").get("name").asText());
        assertEquals("error_pct", error.get("yAxis").get("name").asText());
        assertEquals("[{\"type\":\"line\",\"name\":\"a\",\"data\":[[1,5.5],[2,3]]},"
                + "{\"type\":\"line\",\"name\":\"b\",\"data\":[[1,7],[2,4]]}]", error.get("series").toString());
        assertEquals("fn_pct", charts.get(1).get("yAxis").get("name").asText());
    }

    @Test
    void aTableWithoutANumericParameterGetsBarsPerRowAndAConstantTableNoFigure() {
        String json = "{\"causes\":[{\"cause\":\"acl\",\"truth\":4},{\"cause\":\"blackhole\",\"truth\":9}],"
                + "\"single\":[{\"k\":3}]}";
        List<CsvTables.Table> tables = CsvTables.of(json);
        List<ObjectNode> bars = ExperimentPlots.charts("x", tables.get(0));
        assertEquals(1, bars.size());
        assertEquals("[\"acl\",\"blackhole\"]", bars.get(0).get("xAxis").get("data").toString());
        assertEquals("[4,9]", bars.get(0).get("series").get(0).get("data").toString());
        assertEquals(List.of(), ExperimentPlots.charts("x", tables.get(1)));
        assertEquals(List.of("causes"), ExperimentPlots.of("x", tables).stream().map(ExperimentPlots.Figure::table).toList());
    }
}

package dev.rmtemu.emulator.spi;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CsvTablesTest {
    @Test
    void everyTopLevelArrayOfObjectsIsOneTableAndNothingElseIs() {
        List<CsvTables.Table> t = CsvTables.of("{\"experiment\":\"x\",\"options\":{\"a\":\"1\"},\"empty\":[],\"numbers\":[1,2],"
                + "\"first\":[{\"a\":1}],\"paper\":{\"rows\":[{\"b\":2}]},\"second\":[{\"b\":2}]}");
        assertEquals(List.of("first", "second"), t.stream().map(CsvTables.Table::name).toList());
    }

    @Test
    void cellsAreQuotedOnlyWhenTheyHoldACommaAQuoteOrALineBreak() {
        assertEquals("plain text", CsvTables.quote("plain text"));
        assertEquals("\"a,b\"", CsvTables.quote("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", CsvTables.quote("say \"hi\""));
        assertEquals("\"two\nlines\"", CsvTables.quote("two\nlines"));
        assertEquals("label,n\n\"SDS 1x, \"\"wide\"\"\",3\n",
                CsvTables.of("{\"rows\":[{\"label\":\"SDS 1x, \\\"wide\\\"\",\"n\":3}]}").get(0).csv());
    }

    @Test
    void numbersArePlainWithTheJsonsDigitsAndNullIsEmpty() {
        String csv = CsvTables.of("{\"r\":[{\"big\":1.00000e+06,\"small\":1.23457e-05,\"half\":0.500000,\"zero\":0.0000,"
                + "\"neg\":-2.50,\"int\":12345678901234,\"none\":null,\"ok\":true,\"nan\":NaN,\"inf\":-Infinity}]}").get(0).csv();
        assertEquals("big,small,half,zero,neg,int,none,ok,nan,inf\n1000000,0.0000123457,0.5,0,-2.5,12345678901234,,true,,-inf\n", csv);
    }

    @Test
    void camelCaseKeysBecomeSnakeCaseAndNestedObjectsBecomePrefixedColumns() {
        String csv = CsvTables.of("{\"results\":[{\"falseNegativePct\":1,\"query\":{\"f1\":0.5,\"trueHeavy\":2},\"ids\":[3,4]}]}")
                .get(0).csv();
        assertEquals("false_negative_pct,query_f1,query_true_heavy,ids\n1,0.5,2,3 4\n", csv);
    }

    @Test
    void aNestedArrayOfObjectsExpandsItsRowAndColumnsAreTheUnionInFirstSeenOrder() {
        CsvTables.Table t = CsvTables.of("{\"rows\":[{\"part\":\"a\",\"loss\":0,\"groups\":[{\"group\":\"small\",\"flows\":3},"
                + "{\"group\":\"large\",\"flows\":1,\"loss\":0.25}]},{\"part\":\"b\",\"extra\":7}]}").get(0);
        assertEquals(List.of("part", "loss", "group", "flows", "groups_loss", "extra"), t.columns());
        assertEquals("part,loss,group,flows,groups_loss,extra\na,0,small,3,,\na,0,large,1,0.25,\nb,,,,,7\n", t.csv());
    }

    @Test
    void aRowWithTwoArraysOfObjectsIsRefusedAsTheBugItIs() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CsvTables.of("{\"t\":[{\"x\":[{\"a\":1}],\"y\":[{\"b\":2}]}]}"));
        assertEquals("experiment JSON table 't': a row holds two arrays of objects ('x', 'y'); one CSV table cannot hold both",
                e.getMessage());
    }
}

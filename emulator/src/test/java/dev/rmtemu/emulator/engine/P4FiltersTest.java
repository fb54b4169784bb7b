package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * TNA's Lpf and DirectWred written in P4 ({@code p4/filtered_forwarder.p4}) lower to the IR's
 * meter-ALU externs, are placed, cost what p4c counts and filter packets exactly: each frame
 * that leaves carries the LPF's output in sample.filtered, and the WRED drops the frames its
 * seeded RED decides.
 */
class P4FiltersTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final long KNOWN = 0x020000000002L;
    /** tofino1 runs 1.22 GHz: 1,220 cycles are 1,000 ns exactly. */
    private static final long US = 1220;

    private static StageProgram placed(String text) {
        return ProgramCompiler.compile(P4Programs.text("filtered_forwarder.p4", text, PreprocessorOptions.defaults()).require(),
                TOFINO1).requireAccepted().program();
    }

    @Test
    void lpfAndWredLowerAndArePlacedWithTheirUsers() {
        StageProgram p = placed(P4RouterTest.resource("filtered_forwarder.p4"));
        Meter average = p.meter("average");
        Meter early = p.meter("early_drop");
        assertEquals(List.of(Meter.Algorithm.LPF, 16, 2, false), List.of(average.algorithm(), average.outputBits(), average.size(),
                average.direct()));
        assertEquals(List.of(Meter.Algorithm.WRED, 1, 0, 16, "dmac"), List.of(early.algorithm(), early.dropValue(),
                early.noDropValue(), early.size(), early.table().name()));
        assertEquals(List.of(0, 0), List.of(average.stage(), early.stage()));
        // p4c: one cell a word plus the spare bank, map RAMs; a meter ALU each (see FilterResourcesTest)
        ResourceReport r = ResourceChecker.check(p, TOFINO1);
        assertEquals(List.of(2L, 2L), List.of(r.tables().stream().filter(t -> t.name().equals("average")).findFirst()
                .orElseThrow().srams(), r.tables().stream().filter(t -> t.name().equals("early_drop")).findFirst()
                .orElseThrow().srams()));
        assertEquals(2, r.stages().get(0).statefulAlus());
    }

    /**
     * Eight frames 1 us apart, sample values 1000, 0, 1000, 1000, 0, 0, 1000, 500 and depth 20.
     * LPF SAMPLE, gain 1000 ns, decay 2000 ns: averages 1000, 606.5307, 855.2507, 946.7497,
     * 574.2327, 348.2898, 760.2492, 657.8491 (LpfCellsTest's equations). WRED, time constant 0,
     * thresholds 10 and 30, max probability 0.5: at avg 20 pb = 0.25; the DirectWred is the
     * program's meter 1, so its draws are SplitMix64 from 0x57524544 + 1 (WredCellsTest): keep,
     * keep, drop, keep, drop, keep, keep, drop.
     */
    @Test
    void framesCarryTheFilteredValueAndRedDropsWhatItsDrawsDecide() throws Exception {
        StageProgram p = placed(P4RouterTest.resource("filtered_forwarder.p4"));
        assertEquals(1, p.meter("early_drop").id());
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
        e.state().addExact("dmac", new long[] {KNOWN}, 1, 7);
        e.state().setLpfParams("average", 0, dev.rmtemu.model.extern.LpfType.SAMPLE, 1000, 2000, 0);
        e.state().setWredParams("early_drop", 0, 0, 10, 30, 0.5);
        List<Long> numbers = new ArrayList<>();
        List<Integer> filtered = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            numbers.add(pool.packetNumber(slot));
            int at = pool.frameOffset(slot) + 14 + 2;
            filtered.add(((pool.frameArray()[at] & 0xff) << 8) | (pool.frameArray()[at + 1] & 0xff));
        });
        int[] values = {1000, 0, 1000, 1000, 0, 0, 1000, 500};
        for (int i = 0; i < values.length; i++) {
            byte[] f = TestFrames.frame().ethernet(KNOWN, 0x020000000009L, 0x88B5).u16(values[i]).u16(0).u16(20)
                    .payload("filtered").build();
            e.arrive(10 * US + i * US, 1, TestFrames.record(f));
        }
        e.drain();
        assertEquals(List.of(0L, 1L, 3L, 5L, 6L), numbers);
        assertEquals(List.of(1000, 606, 946, 348, 760), filtered);
        assertEquals(3, e.counters().droppedTotal());
    }

    @Test
    void aDirectLpfBelongsToTheTableItsFiltersPropertyNames() {
        StageProgram p = placed(P4RouterTest.resource("filtered_forwarder.p4")
                .replace("DirectWred<bit<16>>(8w1, 8w0) early_drop;", "DirectLpf<bit<16>>() early_drop;"));
        Meter lpf = p.meter("early_drop");
        assertEquals(List.of(Meter.Algorithm.LPF, 16, true, "dmac", 0), List.of(lpf.algorithm(), lpf.outputBits(), lpf.direct(),
                lpf.table().name(), lpf.stage()));
    }

    @Test
    void aDirectFilterNoTableNamesIsRefusedWithItsPlace() {
        String text = P4RouterTest.resource("filtered_forwarder.p4").replace("        filters = early_drop;\n", "")
                .replace("        ig_md.mark = early_drop.execute(hdr.sample.depth);\n", "");
        int line = text.substring(0, text.indexOf("    DirectWred")).split("\n", -1).length;
        P4Programs.Result r = P4Programs.text("filtered_forwarder.p4", text, PreprocessorOptions.defaults());
        assertEquals(List.of("filtered_forwarder.p4:" + line + ":5: DirectWred early_drop is attached to no table (name it in"
                + " a table's filters property)"), r.errors().stream().map(Diagnostic::line).toList());
    }

    @Test
    void anLpfWiderThanTheMeterAluIsRefusedItsTwinFits() {
        String wide = P4RouterTest.resource("filtered_forwarder.p4").replace("Lpf<bit<16>, bit<1>>(2) average;",
                "Lpf<bit<40>, bit<1>>(2) average;");
        int line = wide.substring(0, wide.indexOf("    Lpf<")).split("\n", -1).length;
        P4Programs.Result r = P4Programs.text("filtered_forwarder.p4", wide, PreprocessorOptions.defaults());
        assertEquals(List.of("filtered_forwarder.p4:" + line + ":9: Lpf average: a value of 40 bits; the meter ALU filters at"
                + " most 32"), r.errors().stream().map(Diagnostic::line).toList());
        String fits = wide.replace("bit<40>", "bit<32>");
        assertEquals(List.of(), P4Programs.text("filtered_forwarder.p4", fits, PreprocessorOptions.defaults()).errors());
    }
}

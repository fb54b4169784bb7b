package dev.rmtemu.model.runtime;

import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.LpfType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.P4Printer;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Java IR program with an indirect LPF, a direct LPF and a WRED, through both back ends (the
 * interpreter and the generated code): the same outputs, the ones LpfCellsTest and WredCellsTest
 * compute by hand.
 */
class FilterRuntimeTest {
    private final Field value;
    private final Field dst;
    private final Field avg;
    private final Field rate;
    private final Field mark;
    private final StageProgram program;

    FilterRuntimeTest() {
        ProgramBuilder b = ProgramBuilder.create("filters", "lpf and wred");
        value = b.bridged("value", 16);
        dst = b.bridged("dst", 16);
        avg = b.metadata(Gress.INGRESS, "avg", 16);
        rate = b.metadata(Gress.INGRESS, "rate", 16);
        mark = b.metadata(Gress.INGRESS, "mark", 8);
        ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
        Meter lpf = s.lpf("avg_value", 16, 2);
        MatchTable t = s.table("by_dst", MatchKind.EXACT, 16, 0, dst);
        Meter direct = s.directLpf("dst_rate", 16, t);
        Meter red = s.wred("early_drop", 1, 7, 2);
        s.body(body -> {
            body.filter(lpf, Ir.read(value), Ir.constant(1));
            body.set(avg, Ir.filterOutput(lpf));
            body.apply(t).on(1, a -> a.filterDirect(direct, Ir.read(value)).set(rate, Ir.filterOutput(direct)));
            body.filter(red, Ir.constant(20), Ir.constant(0));
            body.set(mark, Ir.filterOutput(red));
        });
        program = b.build();
    }

    @Test
    void bothBackendsFilterAsTheEquationsSay() {
        Compilation c = ProgramCompiler.compile(program, TargetProfiles.builtIn("tofino1"));
        assertTrue(c.accepted(), () -> String.valueOf(c.lines()));
        int[] values = {1000, 0, 1000, 1000, 0, 0};
        for (Backend backend : Backend.values()) {
            PipelineState s = new PipelineState(program, 1);
            s.addExact("by_dst", new long[] {5}, 1, 0);
            s.setLpfParams("avg_value", 1, LpfType.SAMPLE, 1000, 2000, 0);
            s.setLpfParams("dst_rate", 0, LpfType.RATE, 1000, 0, 2);
            s.setWredParams("early_drop", 0, 0, 10, 30, 0.5);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(program.fields().size());
            List<List<Long>> out = new ArrayList<>();
            for (int i = 0; i < values.length; i++) {
                phv.clear();
                phv.load(value, values[i]);
                phv.load(dst, 5);
                phv.stamp(64, 1000L * i);
                x.run(phv, 0, Gress.INGRESS, i);
                out.add(List.of(phv.get(avg), phv.get(rate), phv.get(mark)));
            }
            // avg: SAMPLE gain 1000 ns, decay 2000 ns; rate: RATE tau 1000 ns, / 4, of 1000, 0, 1000, 1000, 0, 0
            // (1000, 367.8794, 1135.3353, 1417.6665, 521.5304, 191.8603); mark: RED at avg 20, pb 0.25, the
            // program's meter 2 draws from 0x57524544 + 2: 0.2921, 0.0770, 0.9503, 0.7770, 0.1629, 0.3367
            assertEquals(List.of(
                    List.of(1000L, 250L, 2L),
                    List.of(606L, 91L, 7L),
                    List.of(855L, 283L, 2L),
                    List.of(946L, 354L, 2L),
                    List.of(574L, 130L, 7L),
                    List.of(348L, 47L, 2L)), out, backend.name());
        }
    }

    @Test
    void showPrintsThemAsTnaDeclaresThem() {
        String p4 = P4Printer.print(program);
        assertTrue(p4.contains("Lpf<bit<16>, _>(2) avg_value;"), p4);
        assertTrue(p4.contains("DirectLpf<bit<16>>() dst_rate;  // filters = dst_rate on table by_dst"), p4);
        assertTrue(p4.contains("Wred<_, _>(1, 7, 2) early_drop;"), p4);
        assertTrue(p4.contains("avg_value.out = avg_value.execute(value, 1);"), p4);
    }
}

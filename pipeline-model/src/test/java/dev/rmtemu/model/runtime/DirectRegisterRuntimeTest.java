package dev.rmtemu.model.runtime;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A direct register in a Java IR program (ProgramBuilder.directRegister, Block.executeDirect):
 * its cell is the handle of the entry that hit, or on a miss the miss cell (index = the table's
 * size), on both back ends; outside its table's actions, or at an index, it is refused.
 */
class DirectRegisterRuntimeTest {
    private static final int SIZE = 16;

    /** Counts packets per entry: {@code out = ++seen[entry]} in the hit action and in the miss block. */
    private static final class P {
        final StageProgram program;
        final Field key;
        final Field out;

        P() {
            ProgramBuilder b = ProgramBuilder.create("direct", "a direct register counting packets per entry");
            key = b.bridged("k", 16);
            out = b.metadata(Gress.INGRESS, "seen", 32);
            ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
            MatchTable t = s0.table("t", MatchKind.EXACT, SIZE, 0, key);
            RegisterArray seen = s0.directRegister("seen", 32, false, t);
            RegisterAction inc = s0.action(RegisterAction.on(seen, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1))
                    .output(RegisterAction.OutputSource.NEW_LO));
            s0.body(code -> code.apply(t).on(1, hit -> hit.executeDirect(inc, Ir.constant(0), Ir.constant(0))
                    .set(out, Ir.output(inc))).miss(miss -> miss.executeDirect(inc, Ir.constant(0), Ir.constant(0))
                    .set(out, Ir.output(inc))));
            program = b.build();
        }
    }

    @Test
    void eachEntryCountsInItsCellAndTheMissInTheMissCellOnBothBackEnds() {
        for (Backend backend : Backend.values()) {
            P p = new P();
            PipelineState s = new PipelineState(p.program, 1);
            assertEquals(0, s.addExact("t", new long[] {5}, 1, 0));
            assertEquals(1, s.addExact("t", new long[] {7}, 1, 0));
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            List<Long> outs = new ArrayList<>();
            long[] keys = {5, 7, 5, 9, 5};
            for (int i = 0; i < keys.length; i++) {
                phv.clear();
                phv.load(p.key, keys[i]);
                phv.stamp(60, 0);
                x.run(phv, 0, Gress.INGRESS, i);
                outs.add(phv.get(p.out));
            }
            assertEquals(List.of(1L, 1L, 2L, 1L, 3L), outs, backend.name());
            assertEquals(List.of(3L, 1L, 0L, 1L), List.of(s.readRegister(0, "seen", 0), s.readRegister(0, "seen", 1),
                    s.readRegister(0, "seen", 2), s.readRegister(0, "seen", SIZE)), backend.name());
        }
    }

    /**
     * Sized as bf-p4c sizes a direct attached table (mau/resource_estimate.cpp
     * StageUseEstimate::calculate_attached_rams: {@code attached_entries = lo->entries}, the
     * entries the match table's layout holds, not its declared size): the 16-entry exact table
     * is laid out at the minimum hash ways, 20,480 entries, so 32-bit cells, 4 a word, take
     * ceil(20480 / 4096) = 5 RAMs and the spare. One stateful ALU; no logical table of its own.
     */
    @Test
    void itIsSizedByItsTableAndNeedsNoLogicalTableOfItsOwn() {
        ResourceReport r = ResourceChecker.check(ProgramCompiler.compile(new P().program, TargetProfiles.builtIn("tofino1"))
                .requireAccepted().program(), TargetProfiles.builtIn("tofino1"));
        var u = r.tables().stream().filter(t -> t.name().equals("seen")).findFirst().orElseThrow();
        assertEquals(List.of(6L, "entries of its table's layout: ceil(20480 / (1024 x 4 per word)) = 5 data + 1 spare"),
                List.of(u.srams(), u.sizedBy()));
        var s0 = r.stages().stream().filter(s -> s.stage() == 0 && s.gress() == Gress.INGRESS).findFirst().orElseThrow();
        assertEquals(List.of(1, 1), List.of(s0.statefulAlus(), s0.logicalTables()));
    }

    @Test
    void outsideItsTablesActionsOrAtAnIndexItIsRefused() {
        ProgramBuilder b = ProgramBuilder.create("outside", "runs a direct register outside its table");
        Field k = b.bridged("k", 16);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        MatchTable t = s0.table("t", MatchKind.EXACT, SIZE, 0, k);
        RegisterArray seen = s0.directRegister("seen", 32, false, t);
        RegisterAction inc = s0.action(RegisterAction.on(seen, "inc").updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1)));
        s0.body(code -> {
            code.apply(t).on(1, a -> a.executeDirect(inc, Ir.constant(0), Ir.constant(0)));
            code.executeDirect(inc, Ir.constant(0), Ir.constant(0));
        });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("ingress stage 0: direct register seen is used outside an action of table t (a direct cell is the entry"
                + " that hit, or the miss entry's)", e.getMessage());
        IllegalArgumentException indexed = assertThrows(IllegalArgumentException.class,
                () -> new Block().execute(inc, Ir.constant(3)));
        assertEquals("register seen is direct on table t: its cell is the entry that hit, not an index", indexed.getMessage());
    }
}

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import static dev.rmtemu.model.ir.Ir.actionData;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An action selector hashes its table's selector key fields where the table matches, so a field
 * an earlier table's action writes is a match dependency (bf-p4c mau/table_dependency_graph.cpp:
 * the selector's hash inputs are the table's reads, on the input crossbar with its key): the
 * table goes one stage later; its twin hashing a field nothing writes shares stage 0.
 */
class SelectorPlacementTest {
    private static int ecmpStage(boolean hashWrittenField) {
        ProgramBuilder b = ProgramBuilder.create("sel", "selector placement");
        Field dst = b.bridged("dst", 16);
        Field src = b.bridged("src", 16);
        Field m = b.metadata(Gress.INGRESS, "m", 16);
        Field out = b.metadata(Gress.INGRESS, "out", 16);
        ProgramBuilder.ControlBuilder c = b.control(Gress.INGRESS);
        MatchTable first = c.table("first", MatchKind.EXACT, 16, 16, TableActions.of("none", TableAction.of(1, "set_m", "v", 16)),
                dst);
        MatchTable ecmp = c.table("ecmp", MatchKind.EXACT, 16, 16, TableActions.of("miss", TableAction.of(1, "set_out", "v", 16)),
                dst);
        c.actionSelector("ecmp_ap", 16, "ecmp_sel", HashAlgorithm.byName("crc16"), 14, SelectorMode.FAIR, 8, 4, ecmp,
                hashWrittenField ? m : src);
        c.apply(code -> {
            code.apply(first).on(1, a -> a.set(m, actionData(first)));
            code.apply(ecmp).on(1, a -> a.set(out, actionData(ecmp)));
        });
        StageProgram placed = ProgramCompiler.compile(b.build(), TargetProfiles.builtIn("tofino1")).requireAccepted().program();
        return placed.table("ecmp").stage();
    }

    @Test
    void aSelectorKeyWrittenByAnEarlierActionIsAMatchDependency() {
        assertEquals(1, ecmpStage(true));
        assertEquals(0, ecmpStage(false));
    }
}

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.List;

/** The stages of a program, in gress and stage order. */
final class IrStages {
    private IrStages() {
    }

    static List<StageDecl> of(StageProgram p) {
        List<StageDecl> out = new ArrayList<>();
        for (Gress g : Gress.values()) {
            for (StageDecl d : p.stages(g)) {
                out.add(d);
            }
        }
        return out;
    }
}

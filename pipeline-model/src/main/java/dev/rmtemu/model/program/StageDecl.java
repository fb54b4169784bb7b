package dev.rmtemu.model.program;

import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;

/**
 * What one stage of one gress declares, and its action code: the IR body
 * ({@code body}, run by the interpreter or the generated class) or, for a stage
 * still written with the old lambda API, only {@code action} ({@code body} null).
 */
public record StageDecl(
        Gress gress,
        int number,
        StageDependency dependency,
        List<HashUnit> hashes,
        List<RegisterArray> registers,
        List<RegisterAction> registerActions,
        List<MatchTable> tables,
        StageAction action,
        List<Stmt> body) {

    public StageDecl {
        hashes = List.copyOf(hashes);
        registers = List.copyOf(registers);
        registerActions = List.copyOf(registerActions);
        tables = List.copyOf(tables);
        body = body == null ? null : List.copyOf(body);
    }

    /** True when the stage's code is IR (checked statically and compilable), not a lambda. */
    public boolean hasIr() {
        return body != null;
    }
}

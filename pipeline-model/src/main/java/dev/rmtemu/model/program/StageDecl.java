package dev.rmtemu.model.program;

import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;

/** What one stage of one gress declares, and its action code. */
public record StageDecl(
        Gress gress,
        int number,
        StageDependency dependency,
        List<HashUnit> hashes,
        List<RegisterArray> registers,
        List<RegisterAction> registerActions,
        List<MatchTable> tables,
        StageAction action) {

    public StageDecl {
        hashes = List.copyOf(hashes);
        registers = List.copyOf(registers);
        registerActions = List.copyOf(registerActions);
        tables = List.copyOf(tables);
    }
}

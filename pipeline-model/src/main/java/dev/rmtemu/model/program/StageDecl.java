package dev.rmtemu.model.program;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.IrInterpreter;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;

/**
 * What one stage of one gress declares (hashes, registers, tables, counters, meters), and its code: the IR body, run by the
 * generated class of its gress or by {@code interpreter} (the reference).
 */
public record StageDecl(
        Gress gress,
        int number,
        StageDependency dependency,
        List<HashUnit> hashes,
        List<RegisterArray> registers,
        List<RegisterAction> registerActions,
        List<MatchTable> tables,
        IrInterpreter interpreter,
        List<Stmt> body,
        List<Counter> counters,
        List<Meter> meters) {

    /** A stage without counters or meters. */
    public StageDecl(Gress gress, int number, StageDependency dependency, List<HashUnit> hashes, List<RegisterArray> registers,
                     List<RegisterAction> registerActions, List<MatchTable> tables, IrInterpreter interpreter, List<Stmt> body) {
        this(gress, number, dependency, hashes, registers, registerActions, tables, interpreter, body, List.of(), List.of());
    }

    public StageDecl {
        counters = List.copyOf(counters);
        meters = List.copyOf(meters);
        hashes = List.copyOf(hashes);
        registers = List.copyOf(registers);
        registerActions = List.copyOf(registerActions);
        tables = List.copyOf(tables);
        body = List.copyOf(body);
    }
}

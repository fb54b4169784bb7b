package dev.rmtemu.model.program;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One gress written as a P4 control rather than as stages: its hash units, register arrays,
 * register actions, tables, counters and meters, none placed ({@link StageProgram#UNPLACED}),
 * and its apply body in program order. The compiler's table placement turns it into stages.
 * {@code pins} are the {@code @stage(N)} annotations, by element name (a table, register array,
 * hash unit, counter or meter).
 */
public record ControlDecl(Gress gress, List<HashUnit> hashes, List<RegisterArray> registers,
                          List<RegisterAction> registerActions, List<MatchTable> tables, List<Counter> counters,
                          List<Meter> meters, Map<String, Integer> pins, List<Stmt> body) {
    public ControlDecl {
        counters = List.copyOf(counters);
        meters = List.copyOf(meters);
        hashes = List.copyOf(hashes);
        registers = List.copyOf(registers);
        registerActions = List.copyOf(registerActions);
        tables = List.copyOf(tables);
        pins = Collections.unmodifiableSortedMap(new TreeMap<>(pins));
        body = List.copyOf(body);
    }
}

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a match table was placed and the earliest stage its match dependencies
 * allow: one stage after the last earlier stage that writes a field of its key.
 * The gap is slack a compiler could use to pack stages tighter.
 */
public record TablePlacement(Gress gress, String table, int stage, int earliestStage) {

    static List<TablePlacement> of(StageProgram p) {
        List<TablePlacement> out = new ArrayList<>();
        for (Gress g : Gress.values()) {
            Map<Field, Integer> lastWrite = new HashMap<>();
            for (StageDecl d : p.stages(g)) {
                IrWalk.forEachStmt(d.body(), s -> s.accept(new Stmt.Visitor<Void>() {
                    @Override
                    public Void count(Stmt.Count x) {
                        return null;
                    }

                    @Override
                    public Void meter(Stmt.ExecuteMeter x) {
                        return null;
                    }

                    @Override
                    public Void assign(Stmt.Assign a) {
                        return null;
                    }

                    @Override
                    public Void execute(Stmt.Execute e) {
                        return null;
                    }

                    @Override
                    public Void gateway(Stmt.If i) {
                        return null;
                    }

                    @Override
                    public Void apply(Stmt.Apply a) {
                        int earliest = 0;
                        for (Field f : a.table().key()) {
                            Integer w = lastWrite.get(f);
                            if (w != null) {
                                earliest = Math.max(earliest, w + 1);
                            }
                        }
                        out.add(new TablePlacement(g, a.table().name(), d.number(), earliest));
                        return null;
                    }
                }));
                IrWalk.forEachStmt(d.body(), s -> s.accept(new Stmt.Visitor<Void>() {
                    @Override
                    public Void count(Stmt.Count x) {
                        return null;
                    }

                    @Override
                    public Void meter(Stmt.ExecuteMeter x) {
                        return null;
                    }

                    @Override
                    public Void assign(Stmt.Assign a) {
                        lastWrite.put(a.dest(), d.number());
                        return null;
                    }

                    @Override
                    public Void execute(Stmt.Execute e) {
                        return null;
                    }

                    @Override
                    public Void gateway(Stmt.If i) {
                        return null;
                    }

                    @Override
                    public Void apply(Stmt.Apply a) {
                        return null;
                    }
                }));
            }
        }
        return out;
    }
}

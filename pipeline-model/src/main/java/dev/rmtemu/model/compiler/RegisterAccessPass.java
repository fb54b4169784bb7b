package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One read-modify-write per register array, and one lookup per table, per
 * packet pass, proved for every control path of every stage (the run-time
 * check sees only the paths packets happen to take).
 */
final class RegisterAccessPass implements CompilerPass {
    @Override
    public String name() {
        return "register-access";
    }

    @Override
    public String rule() {
        return "each register array is accessed, and each table applied, at most once on every control path";
    }

    @Override
    public void run(PassInput in, Refusals out) {
        for (StageDecl d : IrStages.of(in.program())) {
            List<List<Stmt>> paths = ControlPaths.of(d.body());
            if (paths == null) {
                out.add(d.gress(), d.number(), null, "more than " + ControlPaths.MAX_PATHS
                        + " control paths through the stage's gateways and tables");
                continue;
            }
            for (List<Stmt> path : paths) {
                Map<RegisterArray, Integer> uses = new LinkedHashMap<>();
                Map<MatchTable, Integer> applies = new LinkedHashMap<>();
                for (Stmt s : path) {
                    if (s instanceof Stmt.Execute e) {
                        uses.merge(e.action().array(), 1, Integer::sum);
                    } else if (s instanceof Stmt.Apply a) {
                        applies.merge(a.table(), 1, Integer::sum);
                    }
                }
                applies.forEach((table, n) -> {
                    if (n > 1) {
                        out.add(d.gress(), d.number(), "table " + table.name(), "applied " + n
                                + " times on one control path; a logical table is looked up once per packet pass");
                    }
                });
                uses.forEach((array, n) -> {
                    if (n > 1) {
                        out.add(d.gress(), d.number(), "register array " + array.name(), "accessed " + n
                                + " times on one control path; a stateful ALU does one read-modify-write per packet pass");
                    }
                });
            }
        }
    }
}

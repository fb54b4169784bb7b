package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.Map;

/**
 * One read-modify-write per register array, and one lookup per table, per
 * packet pass, proved for every control path of every stage (the run-time
 * check sees only the paths packets happen to take).
 */
final class RegisterAccessPass implements CompilerPass {
    /** The register array a statement accesses itself (null: none). */
    private static final Stmt.Visitor<RegisterArray> ARRAY = new Stmt.Visitor<>() {
        @Override
        public RegisterArray count(Stmt.Count x) {
            return null;
        }

        @Override
        public RegisterArray meter(Stmt.ExecuteMeter x) {
            return null;
        }

        @Override
        public RegisterArray assign(Stmt.Assign s) {
            return null;
        }

        @Override
        public RegisterArray execute(Stmt.Execute s) {
            return s.action().array();
        }

        @Override
        public RegisterArray gateway(Stmt.If s) {
            return null;
        }

        @Override
        public RegisterArray apply(Stmt.Apply s) {
            return null;
        }
    };

    /** The table a statement looks up itself (null: none). */
    private static final Stmt.Visitor<MatchTable> TABLE = new Stmt.Visitor<>() {
        @Override
        public MatchTable count(Stmt.Count x) {
            return null;
        }

        @Override
        public MatchTable meter(Stmt.ExecuteMeter x) {
            return null;
        }

        @Override
        public MatchTable assign(Stmt.Assign s) {
            return null;
        }

        @Override
        public MatchTable execute(Stmt.Execute s) {
            return null;
        }

        @Override
        public MatchTable gateway(Stmt.If s) {
            return null;
        }

        @Override
        public MatchTable apply(Stmt.Apply s) {
            return s.table();
        }
    };

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
            Map<RegisterArray, Integer> uses = PathCounts.max(d.body(), s -> s.accept(ARRAY));
            Map<MatchTable, Integer> applies = PathCounts.max(d.body(), s -> s.accept(TABLE));
            uses.forEach((array, n) -> {
                if (n > 1) {
                    out.add(d.gress(), d.number(), "register array " + array.name(), "accessed " + n
                            + " times on one control path; a stateful ALU does one read-modify-write per packet pass");
                }
            });
            applies.forEach((table, n) -> {
                if (n > 1) {
                    out.add(d.gress(), d.number(), "table " + table.name(), "applied " + n
                            + " times on one control path; a logical table is looked up once per packet pass");
                }
            });
        }
    }
}

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Walks over IR: every statement of a body, the values a statement reads, every
 * sub-expression; and the one exhaustive dispatch the passes share for picking out
 * one kind of node (a new kind of statement or value does not compile here until
 * each question below has its answer for it).
 */
final class IrWalk {
    /** The values a statement itself reads (not those of nested blocks). */
    private static final Stmt.Visitor<List<Expr>> READS = new Stmt.Visitor<>() {
        @Override
        public List<Expr> count(Stmt.Count x) {
            return List.of(x.index(), x.adjust());
        }

        @Override
        public List<Expr> meter(Stmt.ExecuteMeter x) {
            return List.of(x.index(), x.color(), x.adjust());
        }

        @Override
        public List<Expr> assign(Stmt.Assign s) {
            return List.of(s.value());
        }

        @Override
        public List<Expr> execute(Stmt.Execute s) {
            return List.of(s.index(), s.inLo(), s.inHi());
        }

        @Override
        public List<Expr> gateway(Stmt.If s) {
            return List.of(s.condition().left(), s.condition().right());
        }

        @Override
        public List<Expr> apply(Stmt.Apply s) {
            return List.of();
        }
    };

    private IrWalk() {
    }

    /** Every statement of a body, nested ones included, in order. */
    static void forEachStmt(List<Stmt> body, Consumer<Stmt> f) {
        Stmt.walk(body, f);
    }

    /** The values a statement itself reads (not those of nested blocks). */
    static List<Expr> reads(Stmt s) {
        return s.accept(READS);
    }

    /** Every sub-expression of {@code e}, {@code e} first. */
    static void forEachExpr(Expr e, Consumer<Expr> f) {
        f.accept(e);
        for (Expr operand : operands(e)) {
            forEachExpr(operand, f);
        }
    }

    /** The values an expression computes from directly: a binary operation's two, none for the others. */
    static List<Expr> operands(Expr e) {
        return e.accept(OPERANDS);
    }

    private static final Expr.Visitor<List<Expr>> OPERANDS = new Expr.Visitor<>() {
        @Override
        public List<Expr> meterOut(Expr.MeterOut x) {
            return List.of();
        }

        @Override
        public List<Expr> read(Expr.Read e) {
            return List.of();
        }

        @Override
        public List<Expr> constant(Expr.Const e) {
            return List.of();
        }

        @Override
        public List<Expr> hashOut(Expr.HashOut e) {
            return List.of();
        }

        @Override
        public List<Expr> regOut(Expr.RegOut e) {
            return List.of();
        }

        @Override
        public List<Expr> actionData(Expr.ActionData e) {
            return List.of();
        }

        @Override
        public List<Expr> binary(Expr.Binary e) {
            return List.of(e.left(), e.right());
        }
    };

    /**
     * Calls {@code v} on every sub-expression of {@code e}, {@code e} first: a pass's
     * exhaustive handling of each kind of value, wherever it occurs.
     */
    static void visitAll(Expr e, Expr.Visitor<?> v) {
        forEachExpr(e, x -> x.accept(v));
    }

    /** The field a value reads as it entered the stage (null: not a field read). */
    static Field fieldRead(Expr e) {
        return e.accept(new Expr.Visitor<Field>() {
            @Override
            public Field meterOut(Expr.MeterOut x) {
                return null;
            }

            @Override
            public Field read(Expr.Read x) {
                return x.field();
            }

            @Override
            public Field constant(Expr.Const x) {
                return null;
            }

            @Override
            public Field hashOut(Expr.HashOut x) {
                return null;
            }

            @Override
            public Field regOut(Expr.RegOut x) {
                return null;
            }

            @Override
            public Field actionData(Expr.ActionData x) {
                return null;
            }

            @Override
            public Field binary(Expr.Binary x) {
                return null;
            }
        });
    }

    /** The register action whose output a value is (null: not a register output). */
    static RegisterAction registerOutput(Expr e) {
        return e.accept(new Expr.Visitor<RegisterAction>() {
            @Override
            public RegisterAction meterOut(Expr.MeterOut x) {
                return null;
            }

            @Override
            public RegisterAction read(Expr.Read x) {
                return null;
            }

            @Override
            public RegisterAction constant(Expr.Const x) {
                return null;
            }

            @Override
            public RegisterAction hashOut(Expr.HashOut x) {
                return null;
            }

            @Override
            public RegisterAction regOut(Expr.RegOut x) {
                return x.action();
            }

            @Override
            public RegisterAction actionData(Expr.ActionData x) {
                return null;
            }

            @Override
            public RegisterAction binary(Expr.Binary x) {
                return null;
            }
        });
    }

    /** The meter whose colour a value is (null: another kind). */
    static Meter meterOutput(Expr e) {
        return e.accept(new Expr.Visitor<Meter>() {
            @Override
            public Meter read(Expr.Read x) {
                return null;
            }

            @Override
            public Meter constant(Expr.Const x) {
                return null;
            }

            @Override
            public Meter hashOut(Expr.HashOut x) {
                return null;
            }

            @Override
            public Meter regOut(Expr.RegOut x) {
                return null;
            }

            @Override
            public Meter actionData(Expr.ActionData x) {
                return null;
            }

            @Override
            public Meter binary(Expr.Binary x) {
                return null;
            }

            @Override
            public Meter meterOut(Expr.MeterOut x) {
                return x.meter();
            }
        });
    }

    /** The hash unit whose output a value is (null: not a hash output). */
    static HashUnit hashOutput(Expr e) {
        return e.accept(new Expr.Visitor<HashUnit>() {
            @Override
            public HashUnit meterOut(Expr.MeterOut x) {
                return null;
            }

            @Override
            public HashUnit read(Expr.Read x) {
                return null;
            }

            @Override
            public HashUnit constant(Expr.Const x) {
                return null;
            }

            @Override
            public HashUnit hashOut(Expr.HashOut x) {
                return x.unit();
            }

            @Override
            public HashUnit regOut(Expr.RegOut x) {
                return null;
            }

            @Override
            public HashUnit actionData(Expr.ActionData x) {
                return null;
            }

            @Override
            public HashUnit binary(Expr.Binary x) {
                return null;
            }
        });
    }

    /** The action-data parameter a value is (null: another kind). */
    static Expr.ActionData actionDataRead(Expr e) {
        return e.accept(new Expr.Visitor<Expr.ActionData>() {
            @Override
            public Expr.ActionData meterOut(Expr.MeterOut x) {
                return null;
            }

            @Override
            public Expr.ActionData read(Expr.Read x) {
                return null;
            }

            @Override
            public Expr.ActionData constant(Expr.Const x) {
                return null;
            }

            @Override
            public Expr.ActionData hashOut(Expr.HashOut x) {
                return null;
            }

            @Override
            public Expr.ActionData regOut(Expr.RegOut x) {
                return null;
            }

            @Override
            public Expr.ActionData actionData(Expr.ActionData x) {
                return x;
            }

            @Override
            public Expr.ActionData binary(Expr.Binary x) {
                return null;
            }
        });
    }

    /** Whether {@code e} or any of its sub-expressions is one that {@code test} picks. */
    static boolean anyExpr(Expr e, Predicate<Expr> test) {
        boolean[] found = {false};
        forEachExpr(e, x -> found[0] |= test.test(x));
        return found[0];
    }

    /** Whether a value is a constant. */
    static boolean isConst(Expr e) {
        return e.constantValue() != null;
    }

    /** The binary operation a value is (null: a leaf value). */
    static Expr.Binary binary(Expr e) {
        return e.accept(new Expr.Visitor<Expr.Binary>() {
            @Override
            public Expr.Binary meterOut(Expr.MeterOut x) {
                return null;
            }

            @Override
            public Expr.Binary read(Expr.Read x) {
                return null;
            }

            @Override
            public Expr.Binary constant(Expr.Const x) {
                return null;
            }

            @Override
            public Expr.Binary hashOut(Expr.HashOut x) {
                return null;
            }

            @Override
            public Expr.Binary regOut(Expr.RegOut x) {
                return null;
            }

            @Override
            public Expr.Binary actionData(Expr.ActionData x) {
                return null;
            }

            @Override
            public Expr.Binary binary(Expr.Binary x) {
                return x;
            }
        });
    }

    /** The instruction a statement is (null: another kind). */
    static Stmt.Assign assignment(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.Assign>() {
            @Override
            public Stmt.Assign count(Stmt.Count x) {
                return null;
            }

            @Override
            public Stmt.Assign meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Stmt.Assign assign(Stmt.Assign x) {
                return x;
            }

            @Override
            public Stmt.Assign execute(Stmt.Execute x) {
                return null;
            }

            @Override
            public Stmt.Assign gateway(Stmt.If x) {
                return null;
            }

            @Override
            public Stmt.Assign apply(Stmt.Apply x) {
                return null;
            }
        });
    }

    /** The register action a statement runs (null: another kind). */
    static Stmt.Execute execution(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.Execute>() {
            @Override
            public Stmt.Execute count(Stmt.Count x) {
                return null;
            }

            @Override
            public Stmt.Execute meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Stmt.Execute assign(Stmt.Assign x) {
                return null;
            }

            @Override
            public Stmt.Execute execute(Stmt.Execute x) {
                return x;
            }

            @Override
            public Stmt.Execute gateway(Stmt.If x) {
                return null;
            }

            @Override
            public Stmt.Execute apply(Stmt.Apply x) {
                return null;
            }
        });
    }

    /** The gateway a statement is (null: another kind). */
    static Stmt.If gateway(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.If>() {
            @Override
            public Stmt.If count(Stmt.Count x) {
                return null;
            }

            @Override
            public Stmt.If meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Stmt.If assign(Stmt.Assign x) {
                return null;
            }

            @Override
            public Stmt.If execute(Stmt.Execute x) {
                return null;
            }

            @Override
            public Stmt.If gateway(Stmt.If x) {
                return x;
            }

            @Override
            public Stmt.If apply(Stmt.Apply x) {
                return null;
            }
        });
    }

    /** The table application a statement is (null: another kind). */
    static Stmt.Apply application(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.Apply>() {
            @Override
            public Stmt.Apply count(Stmt.Count x) {
                return null;
            }

            @Override
            public Stmt.Apply meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Stmt.Apply assign(Stmt.Assign x) {
                return null;
            }

            @Override
            public Stmt.Apply execute(Stmt.Execute x) {
                return null;
            }

            @Override
            public Stmt.Apply gateway(Stmt.If x) {
                return null;
            }

            @Override
            public Stmt.Apply apply(Stmt.Apply x) {
                return x;
            }
        });
    }

    /** The count a statement is (null: another kind). */
    static Stmt.Count counting(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.Count>() {
            @Override
            public Stmt.Count count(Stmt.Count x) {
                return x;
            }

            @Override
            public Stmt.Count meter(Stmt.ExecuteMeter x) {
                return null;
            }

            @Override
            public Stmt.Count assign(Stmt.Assign x) {
                return null;
            }

            @Override
            public Stmt.Count execute(Stmt.Execute x) {
                return null;
            }

            @Override
            public Stmt.Count gateway(Stmt.If x) {
                return null;
            }

            @Override
            public Stmt.Count apply(Stmt.Apply x) {
                return null;
            }
        });
    }

    /** The meter run a statement is (null: another kind). */
    static Stmt.ExecuteMeter metering(Stmt s) {
        return s.accept(new Stmt.Visitor<Stmt.ExecuteMeter>() {
            @Override
            public Stmt.ExecuteMeter count(Stmt.Count x) {
                return null;
            }

            @Override
            public Stmt.ExecuteMeter meter(Stmt.ExecuteMeter x) {
                return x;
            }

            @Override
            public Stmt.ExecuteMeter assign(Stmt.Assign x) {
                return null;
            }

            @Override
            public Stmt.ExecuteMeter execute(Stmt.Execute x) {
                return null;
            }

            @Override
            public Stmt.ExecuteMeter gateway(Stmt.If x) {
                return null;
            }

            @Override
            public Stmt.ExecuteMeter apply(Stmt.Apply x) {
                return null;
            }
        });
    }
}

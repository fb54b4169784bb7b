package dev.rmtemu.model.ir;

import java.util.IdentityHashMap;
import dev.rmtemu.model.arith.Divisor;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The reference semantics of a stage's IR: walks the statements for each packet
 * through the runtime's checked {@link StageAccess}, so every run-time rule (one access
 * per register array per pass, resources of this stage only, index ranges)
 * is enforced as for any stage code. The statement tree is turned once into
 * small node objects; register outputs and the action data of the entry that
 * hit live in a scratch array of the context, one slot each, zeroed when the
 * stage starts so a value never leaks from another packet.
 */
public final class IrInterpreter {
    private final Node[] body;
    private final int slots;

    public IrInterpreter(Gress gress, int stage, List<RegisterAction> stageActions, List<MatchTable> stageTables,
                         List<Stmt> body) {
        this(gress, stage, stageActions, stageTables, List.of(), body);
    }

    public IrInterpreter(Gress gress, int stage, List<RegisterAction> stageActions, List<MatchTable> stageTables,
                         List<Meter> stageMeters, List<Stmt> body) {
        Slots s = new Slots(gress, stage, stageActions, stageTables, stageMeters);
        this.body = s.block(body);
        this.slots = s.count;
    }

    /** Scratch slots the stage needs: one per register action and meter, two per table (action data, entry handle). */
    public int slots() {
        return slots;
    }

    /** Runs the stage for the packet the context holds. */
    public void apply(StageAccess ctx) {
        long[] out = ctx.scratch();
        Arrays.fill(out, 0, slots, 0L);
        run(body, ctx, out);
    }

    static void run(Node[] nodes, StageAccess ctx, long[] out) {
        for (Node n : nodes) {
            n.run(ctx, out);
        }
    }

    interface Node {
        void run(StageAccess ctx, long[] out);
    }

    interface Value {
        long eval(StageAccess ctx, long[] out);
    }

    /** Assigns scratch slots and turns statements into nodes. */
    private static final class Slots {
        private final Map<RegisterAction, Integer> actions = new IdentityHashMap<>();
        private final Map<MatchTable, Integer> tables = new IdentityHashMap<>();
        private final Map<Meter, Integer> meters = new IdentityHashMap<>();
        private final String where;
        private int count;

        Slots(Gress gress, int stage, List<RegisterAction> stageActions, List<MatchTable> stageTables, List<Meter> stageMeters) {
            this.where = gress.label() + " stage " + stage;
            for (RegisterAction a : stageActions) {
                actions.put(a, count++);
            }
            for (MatchTable t : stageTables) {
                tables.put(t, count);
                count += 2; // action data, then the handle of the entry that hit
            }
            for (Meter m : stageMeters) {
                meters.put(m, count++);
            }
        }

        private int meterSlot(Meter m) {
            Integer k = meters.get(m);
            if (k == null) {
                throw new IllegalArgumentException(where + " runs meter " + m.name() + ", placed in "
                        + m.gress().label() + " stage " + m.stage());
            }
            return k;
        }

        /** The index of a register, counter or meter cell: the index value, or for a direct one the handle of its table's hit. */
        private Value cell(MatchTable direct, Expr index) {
            if (direct == null) {
                return value(index);
            }
            int h = tableSlot(direct) + 1;
            return (ctx, out) -> out[h];
        }

        private int tableSlot(MatchTable t) {
            Integer k = tables.get(t);
            if (k == null) {
                throw new IllegalArgumentException(where + " uses table " + t.name() + ", placed in "
                        + t.gress().label() + " stage " + t.stage());
            }
            return k;
        }

        Node[] block(List<Stmt> stmts) {
            List<Node> nodes = new ArrayList<>(stmts.size());
            for (Stmt s : stmts) {
                nodes.add(node(s));
            }
            return nodes.toArray(new Node[0]);
        }

        private int actionSlot(RegisterAction a) {
            Integer k = actions.get(a);
            if (k == null) {
                throw new IllegalArgumentException(where + " runs register action " + a + " of array " + a.array().name()
                        + ", placed in " + a.array().gress().label() + " stage " + a.array().stage());
            }
            return k;
        }

        private Node node(Stmt s) {
            return s.accept(nodes);
        }

        /** The closure of each kind of statement. */
        private final Stmt.Visitor<Node> nodes = new Stmt.Visitor<>() {
            @Override
            public Node assign(Stmt.Assign a) {
                Field f = a.dest();
                Value v = value(a.value());
                return (ctx, out) -> ctx.set(f, v.eval(ctx, out));
            }

            @Override
            public Node execute(Stmt.Execute e) {
                RegisterAction ra = e.action();
                int k = actionSlot(ra);
                Value index = cell(ra.array().table(), e.index());
                Value lo = value(e.inLo());
                Value hi = value(e.inHi());
                return (ctx, out) -> out[k] = ctx.execute(ra, index.eval(ctx, out), lo.eval(ctx, out), hi.eval(ctx, out));
            }

            @Override
            public Node gateway(Stmt.If i) {
                Value l = value(i.condition().left());
                Value r = value(i.condition().right());
                Condition c = i.condition();
                Node[] then = block(i.then());
                Node[] otherwise = block(i.otherwise());
                return (ctx, out) -> run(c.holds(l.eval(ctx, out), r.eval(ctx, out)) ? then : otherwise, ctx, out);
            }

            @Override
            public Node apply(Stmt.Apply ap) {
                MatchTable t = ap.table();
                int k = tableSlot(t);
                int[] ids = new int[ap.actions().size()];
                Node[][] blocks = new Node[ids.length][];
                int j = 0;
                for (Map.Entry<Integer, List<Stmt>> e : ap.actions().entrySet()) {
                    ids[j] = e.getKey();
                    blocks[j++] = block(e.getValue());
                }
                Node[] miss = block(ap.miss());
                return (ctx, out) -> {
                    int entry = ctx.lookup(t);
                    if (entry < 0) {
                        out[k + 1] = t.size(); // a direct counter or meter's miss cell (Counter#cells)
                        run(miss, ctx, out);
                        return;
                    }
                    out[k] = ctx.actionData(t, entry);
                    out[k + 1] = ctx.entryHandle(t, entry);
                    int id = ctx.actionId(t, entry);
                    for (int x = 0; x < ids.length; x++) {
                        if (ids[x] == id) {
                            run(blocks[x], ctx, out);
                            return;
                        }
                    }
                };
            }

            @Override
            public Node count(Stmt.Count c) {
                Counter counter = c.counter();
                Value index = cell(counter.table(), c.index());
                Value adjust = value(c.adjust());
                return (ctx, out) -> ctx.count(counter, index.eval(ctx, out), adjust.eval(ctx, out));
            }

            @Override
            public Node meter(Stmt.ExecuteMeter x) {
                Meter m = x.meter();
                int k = meterSlot(m);
                Value index = cell(m.table(), x.index());
                Value color = value(x.color());
                Value adjust = value(x.adjust());
                return (ctx, out) -> out[k] = ctx.meter(m, index.eval(ctx, out), color.eval(ctx, out), adjust.eval(ctx, out));
            }
        };

        private Value value(Expr e) {
            return e.accept(values);
        }

        /** The closure of each kind of value. */
        private final Expr.Visitor<Value> values = new Expr.Visitor<>() {
            @Override
            public Value read(Expr.Read r) {
                Field f = r.field();
                return (ctx, out) -> ctx.get(f);
            }

            @Override
            public Value constant(Expr.Const c) {
                long v = c.value();
                return (ctx, out) -> v;
            }

            @Override
            public Value hashOut(Expr.HashOut h) {
                var unit = h.unit();
                return (ctx, out) -> ctx.hash(unit);
            }

            @Override
            public Value regOut(Expr.RegOut r) {
                int k = actionSlot(r.action());
                return (ctx, out) -> out[k];
            }

            @Override
            public Value actionData(Expr.ActionData d) {
                int k = tableSlot(d.table());
                return (ctx, out) -> out[k];
            }

            @Override
            public Value meterOut(Expr.MeterOut m) {
                int k = meterSlot(m.meter());
                return (ctx, out) -> out[k];
            }

            @Override
            public Value binary(Expr.Binary b) {
                Value l = value(b.left());
                Long c = b.right().constantValue();
                if (c != null && c > 0 && (b.op() == VliwOp.MOD || b.op() == VliwOp.DIV)) {
                    long d = c;
                    if (Long.bitCount(d) == 1) {
                        long mask = d - 1;
                        int shift = Long.numberOfTrailingZeros(d);
                        return b.op() == VliwOp.MOD ? (ctx, out) -> l.eval(ctx, out) & mask : (ctx, out) -> l.eval(ctx, out) >>> shift;
                    }
                    if (b.op() == VliwOp.MOD) {
                        // a hash folded onto a table whose size is not a power of two (targets that allow it)
                        Divisor div = new Divisor(d);
                        return (ctx, out) -> {
                            long v = l.eval(ctx, out);
                            return v >= 0 ? div.remainder(v) : Long.remainderUnsigned(v, d);
                        };
                    }
                }
                Value r = value(b.right());
                VliwOp op = b.op();
                int width = b.width() == 0 ? 64 : b.width();
                return (ctx, out) -> op.apply(l.eval(ctx, out), r.eval(ctx, out), width);
            }
        };
    }
}

package dev.rmtemu.model.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.function.Consumer;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One statement of a stage's control flow: a VLIW instruction into a PHV
 * field, a register action run on one cell, a gateway choosing between two
 * blocks, or a match table choosing a block by the action of the entry that
 * hit. Writes become visible at the next stage (VLIW semantics). Passes and
 * back ends dispatch on the kind with a {@link Visitor}: a new kind of statement
 * does not compile until every one of them handles it.
 */
public sealed interface Stmt {

    /** One method per kind of statement: what a pass or back end does with it. */
    interface Visitor<R> {
        R assign(Assign s);

        R execute(Execute s);

        R gateway(If s);

        R apply(Apply s);

        R count(Count s);

        R meter(ExecuteMeter s);
    }

    <R> R accept(Visitor<R> v);

    /** The blocks control can take from here: a gateway's two, a table's actions then its miss; none otherwise. */
    default List<List<Stmt>> branches() {
        return List.of();
    }

    /** Every statement of a block, nested ones included, each before its branches. */
    static void walk(List<Stmt> block, Consumer<Stmt> f) {
        for (Stmt s : block) {
            f.accept(s);
            for (List<Stmt> b : s.branches()) {
                walk(b, f);
            }
        }
    }

    /** {@code dest = value}: one instruction of the container holding {@code dest}. */
    record Assign(Field dest, Expr value) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.assign(this);
        }

    }

    /**
     * Runs a register action on cell {@code index} with stateful-ALU inputs
     * {@code inLo}, {@code inHi}; its output is {@link Expr.RegOut} in this stage.
     */
    record Execute(RegisterAction action, Expr index, Expr inLo, Expr inHi) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.execute(this);
        }

    }

    /**
     * Counts the packet in a counter: cell {@code index} of an indirect counter, or, for a
     * direct counter (whose {@code index} is the constant 0), the entry of its table that hit;
     * TNA's {@code count(index, adjust_byte_count)}: {@code adjust} is subtracted from the
     * frame's bytes.
     */
    record Count(Counter counter, Expr index, Expr adjust) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.count(this);
        }
    }

    /**
     * Runs a meter on cell {@code index} (a direct meter: the entry that hit; {@code index} is
     * the constant 0) with pre-colour {@code color} (GREEN for a colour-blind meter) and
     * {@code adjust} subtracted from the frame's bytes; its colour is {@link Expr.MeterOut}.
     * An LPF or a WRED (also meter-ALU externs) takes its sample value in {@code color}, the
     * meter ALU's input, and {@code adjust} is 0; its output is {@link Expr.MeterOut} too.
     */
    record ExecuteMeter(Meter meter, Expr index, Expr color, Expr adjust) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.meter(this);
        }
    }

    /** A gateway: {@code then} when the condition holds, else {@code otherwise}. */
    record If(Condition condition, List<Stmt> then, List<Stmt> otherwise) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.gateway(this);
        }

        public If {
            then = List.copyOf(then);
            otherwise = List.copyOf(otherwise);
        }

        @Override
        public List<List<Stmt>> branches() {
            return List.of(then, otherwise);
        }
    }

    /**
     * Applies a match table: on a hit, the block of the entry's action id (an
     * action id without a block does nothing, like NoAction); on a miss, {@code miss}.
     */
    record Apply(MatchTable table, SortedMap<Integer, List<Stmt>> actions, List<Stmt> miss) implements Stmt {
        @Override
        public <R> R accept(Visitor<R> v) {
            return v.apply(this);
        }

        public Apply {
            TreeMap<Integer, List<Stmt>> copy = new TreeMap<>();
            actions.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            actions = Collections.unmodifiableSortedMap(copy);
            miss = List.copyOf(miss);
        }

        @Override
        public List<List<Stmt>> branches() {
            List<List<Stmt>> b = new ArrayList<>(actions.values());
            b.add(miss);
            return b;
        }
    }
}

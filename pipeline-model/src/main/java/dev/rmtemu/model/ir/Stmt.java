package dev.rmtemu.model.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.function.Consumer;
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
 * hit. Writes become visible at the next stage (VLIW semantics).
 */
public sealed interface Stmt {

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
    }

    /**
     * Runs a register action on cell {@code index} with stateful-ALU inputs
     * {@code inLo}, {@code inHi}; its output is {@link Expr.RegOut} in this stage.
     */
    record Execute(RegisterAction action, Expr index, Expr inLo, Expr inHi) implements Stmt {
    }

    /** A gateway: {@code then} when the condition holds, else {@code otherwise}. */
    record If(Condition condition, List<Stmt> then, List<Stmt> otherwise) implements Stmt {
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

package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Stmt;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The largest number of times each thing (a register array, a table, a field
 * written) occurs on any one control path of a block, computed without listing
 * the paths: along a block the counts add, across a gateway's or a table's
 * branches the larger one counts. Linear in the size of the block, so sixteen
 * gateways in a row cost no more than sixteen statements.
 */
final class PathCounts {
    private PathCounts() {
    }

    /**
     * @param key what a statement itself counts as (null: nothing), e.g. the array an execute accesses
     * @return per key, the most occurrences on one path, in first-seen order
     */
    static <K> Map<K, Integer> max(List<Stmt> block, Function<Stmt, K> key) {
        Map<K, Integer> total = new LinkedHashMap<>();
        for (Stmt s : block) {
            K k = key.apply(s);
            if (k != null) {
                total.merge(k, 1, Integer::sum);
            }
            Map<K, Integer> widest = new LinkedHashMap<>();
            for (List<Stmt> b : s.branches()) {
                max(b, key).forEach((bk, n) -> widest.merge(bk, n, Math::max));
            }
            widest.forEach((bk, n) -> total.merge(bk, n, Integer::sum));
        }
        return total;
    }
}

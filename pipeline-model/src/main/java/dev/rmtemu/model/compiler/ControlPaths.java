package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The control paths of a stage body: every way a packet can go through its
 * gateways and table actions, as the flat list of statements it runs (a
 * gateway or a table application stands first, then the chosen block). The
 * count is capped: a stage with more paths than hardware could hold in its
 * gateways and actions is refused rather than enumerated.
 */
final class ControlPaths {
    /** More than 16 gateways and 32 actions per stage could make; guards against a runaway body. */
    static final int MAX_PATHS = 1 << 12;

    private ControlPaths() {
    }

    /** The paths, or null when there are more than {@link #MAX_PATHS}. */
    static List<List<Stmt>> of(List<Stmt> body) {
        List<List<Stmt>> paths = new ArrayList<>();
        paths.add(new ArrayList<>());
        return extend(paths, body) ? paths : null;
    }

    private static boolean extend(List<List<Stmt>> paths, List<Stmt> block) {
        for (Stmt s : block) {
            for (List<Stmt> p : paths) {
                p.add(s);
            }
            List<List<Stmt>> branches = branches(s);
            if (branches.isEmpty()) {
                continue;
            }
            List<List<Stmt>> next = new ArrayList<>();
            for (List<Stmt> branch : branches) {
                List<List<Stmt>> copy = new ArrayList<>();
                for (List<Stmt> p : paths) {
                    copy.add(new ArrayList<>(p));
                }
                if (!extend(copy, branch)) {
                    return false;
                }
                next.addAll(copy);
                if (next.size() > MAX_PATHS) {
                    return false;
                }
            }
            paths.clear();
            paths.addAll(next);
        }
        return true;
    }

    private static List<List<Stmt>> branches(Stmt s) {
        if (s instanceof Stmt.If i) {
            return List.of(i.then(), i.otherwise());
        }
        if (s instanceof Stmt.Apply a) {
            List<List<Stmt>> b = new ArrayList<>(a.actions().values());
            b.add(a.miss());
            return b;
        }
        return List.of();
    }

    /** Every statement of a body, nested ones included, in order. */
    static void forEachStmt(List<Stmt> body, Consumer<Stmt> f) {
        for (Stmt s : body) {
            f.accept(s);
            if (s instanceof Stmt.If i) {
                forEachStmt(i.then(), f);
                forEachStmt(i.otherwise(), f);
            } else if (s instanceof Stmt.Apply a) {
                a.actions().values().forEach(b -> forEachStmt(b, f));
                forEachStmt(a.miss(), f);
            }
        }
    }

    /** The values a statement itself reads (not those of nested blocks). */
    static List<Expr> reads(Stmt s) {
        if (s instanceof Stmt.Assign a) {
            return List.of(a.value());
        }
        if (s instanceof Stmt.Execute e) {
            return List.of(e.index(), e.inLo(), e.inHi());
        }
        if (s instanceof Stmt.If i) {
            return List.of(i.condition().left(), i.condition().right());
        }
        return List.of();
    }

    /** Every sub-expression of {@code e}, {@code e} first. */
    static void forEachExpr(Expr e, Consumer<Expr> f) {
        f.accept(e);
        if (e instanceof Expr.Binary b) {
            forEachExpr(b.left(), f);
            forEachExpr(b.right(), f);
        }
    }
}

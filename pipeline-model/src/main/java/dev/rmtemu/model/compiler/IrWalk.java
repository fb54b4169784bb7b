package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;

import java.util.List;
import java.util.function.Consumer;

/** Walks over IR: every statement of a body, the values a statement reads, every sub-expression. */
final class IrWalk {
    private IrWalk() {
    }

    /** Every statement of a body, nested ones included, in order. */
    static void forEachStmt(List<Stmt> body, Consumer<Stmt> f) {
        Stmt.walk(body, f);
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

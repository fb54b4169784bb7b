package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.source.Diagnostics;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * What the grammar accepts and the specification does not, checked over the parse tree as
 * far as it goes (also a tree with syntax errors, so that these are reported with them):
 * integer literals' digits and widths, and that the two {@code >} of a shift are adjacent.
 */
final class LexicalChecks {
    private final PreprocessedSource source;
    private final Diagnostics diagnostics;

    LexicalChecks(PreprocessedSource source, Diagnostics diagnostics) {
        this.source = source;
        this.diagnostics = diagnostics;
    }

    void check(ParseTree tree) {
        if (tree instanceof TerminalNode t) {
            Token token = t.getSymbol();
            if (token.getType() == P4Lexer.INTEGER && token.getStartIndex() >= 0) {
                String error = IntegerLiterals.parse(token.getText()).error();
                if (error != null) {
                    diagnostics.error(source.positionAt(token.getStartIndex()), error);
                }
            }
            return;
        }
        if (tree instanceof P4Parser.ShiftRightContext s && s.first != null && s.second != null && s.second.getStartIndex() >= 0
                && s.second.getStartIndex() != s.first.getStopIndex() + 1) {
            diagnostics.error(source.positionAt(s.first.getStartIndex()), "'> >' is not a shift: write '>>' without a space");
        }
        for (int i = 0; i < tree.getChildCount(); i++) {
            check(tree.getChild(i));
        }
    }
}

package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.source.Diagnostics;
import dev.rmtemu.model.text.ClosestName;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.FailedPredicateException;
import org.antlr.v4.runtime.InputMismatchException;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.NoViableAltException;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.Vocabulary;
import org.antlr.v4.runtime.misc.IntervalSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Syntax errors in the user's words: each names what was expected and what was found, at
 * the FILE:LINE:COL of the offending token in the user's own file. ANTLR's recovery keeps
 * the parse going, so every error in a file is reported, not only the first.
 */
final class SyntaxErrors extends DefaultErrorStrategy {
    /** More expected tokens than this are summarised rather than listed. */
    static final int MAX_LISTED = 6;

    private final PreprocessedSource source;
    private final Diagnostics diagnostics;

    SyntaxErrors(PreprocessedSource source, Diagnostics diagnostics) {
        this.source = source;
        this.diagnostics = diagnostics;
    }

    void report(Token at, String message) {
        diagnostics.error(source.positionAt(at.getType() == Token.EOF ? source.text().length() : at.getStartIndex()), message);
    }

    @Override
    protected void reportNoViableAlternative(Parser recognizer, NoViableAltException e) {
        Token t = e.getOffendingToken();
        report(t, "syntax error at " + describe(t) + ": expected " + expected(recognizer, e.getExpectedTokens()));
    }

    @Override
    protected void reportInputMismatch(Parser recognizer, InputMismatchException e) {
        Token t = e.getOffendingToken();
        report(t, "expected " + expected(recognizer, e.getExpectedTokens()) + ", found " + describe(t));
    }

    @Override
    protected void reportFailedPredicate(Parser recognizer, FailedPredicateException e) {
        report(e.getOffendingToken(), "syntax error at " + describe(e.getOffendingToken()));
    }

    @Override
    protected void reportUnwantedToken(Parser recognizer) {
        if (inErrorRecoveryMode(recognizer)) {
            return;
        }
        beginErrorCondition(recognizer);
        Token t = recognizer.getCurrentToken();
        report(t, "unexpected " + describe(t) + ": expected " + expected(recognizer, getExpectedTokens(recognizer)));
    }

    @Override
    protected void reportMissingToken(Parser recognizer) {
        if (inErrorRecoveryMode(recognizer)) {
            return;
        }
        beginErrorCondition(recognizer);
        Token t = recognizer.getCurrentToken();
        report(t, "missing " + expected(recognizer, getExpectedTokens(recognizer)) + " before " + describe(t));
    }

    static String describe(Token t) {
        if (t.getType() == Token.EOF) {
            return "the end of the program";
        }
        return "'" + ClosestName.cut(t.getText(), 40) + "'";
    }

    /** Keywords that are also names (the specification's nonTypeName and name). */
    private static final int[] KEYWORD_NAMES = {
        P4Lexer.APPLY, P4Lexer.KEY, P4Lexer.ACTIONS, P4Lexer.STATE, P4Lexer.ENTRIES, P4Lexer.TYPE, P4Lexer.PRIORITY, P4Lexer.LIST
    };
    /** Tokens that begin an expression. */
    private static final int[] EXPRESSION_START = {
        P4Lexer.IDENTIFIER, P4Lexer.INTEGER, P4Lexer.TRUE, P4Lexer.FALSE, P4Lexer.STRING_LITERAL, P4Lexer.THIS, P4Lexer.DOT,
        P4Lexer.ERROR, P4Lexer.LBRACE, P4Lexer.LPAREN, P4Lexer.BANG, P4Lexer.TILDE, P4Lexer.MINUS, P4Lexer.PLUS
    };
    /** Tokens that begin a declaration or a statement (besides names and annotations). */
    private static final int[] DECLARATION_START = {
        P4Lexer.CONST, P4Lexer.EXTERN, P4Lexer.ACTION, P4Lexer.PARSER, P4Lexer.CONTROL, P4Lexer.HEADER, P4Lexer.HEADER_UNION,
        P4Lexer.STRUCT, P4Lexer.ENUM, P4Lexer.TYPEDEF, P4Lexer.PACKAGE, P4Lexer.MATCH_KIND, P4Lexer.ERROR, P4Lexer.AT,
        P4Lexer.PRAGMA_LINE, P4Lexer.BOOL, P4Lexer.BIT, P4Lexer.INT, P4Lexer.VARBIT, P4Lexer.STRING, P4Lexer.TUPLE, P4Lexer.VOID,
        P4Lexer.DOT, P4Lexer.IDENTIFIER, P4Lexer.SEMI, P4Lexer.TABLE, P4Lexer.VALUESET
    };
    private static final int[] STATEMENT_START = {
        P4Lexer.IF, P4Lexer.SWITCH, P4Lexer.EXIT, P4Lexer.RETURN, P4Lexer.LBRACE, P4Lexer.SEMI, P4Lexer.THIS, P4Lexer.CONST,
        P4Lexer.AT, P4Lexer.PRAGMA_LINE, P4Lexer.BOOL, P4Lexer.BIT, P4Lexer.INT, P4Lexer.VARBIT, P4Lexer.STRING, P4Lexer.TUPLE,
        P4Lexer.DOT, P4Lexer.IDENTIFIER, P4Lexer.ERROR, P4Lexer.MATCH_KIND
    };

    /**
     * What the parser expected, in words: "an expression", "a declaration", "a statement"
     * or "a name" for the sets that begin one (and whatever else could follow), else the
     * tokens, summarised past {@link #MAX_LISTED}.
     */
    static String expected(Recognizer<?, ?> recognizer, IntervalSet set) {
        IntervalSet rest = new IntervalSet(set);
        List<String> words = new ArrayList<>();
        if (set.contains(P4Lexer.CONTROL) && set.contains(P4Lexer.PARSER) && set.contains(P4Lexer.EXTERN)) {
            words.add("a declaration");
            remove(rest, DECLARATION_START);
            remove(rest, KEYWORD_NAMES);
        } else if (set.contains(P4Lexer.IF) && set.contains(P4Lexer.SWITCH)) {
            words.add("a statement");
            remove(rest, STATEMENT_START);
            remove(rest, KEYWORD_NAMES);
        } else if (set.contains(P4Lexer.INTEGER) && set.contains(P4Lexer.TRUE) && set.contains(P4Lexer.LPAREN)) {
            words.add("an expression");
            remove(rest, EXPRESSION_START);
            remove(rest, KEYWORD_NAMES);
        } else if (set.contains(P4Lexer.IDENTIFIER)) {
            remove(rest, KEYWORD_NAMES);
        }
        Vocabulary v = recognizer.getVocabulary();
        for (int type : rest.toList()) {
            words.add(tokenName(v, type));
        }
        if (words.isEmpty()) {
            return "something else";
        }
        if (words.size() > MAX_LISTED) {
            return "one of " + String.join(", ", words.subList(0, MAX_LISTED)) + " (or " + (words.size() - MAX_LISTED) + " more)";
        }
        if (words.size() == 1) {
            return words.get(0);
        }
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }

    private static void remove(IntervalSet set, int[] types) {
        for (int t : types) {
            set.remove(t);
        }
    }

    static String tokenName(Vocabulary v, int type) {
        if (type == Token.EOF) {
            return "the end of the program";
        }
        switch (type) {
            case P4Lexer.IDENTIFIER:
                return "a name";
            case P4Lexer.INTEGER:
                return "an integer";
            case P4Lexer.STRING_LITERAL:
                return "a string";
            case P4Lexer.PRAGMA_LINE:
                return "@pragma";
            default:
                String literal = v.getLiteralName(type);
                return literal != null ? literal : v.getDisplayName(type);
        }
    }

    /** Characters the lexer cannot make a token of. */
    static final class LexerErrors extends BaseErrorListener {
        private final PreprocessedSource source;
        private final Diagnostics diagnostics;

        LexerErrors(PreprocessedSource source, Diagnostics diagnostics) {
            this.source = source;
            this.diagnostics = diagnostics;
        }

        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine, String msg,
                RecognitionException e) {
            Lexer lexer = (Lexer) recognizer;
            int at = lexer._tokenStartCharIndex;
            String text = at < source.text().length() ? source.text().substring(at, Math.min(source.text().length(), lexer.getInputStream().index() + 1)) : "";
            String shown = text.startsWith("\"") ? "unterminated string" : "unexpected character '" + ClosestName.cut(text, 20) + "'";
            diagnostics.error(source.positionAt(at), shown);
        }
    }
}

package dev.rmtemu.model.p4.syntax;

import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.preprocess.PreprocessedSource;
import dev.rmtemu.model.p4.source.Diagnostics;
import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.ParseCancellationException;

import java.util.List;

/**
 * Parses preprocessed P4_16 text into ANTLR's parse tree and then the AST. Errors go to
 * {@code diagnostics} with the user's FILE:LINE:COL; the parse recovers and goes on, so
 * that every error is reported.
 */
public final class P4Syntax {
    /**
     * Deepest nesting of brackets and parentheses the parser accepts (it recurses per level;
     * real programs nest a dozen deep).
     */
    public static final int MAX_NESTING = 256;

    private P4Syntax() {
    }

    /** The parse tree and the token stream it came from. */
    public record Parsed(P4Parser.ProgramContext tree, CommonTokenStream tokens) {
    }

    /**
     * Parses and builds the AST; errors go to {@code diagnostics}. A program with syntax
     * errors has no AST (an empty program): its errors are all reported, and what the parser's
     * recovery made of the rest is no program to check further.
     */
    public static Program ast(PreprocessedSource source, Diagnostics diagnostics) {
        try {
            int before = diagnostics.count();
            Parsed parsed = parse(source, diagnostics);
            if (parsed == null) {
                return new Program(List.of());
            }
            boolean syntaxErrors = diagnostics.count() > before;
            new LexicalChecks(source, diagnostics).check(parsed.tree());
            if (syntaxErrors) {
                return new Program(List.of());
            }
            return new AstBuilder(source).program(parsed.tree());
        } catch (StackOverflowError e) {
            // a chain of thousands of operators: the tree is deeper than this thread's stack
            diagnostics.error(source.positionAt(0), "program too deeply nested to parse (an expression of thousands of operators?)");
            return new Program(List.of());
        }
    }

    /** The parse tree, or null when the program nests deeper than {@link #MAX_NESTING} (reported). */
    public static Parsed parse(PreprocessedSource source, Diagnostics diagnostics) {
        P4Lexer lexer = new P4Lexer(CharStreams.fromString(source.text(), "p4"));
        lexer.removeErrorListeners();
        lexer.addErrorListener(new SyntaxErrors.LexerErrors(source, diagnostics));
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        tokens.fill();
        List<Token> visible = tokens.getTokens().stream().filter(t -> t.getChannel() == Token.DEFAULT_CHANNEL).toList();
        if (!nestingFits(visible, source, diagnostics)) {
            return null;
        }
        TypeNames typeNames = TypeNames.scan(visible);
        // two stages, as ANTLR advises: the fast SLL prediction first, which almost every
        // program passes; full LL with error recovery and reporting only when it fails
        P4Parser fast = new P4Parser(tokens);
        fast.setTypeNames(typeNames);
        fast.removeErrorListeners();
        fast.setErrorHandler(new BailErrorStrategy());
        fast.getInterpreter().setPredictionMode(PredictionMode.SLL);
        try {
            return new Parsed(fast.program(), tokens);
        } catch (ParseCancellationException e) {
            tokens.seek(0);
        }
        P4Parser parser = new P4Parser(tokens);
        parser.setTypeNames(typeNames);
        parser.removeErrorListeners();
        parser.setErrorHandler(new SyntaxErrors(source, diagnostics));
        parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        return new Parsed(parser.program(), tokens);
    }

    private static boolean nestingFits(List<Token> tokens, PreprocessedSource source, Diagnostics diagnostics) {
        int depth = 0;
        for (Token t : tokens) {
            switch (t.getType()) {
                case P4Lexer.LPAREN, P4Lexer.LBRACKET, P4Lexer.LBRACE -> {
                    if (++depth > MAX_NESTING) {
                        diagnostics.error(source.positionAt(t.getStartIndex()), "nested deeper than " + MAX_NESTING
                                + " parentheses, brackets and braces");
                        return false;
                    }
                }
                case P4Lexer.RPAREN, P4Lexer.RBRACKET, P4Lexer.RBRACE -> depth = Math.max(0, depth - 1);
                default -> {
                }
            }
        }
        return true;
    }
}

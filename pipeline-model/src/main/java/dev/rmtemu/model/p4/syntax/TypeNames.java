package dev.rmtemu.model.p4.syntax;

import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The names a program declares as types, found by a scan over its tokens before parsing:
 * the name after {@code header}, {@code header_union}, {@code struct}, {@code enum},
 * {@code extern}, {@code parser}, {@code control} and {@code package}, their type
 * parameters, and the name a {@code typedef} or {@code type} declares. The specification's
 * grammar needs this (its lexer tells type names from other names) in two places only: a
 * cast against a parenthesised expression, and a call with type arguments against {@code <}.
 */
public final class TypeNames {
    public static final TypeNames EMPTY = new TypeNames(Set.of());

    private final Set<String> names;

    private TypeNames(Set<String> names) {
        this.names = names;
    }

    public boolean contains(String name) {
        return names.contains(name);
    }

    /** Scans the default-channel tokens of a program. */
    public static TypeNames scan(List<? extends Token> tokens) {
        Set<String> found = new HashSet<>();
        for (int i = 0; i < tokens.size(); i++) {
            int type = tokens.get(i).getType();
            switch (type) {
                case P4Lexer.HEADER, P4Lexer.HEADER_UNION, P4Lexer.STRUCT, P4Lexer.EXTERN, P4Lexer.PARSER, P4Lexer.CONTROL,
                        P4Lexer.PACKAGE -> {
                    int k = i + 1;
                    if (k < tokens.size() && tokens.get(k).getType() == P4Lexer.IDENTIFIER) {
                        found.add(tokens.get(k).getText());
                        typeParameters(tokens, k + 1, found);
                    }
                }
                case P4Lexer.ENUM -> {
                    for (int k = i + 1; k < tokens.size() && k < i + 16; k++) {
                        if (tokens.get(k).getType() == P4Lexer.LBRACE) {
                            if (tokens.get(k - 1).getType() == P4Lexer.IDENTIFIER) {
                                found.add(tokens.get(k - 1).getText());
                            }
                            break;
                        }
                    }
                }
                case P4Lexer.TYPEDEF, P4Lexer.TYPE -> {
                    int depth = 0;
                    for (int k = i + 1; k < tokens.size(); k++) {
                        int t = tokens.get(k).getType();
                        if (t == P4Lexer.LBRACE) {
                            depth++;
                        } else if (t == P4Lexer.RBRACE) {
                            depth--;
                        } else if (t == P4Lexer.SEMI && depth <= 0) {
                            if (tokens.get(k - 1).getType() == P4Lexer.IDENTIFIER) {
                                found.add(tokens.get(k - 1).getText());
                            }
                            break;
                        }
                    }
                }
                default -> {
                }
            }
        }
        return new TypeNames(Set.copyOf(found));
    }

    private static void typeParameters(List<? extends Token> tokens, int k, Set<String> found) {
        if (k >= tokens.size() || tokens.get(k).getType() != P4Lexer.LT) {
            return;
        }
        for (int j = k + 1; j < tokens.size(); j++) {
            int t = tokens.get(j).getType();
            if (t == P4Lexer.IDENTIFIER) {
                found.add(tokens.get(j).getText());
            } else if (t != P4Lexer.COMMA) {
                return;
            }
        }
    }

    /** Does the token {@code k} ahead in {@code in} begin a type? */
    boolean beginsType(TokenStream in, int k) {
        Token t = in.LT(k);
        switch (t.getType()) {
            case P4Lexer.BIT, P4Lexer.INT, P4Lexer.VARBIT, P4Lexer.BOOL, P4Lexer.ERROR, P4Lexer.MATCH_KIND, P4Lexer.STRING,
                    P4Lexer.TUPLE, P4Lexer.DONTCARE, P4Lexer.VOID:
                return true;
            case P4Lexer.DOT:
                return beginsType(in, k + 1);
            case P4Lexer.IDENTIFIER:
                return names.contains(t.getText());
            default:
                return false;
        }
    }
}

package dev.rmtemu.model.p4.preprocess;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Macro replacement as the C preprocessor does it: arguments fully expanded before they are
 * substituted (except next to # and ##), # stringizes, ## pastes, and the result rescanned
 * with hide sets (Prosser's algorithm), so a macro never expands inside its own expansion.
 * Tokens a macro's body brings carry the place of the macro's use; tokens from arguments
 * keep their own place in the user's file.
 */
final class MacroExpander {
    /** Refuse past this many tokens from one line (a macro that doubles itself 17 times; real lines give hundreds). */
    static final int MAX_TOKENS_PER_LINE = 100_000;

    /** Deepest nesting of macro calls in macro arguments (each level is a recursion). */
    static final int MAX_NESTING = 200;

    private int depth;

    interface Errors {
        void error(long origin, String message);
    }

    private final Map<String, Macro> macros;
    private final Errors errors;
    private final BuiltinMacros builtins;

    interface BuiltinMacros {
        /** The expansion of {@code __FILE__} or {@code __LINE__} at {@code use}, or null for other names. */
        PpToken expand(PpToken use);
    }

    MacroExpander(Map<String, Macro> macros, BuiltinMacros builtins, Errors errors) {
        this.macros = macros;
        this.builtins = builtins;
        this.errors = errors;
    }

    /**
     * Expands {@code input}. {@code more} supplies the tokens of the next line when a
     * function-like macro's arguments run past this one (null: they may not).
     */
    List<PpToken> expand(List<PpToken> input, Supplier<List<PpToken>> more) {
        if (depth >= MAX_NESTING) {
            errors.error(input.isEmpty() ? 0 : input.get(0).origin(), "macro arguments nested deeper than " + MAX_NESTING);
            return input;
        }
        depth++;
        try {
            return expandAll(input, more);
        } finally {
            depth--;
        }
    }

    private List<PpToken> expandAll(List<PpToken> input, Supplier<List<PpToken>> more) {
        Deque<PpToken> in = new ArrayDeque<>(input);
        List<PpToken> out = new ArrayList<>();
        int produced = 0;
        while (!in.isEmpty()) {
            PpToken t = in.pollFirst();
            if (t.kind() != PpToken.Kind.IDENTIFIER || t.hideSet().contains(t.text())) {
                out.add(t);
                continue;
            }
            PpToken builtin = builtins.expand(t);
            if (builtin != null) {
                out.add(builtin);
                continue;
            }
            Macro m = macros.get(t.text());
            if (m == null) {
                out.add(t);
                continue;
            }
            List<PpToken> replacement;
            if (!m.functionLike()) {
                replacement = substitute(m, t, List.of(), union(t.hideSet(), m.name()));
            } else {
                while (in.isEmpty() && more != null) {
                    List<PpToken> next = more.get();
                    if (next == null) {
                        break;
                    }
                    in.addAll(next);
                }
                if (in.isEmpty() || !in.peekFirst().is("(")) {
                    out.add(t);
                    continue;
                }
                List<List<PpToken>> args = new ArrayList<>();
                PpToken close = arguments(in, more, args);
                if (close == null) {
                    errors.error(t.origin(), "unterminated argument list invoking macro '" + m.name() + "'");
                    continue;
                }
                args = fitVariadic(m, args);
                int want = m.params().size();
                if (!(args.size() == want || (want == 0 && args.size() == 1 && args.get(0).isEmpty()))) {
                    errors.error(t.origin(), "macro '" + m.name() + "' takes " + want + " argument" + (want == 1 ? "" : "s")
                            + ", given " + args.size());
                    continue;
                }
                Set<String> hs = new HashSet<>(t.hideSet());
                hs.retainAll(close.hideSet());
                hs.add(m.name());
                replacement = substitute(m, t, args, Set.copyOf(hs));
            }
            produced += replacement.size();
            if (produced > MAX_TOKENS_PER_LINE) {
                errors.error(t.origin(), "macro expansion exceeds " + MAX_TOKENS_PER_LINE + " tokens (a macro that grows without end?)");
                return out;
            }
            for (int i = replacement.size() - 1; i >= 0; i--) {
                in.addFirst(replacement.get(i));
            }
        }
        return out;
    }

    /** Reads "( a , b )" off {@code in}; returns the closing parenthesis, or null at the end of input. */
    private static PpToken arguments(Deque<PpToken> in, Supplier<List<PpToken>> more, List<List<PpToken>> args) {
        in.pollFirst();
        int depth = 0;
        List<PpToken> current = new ArrayList<>();
        while (true) {
            while (in.isEmpty() && more != null) {
                List<PpToken> next = more.get();
                if (next == null) {
                    break;
                }
                in.addAll(next);
            }
            if (in.isEmpty()) {
                return null;
            }
            PpToken t = in.pollFirst();
            if (t.is("(")) {
                depth++;
            } else if (t.is(")")) {
                if (depth == 0) {
                    args.add(current);
                    return t;
                }
                depth--;
            } else if (t.is(",") && depth == 0) {
                args.add(current);
                current = new ArrayList<>();
                continue;
            }
            current.add(t);
        }
    }

    /** Joins the arguments past a variadic macro's named parameters into __VA_ARGS__, commas included. */
    private static List<List<PpToken>> fitVariadic(Macro m, List<List<PpToken>> args) {
        int named = m.params().size() - 1;
        if (!m.variadic() || args.size() <= named + 1) {
            if (m.variadic() && args.size() == named) {
                List<List<PpToken>> padded = new ArrayList<>(args);
                padded.add(List.of());
                return padded;
            }
            return args;
        }
        List<List<PpToken>> fitted = new ArrayList<>(args.subList(0, named));
        List<PpToken> rest = new ArrayList<>();
        for (int i = named; i < args.size(); i++) {
            if (i > named) {
                PpToken prev = args.get(i - 1).isEmpty() ? null : args.get(i - 1).get(0);
                rest.add(new PpToken(PpToken.Kind.PUNCTUATOR, ",", prev == null ? m.origin() : prev.origin(), false, false, Set.of()));
            }
            rest.addAll(args.get(i));
        }
        fitted.add(rest);
        return fitted;
    }

    private List<PpToken> substitute(Macro m, PpToken use, List<List<PpToken>> args, Set<String> hs) {
        List<PpToken> body = m.body();
        List<PpToken> out = new ArrayList<>();
        List<List<PpToken>> expanded = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            expanded.add(null);
        }
        for (int i = 0; i < body.size(); i++) {
            PpToken b = body.get(i);
            if (m.functionLike() && b.is("#") && i + 1 < body.size() && m.paramIndex(body.get(i + 1)) >= 0) {
                out.add(stringize(args.get(m.paramIndex(body.get(i + 1))), use.origin()).withSpace(b.spaceBefore()));
                i++;
                continue;
            }
            if (b.is("##") && i + 1 < body.size()) {
                PpToken next = body.get(i + 1);
                i++;
                int p = m.paramIndex(next);
                List<PpToken> rhs = p >= 0 ? args.get(p) : List.of(next.at(use.origin()));
                if (rhs.isEmpty()) {
                    continue;
                }
                if (out.isEmpty()) {
                    out.addAll(rhs);
                    continue;
                }
                PpToken lhs = out.remove(out.size() - 1);
                out.addAll(paste(lhs, rhs.get(0), use.origin()));
                out.addAll(rhs.subList(1, rhs.size()));
                continue;
            }
            int p = m.paramIndex(b);
            if (p >= 0) {
                boolean pasted = i + 1 < body.size() && body.get(i + 1).is("##");
                List<PpToken> arg;
                if (pasted) {
                    arg = args.get(p);
                } else {
                    if (expanded.get(p) == null) {
                        expanded.set(p, expand(args.get(p), null));
                    }
                    arg = expanded.get(p);
                }
                for (int k = 0; k < arg.size(); k++) {
                    out.add(k == 0 ? arg.get(k).withSpace(b.spaceBefore()) : arg.get(k));
                }
                continue;
            }
            out.add(b.at(use.origin()));
        }
        List<PpToken> result = new ArrayList<>(out.size());
        for (int i = 0; i < out.size(); i++) {
            PpToken t = out.get(i);
            Set<String> h = t.hideSet().isEmpty() ? hs : union(t.hideSet(), hs);
            result.add(new PpToken(t.kind(), t.text(), t.origin(), t.fromSource(), i == 0 ? use.spaceBefore() : t.spaceBefore(), h));
        }
        return result;
    }

    private List<PpToken> paste(PpToken lhs, PpToken rhs, long origin) {
        String text = lhs.text() + rhs.text();
        List<PpToken> tokens = PpLexer.tokens(text, origin);
        if (tokens.size() != 1) {
            errors.error(origin, "pasting \"" + lhs.text() + "\" and \"" + rhs.text() + "\" does not give a valid preprocessing token");
            return List.of(lhs, rhs);
        }
        return List.of(tokens.get(0).withSpace(lhs.spaceBefore()));
    }

    static PpToken stringize(List<PpToken> arg, long origin) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < arg.size(); i++) {
            PpToken t = arg.get(i);
            if (i > 0 && t.spaceBefore()) {
                sb.append(' ');
            }
            if (t.kind() == PpToken.Kind.STRING) {
                sb.append(t.text().replace("\\", "\\\\").replace("\"", "\\\""));
            } else {
                sb.append(t.text());
            }
        }
        sb.append('"');
        return new PpToken(PpToken.Kind.STRING, sb.toString(), origin, false, false, Set.of());
    }

    private static Set<String> union(Set<String> a, String name) {
        if (a.contains(name)) {
            return a;
        }
        Set<String> s = new HashSet<>(a);
        s.add(name);
        return Set.copyOf(s);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        if (b.containsAll(a)) {
            return b;
        }
        Set<String> s = new HashSet<>(a);
        s.addAll(b);
        return Set.copyOf(s);
    }
}

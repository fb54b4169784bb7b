package dev.rmtemu.model.p4.preprocess;

import java.util.List;

/**
 * A {@code #define}: object-like when {@code params} is null; a function-like macro's last
 * parameter is {@code __VA_ARGS__} when it is variadic.
 */
record Macro(String name, List<String> params, boolean variadic, List<PpToken> body, long origin) {
    boolean functionLike() {
        return params != null;
    }

    int paramIndex(PpToken t) {
        return params == null || t.kind() != PpToken.Kind.IDENTIFIER ? -1 : params.indexOf(t.text());
    }
}

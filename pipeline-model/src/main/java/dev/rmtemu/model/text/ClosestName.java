package dev.rmtemu.model.text;

import java.util.Locale;
import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean" for misspelt keys and names: the known name with the smallest
 * Levenshtein distance (case-insensitive).
 */
public final class ClosestName {
    private ClosestName() {
    }

    /**
     * The closest of {@code known} to {@code given}; ties go to the earliest in
     * {@code known}'s iteration order, so callers pass an ordered collection.
     * Empty only when nothing is known.
     */
    public static Optional<String> of(String given, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(given.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein distance (insert, delete, substitute cost 1), two rows of memory. */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** A user's token cut to {@code max} characters for an error message (a 10 MB token is not echoed). */
    public static String cut(String token, int max) {
        if (token.length() <= max) {
            return token;
        }
        return token.substring(0, max) + "... (" + token.length() + " characters)";
    }
}

package dev.rmtemu.model.table;

import java.util.Map;

/**
 * A table's idle timeout (TNA's {@code idle_timeout = true}): every entry keeps the emulated
 * time it was last hit, and an entry the control plane gave a TTL that is not hit for its TTL
 * is reported as aged out at the idle-time sweep that sees it. The hardware keeps an idle
 * counter of {@code precisionBits} per entry in map RAMs (bf-p4c {@code mau/resource_estimate.cpp}
 * {@code IdleTimePerWord}: 8, 4, 2 or 1 entries a word at 1, 2, 3 or 6 bits); p4c's default is
 * 3 bits ({@code mau/table_layout.cpp}'s attached-table creation, {@code createIdleTime}; the
 * {@code @idletime_precision} pragma sets another of 1, 2, 3 or 6).
 *
 * @param precisionBits bits of the per-entry idle counter: 1, 2, 3 or 6
 */
public record IdleTimeout(int precisionBits) {
    /** p4c's precision when the program names none (pragmas.cpp PragmaIdletimePrecision: "The default value is 3"). */
    public static final int DEFAULT_PRECISION_BITS = 3;
    /** Entries one idle-time map RAM word holds, by precision (resource_estimate.cpp IdleTimePerWord). */
    private static final Map<Integer, Integer> ENTRIES_PER_WORD = Map.of(1, 8, 2, 4, 3, 2, 6, 1);

    /** What {@code idle_timeout = true} alone gives. */
    public static final IdleTimeout DEFAULT = new IdleTimeout(DEFAULT_PRECISION_BITS);

    public IdleTimeout {
        if (!ENTRIES_PER_WORD.containsKey(precisionBits)) {
            throw new IllegalArgumentException("idle time precision of " + precisionBits + " bits: Tofino keeps 1, 2, 3 or 6");
        }
    }

    /** Entries one map RAM word holds at this precision. */
    public int entriesPerWord() {
        return ENTRIES_PER_WORD.get(precisionBits);
    }
}

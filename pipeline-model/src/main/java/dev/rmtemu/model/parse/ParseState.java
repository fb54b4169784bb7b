package dev.rmtemu.model.parse;

import java.util.List;

/**
 * One state of a parse graph: its operations in order (extract a header, advance
 * a number of bytes), then its transition: a select over key components with
 * branches tried in order, or a plain transition (one branch without keys).
 */
public record ParseState(String name, List<Op> ops, List<SelectKey> keys, List<Branch> branches) {
    /** Next-state index of the {@code accept} state. */
    public static final int ACCEPT = -1;
    /** Next-state index of the {@code reject} state. */
    public static final int REJECT = -2;

    public ParseState {
        ops = List.copyOf(ops);
        keys = List.copyOf(keys);
        branches = List.copyOf(branches);
    }

    /** An operation of a state. */
    public sealed interface Op {
    }

    /** {@code pkt.extract(header)}. */
    public record Extract(String header) implements Op {
    }

    /** {@code pkt.advance(bytes * 8)}: skip bytes without extracting them. */
    public record Advance(int bytes) implements Op {
        public Advance {
            if (bytes < 0) {
                throw new IllegalArgumentException("advance by " + bytes + " bytes");
            }
        }
    }

    /** A select branch: one key set per key component (none for a plain transition), and where it goes. */
    public record Branch(List<KeySet> sets, String next) {
        public Branch {
            sets = List.copyOf(sets);
        }

        /** Whether every key set is {@code _}: the branch is the default. */
        public boolean isDefault() {
            for (KeySet s : sets) {
                if (!(s instanceof KeySet.Any)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether the state selects on keys (as opposed to a plain transition). */
    public boolean selects() {
        return !keys.isEmpty();
    }
}

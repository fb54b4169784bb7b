package dev.rmtemu.model.extern;

import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;

import java.util.ArrayList;
import java.util.List;

/**
 * TNA's {@code ActionProfile(size)}, optionally with the {@code ActionSelector} that picks among
 * its members: the implementation of one table ({@code implementation = ...}). The table's
 * entries hold no action of their own: an entry points at a member (an action and its data,
 * held by the profile) or, with a selector, at a group of members, of which the selector's hash
 * over the table's {@code selector} key fields picks one per packet. The profile lives in its
 * table's stage (p4c places an attached table with its match table).
 *
 * <p>Several tables of one gress may share a profile (the same instance named in each table's
 * {@code implementation}): one set of members and groups serves them all. p4c duplicates an
 * action profile or selector into every stage that holds a table sharing it (bf-p4c
 * mau/table_placement.cpp {@code TablePlacement::can_duplicate} is true for ActionData and
 * Selector, so {@code initial_stage_and_entries} never defers them for a sharing table); the
 * driver writes each copy alike.
 */
public final class ActionProfile {
    /** Members one 128-bit selector RAM word holds (bf-asm {@code SELECTOR_PORTS_PER_WORD}, one bit each). */
    public static final int MEMBERS_PER_SELECTOR_WORD = 120;
    /** The largest group Tofino's selector supports (bf-p4c resource_estimate MAX_POOL_RAMLINES x 120). */
    public static final int MAX_GROUP_SIZE = 119_040;
    /** Hash bits a FAIR selector reads for the member (the TNA examples' BASE_HASH_WIDTH for FAIR). */
    public static final int FAIR_HASH_BITS = 14;
    /** Hash bits a RESILIENT selector reads (the TNA examples' BASE_HASH_WIDTH for RESILIENT). */
    public static final int RESILIENT_HASH_BITS = 51;

    /**
     * The ActionSelector of a profile: its name (the control plane's name for its groups), the
     * hash of its {@code Hash<W>} instance over {@code key} (the table's selector key fields, in
     * key order), its mode, and its {@code max_group_size} and {@code num_groups}.
     */
    public record Selector(String name, HashAlgorithm algorithm, int hashBits, SelectorMode mode, int maxGroupSize,
                           int numGroups, List<Field> key) {
        public Selector {
            key = List.copyOf(key);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("action selector " + name + ": the table has no selector key fields");
            }
            if (maxGroupSize < 1 || maxGroupSize > MAX_GROUP_SIZE) {
                throw new IllegalArgumentException("action selector " + name + ": max_group_size " + maxGroupSize
                        + " outside 1.." + MAX_GROUP_SIZE);
            }
            if (numGroups < 1) {
                throw new IllegalArgumentException("action selector " + name + ": num_groups must be positive");
            }
        }

        /** 120-member RAM words one group takes (bf-p4c resource_estimate.cpp {@code SelectorRAMLinesPerEntry}). */
        public int wordsPerGroup() {
            return (maxGroupSize + MEMBERS_PER_SELECTOR_WORD - 1) / MEMBERS_PER_SELECTOR_WORD;
        }
    }

    private final int id;
    private final String name;
    private final int size;
    private final String table;
    /** Every table this profile implements, the first one ({@link #table}) first. */
    private final List<String> tables;
    private final Gress gress;
    private final Selector selector;
    private final HashUnit hash;

    public ActionProfile(int id, String name, int size, String table, Gress gress, Selector selector) {
        if (size < 1) {
            throw new IllegalArgumentException("action profile " + name + ": size must be positive");
        }
        this.id = id;
        this.name = name;
        this.size = size;
        this.table = table;
        this.tables = List.of(table);
        this.gress = gress;
        this.selector = selector;
        this.hash = selector == null ? null : new HashUnit(-1, selector.name() + "$hash", selector.algorithm(), selector.key(),
                selector.hashBits(), gress, -1);
    }

    public int id() {
        return id;
    }

    /** The profile's name (members are created in it). */
    public String name() {
        return name;
    }

    /** Members the profile holds (its {@code size}). */
    public int size() {
        return size;
    }

    /** The table whose implementation this is, by name (its placed twin keeps the name); the first one when shared. */
    public String table() {
        return table;
    }

    private ActionProfile(ActionProfile p, List<String> tables) {
        this.id = p.id;
        this.name = p.name;
        this.size = p.size;
        this.table = p.table;
        this.tables = List.copyOf(tables);
        this.gress = p.gress;
        this.selector = p.selector;
        this.hash = p.hash;
    }

    /** This profile also implementing table {@code tableName} (same id, members and groups). */
    public ActionProfile sharedWith(String tableName) {
        List<String> more = new ArrayList<>(tables);
        more.add(tableName);
        return new ActionProfile(this, more);
    }

    /** Every table this profile implements, in the order they were bound (the first is {@link #table}). */
    public List<String> tables() {
        return tables;
    }

    /** True when this profile implements table {@code tableName}. */
    public boolean implementsTable(String tableName) {
        return tables.contains(tableName);
    }

    public Gress gress() {
        return gress;
    }

    /** The selector, or null for a plain action profile. */
    public Selector selector() {
        return selector;
    }

    /** True when {@code n} names this profile or its selector. */
    public boolean named(String n) {
        return name.equals(n) || selector != null && selector.name().equals(n);
    }

    /** The selector's hash over the PHV as the table's stage sees it (no allocation). */
    public long selectorHash(long[] phv) {
        return hash.compute(phv);
    }

    @Override
    public String toString() {
        return name + "[" + size + " members" + (selector == null ? "" : ", selector " + selector.name() + " "
                + selector.mode() + " " + selector.numGroups() + " groups of <= " + selector.maxGroupSize()) + ", table"
                + (tables.size() == 1 ? " " : "s ") + String.join(", ", tables) + "]";
    }
}

package dev.rmtemu.model.check;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.MauResources;
import dev.rmtemu.model.target.MemoryGeometry;
import dev.rmtemu.model.target.TargetProfile;

import java.util.Locale;

/**
 * Sizes one register array or match table in RAMs and TCAMs the way the Tofino back end
 * of p4c does (bf-p4c mau/tofino/memories.cpp, mau/table_layout.cpp,
 * mau/resource_estimate.cpp), with every number from the target profile.
 */
final class MemoryLayout {
    private static final int UNLIMITED = TargetProfile.UNLIMITED;
    private static final int BITS_PER_BYTE = 8;
    private static final int BITS_PER_NIBBLE = 4;

    private MemoryLayout() {
    }

    /**
     * Register: ceil(cells / (RAM depth x cells per word)) data RAMs, plus the spare. A direct
     * register has the entries its table's layout holds (bf-p4c mau/resource_estimate.cpp
     * StageUseEstimate::calculate_attached_rams: a direct attached table's entries are the
     * layout's {@code lo->entries}, {@link #capacity}).
     */
    static TableUsage register(RegisterArray r, TargetProfile t) {
        MemoryGeometry sram = t.sram();
        int cellBits = r.cellBits();
        int perWord = cellBits <= sram.widthBits() ? sram.widthBits() / cellBits : 1;
        long entries = r.direct() ? capacity(r.table(), t) : r.size();
        long data = ResourceChecker.blocks(entries, cellBits, sram);
        int spare = t.mau().registerSpareRams();
        String rule = String.format(Locale.ROOT, "%s: ceil(%d / (%d x %d per word)) = %d data + %d spare",
                r.direct() ? "entries of its table's layout" : "cells", entries, sram.depth(), perWord, data, spare);
        return new TableUsage(r.stage(), r.gress(), r.name(), "register", data, spare, 0, 0, 0, 0, cellBits, perWord, rule);
    }

    /**
     * Counter: bf-p4c mau/resource_estimate.cpp StageUseEstimate::calculate_attached_rams with
     * CounterPerWord: cells of {@link Counter#cellBits()} packed into a RAM word (128 b: 4 packet or
     * byte counters of 32 b, 2 of 64 b, 2 packets-and-bytes cells of 28 + 36 b, 1 of 64 + 64 b),
     * units = ceil(entries / (RAM depth x per word)), plus the spare bank; each RAM takes a map RAM.
     * A direct counter has its table's entries.
     */
    static TableUsage counter(Counter c, TargetProfile t) {
        return attached(c.name(), "counter", c.stage(), c.gress(), c.size(), c.cellBits(), c.direct(), t);
    }

    /** Meter: calculate_attached_rams with one meter cell a 128-bit word (per_word = 1), plus the spare bank. */
    static TableUsage meter(Meter m, TargetProfile t) {
        return attached(m.name(), "meter", m.stage(), m.gress(), m.size(), t.sram().widthBits(), m.direct(), t);
    }

    private static TableUsage attached(String name, String kind, int stage, Gress gress, int entries,
                                       int cellBits, boolean direct, TargetProfile t) {
        MemoryGeometry sram = t.sram();
        int perWord = Math.max(1, sram.widthBits() / cellBits);
        long data = ResourceChecker.ceilDiv(entries, (long) sram.depth() * perWord);
        int spare = t.mau().registerSpareRams();
        String rule = String.format(Locale.ROOT, "%s: ceil(%d / (%d x %d per word)) = %d data + %d spare",
                direct ? "entries of its table" : "cells", entries, sram.depth(), perWord, data, spare);
        return new TableUsage(stage, gress, name, kind, data, spare, 0, 0, 0, 0, cellBits, perWord, rule);
    }

    static TableUsage table(MatchTable m, TargetProfile t) {
        if (m.keyless()) {
            return keyless(m);
        }
        return m.kind() == MatchKind.EXACT ? exact(m, t) : ternary(m, t);
    }

    /**
     * A keyless table: no match RAM or TCAM. p4c lays out a table whose match is 0 bits wide
     * with no match data (mau/table_layout.cpp, setup_layout_option_no_match), the result bus
     * always a miss, so its default action runs on the miss path (the path the driver sets);
     * it takes a logical table, nothing in the memories.
     */
    private static TableUsage keyless(MatchTable m) {
        return new TableUsage(m.stage(), m.gress(), m.name(), "keyless", 0, 0, 0, 0, 0, 0, 0, 0,
                "no key: no match memory; every packet takes the miss path to the default action");
    }

    /**
     * A table's idle time (bf-p4c mau/resource_estimate.cpp StageUseEstimate::calculate_attached_rams
     * with IdleTimePerWord): map RAMs only, no SRAM and no spare bank, ceil(entries / (RAM depth x
     * entries a word)), the entries those of the table's layout ({@code capacity}); 8, 4, 2 or 1
     * entries a word at 1, 2, 3 or 6 bits. The row's data RAMs are these map RAMs.
     */
    static TableUsage idleTime(MatchTable m, long capacity, TargetProfile t) {
        int perWord = m.options().idleTimeout().entriesPerWord();
        long rams = ResourceChecker.ceilDiv(capacity, (long) t.sram().depth() * perWord);
        String rule = String.format(Locale.ROOT, "idle time %d b: ceil(%d entries / (%d x %d per word)) = %d map RAMs",
                m.options().idleTimeout().precisionBits(), capacity, t.sram().depth(), perWord, rams);
        return new TableUsage(m.stage(), m.gress(), m.name(), "idletime", rams, 0, 0, 0, 0, 0,
                m.options().idleTimeout().precisionBits(), perWord, rule);
    }

    /**
     * Exact match, laid out at the fewest RAMs among the formats p4c's Tofino back end
     * tries (mau/table_layout.cpp LayoutChoices::setup_exact_match, then
     * mau/resource_estimate.cpp StageUseEstimate::select_best_option):
     * <ul>
     * <li>action data either immediate in the entry (when it fits the profile's immediate
     *     bits) or in action RAMs of power-of-two-byte slots (ActionDataPerWord);</li>
     * <li>for each, P entries a row, P = 1 .. exactMaxPackEntries, the row W RAMs wide with
     *     W the largest of: bits (P x entry over the RAM width), match bytes (P x key bytes
     *     over the RAM's bytes), overhead (P x (immediate + pointer bits) over
     *     exactOverheadBitsPerRam) and entries (P over exactMaxEntriesPerWord a RAM); W at most
     *     the array's rows; a P and W that only repeat a narrower packing are skipped;</li>
     * <li>entry = key - ghost bits + version + overhead + immediate data; RAMs deep =
     *     ceil(entries / (P x RAM depth)), rounded up to the minimum hash ways unless the whole
     *     key is the row address; RAMs = deep x W, plus the action RAMs;</li>
     * <li>the layout with the fewest RAMs wins; ties go to the narrower row, then (at equal
     *     capacity) the fewer entries a row, then immediate data, then the larger capacity.</li>
     * </ul>
     * A 104-bit key with 32-bit data and 8,192 entries: immediate, 130 b entries need 2 RAMs a
     * row (16 RAMs) or 3 for 2 entries (12); in action RAMs the 98 b entry fits one RAM (8) and
     * the data 4 a word (2): 10.
     */
    private static TableUsage exact(MatchTable m, TargetProfile t) {
        return bestExact(m, t).usage(m, t);
    }

    /**
     * Entries the table's layout holds (p4c's {@code lo->entries}, what a direct attached table
     * such as its idle time is sized by): an exact table's RAMs deep x RAM depth x entries a row,
     * a ternary table's TCAMs deep x TCAM depth.
     */
    static long capacity(MatchTable m, TargetProfile t) {
        if (m.keyless()) {
            return 0;
        }
        if (m.kind() == MatchKind.EXACT) {
            return bestExact(m, t).capacity();
        }
        long entries = m.kind() == MatchKind.RANGE ? rangeLines(m, t) : m.size();
        return ResourceChecker.ceilDiv(entries, t.tcam().depth()) * t.tcam().depth();
    }

    private static ExactLayout bestExact(MatchTable m, TargetProfile t) {
        MauResources mau = t.mau();
        int data = m.actionDataBits();
        ExactLayout best = null;
        boolean[] formats = data == 0 ? new boolean[] {true}
                : fitsImmediate(data, mau) ? new boolean[] {true, false} : new boolean[] {false};
        for (boolean immediate : formats) {
            int entry = entryBits(m, t, immediate);
            int overhead = t.exactEntryOverheadBits() + (immediate ? data : 0);
            int maxPack = mau.exactMaxPackEntries() == UNLIMITED
                    ? Math.max(1, t.sram().widthBits() / entry) : mau.exactMaxPackEntries();
            for (int pack = 1; pack <= maxPack; pack++) {
                int width = rowWidth(m, t, entry, overhead, pack);
                if (mau.sramRows() != UNLIMITED && width > mau.sramRows()) {
                    break;
                }
                int narrower = width > pack ? width % pack : pack % width;
                if (narrower == 0 && Math.min(width, pack) != 1) {
                    continue; // P x k entries in W x k RAMs: the same packing as P in W, only less flexible
                }
                ExactLayout l = ExactLayout.of(m, t, immediate, entry, pack, width);
                if (best == null || l.betterThan(best)) {
                    best = l;
                }
            }
        }
        return best;
    }

    /** Bits one exact-match entry stores: key less the ghost bits, version, overhead and immediate data. */
    private static int entryBits(MatchTable m, TargetProfile t, boolean immediate) {
        MauResources mau = t.mau();
        int ghost = Math.min(m.keyBits(), mau.exactGhostBits());
        return Math.max(1, m.keyBits() - ghost + mau.exactVersionBits() + t.exactEntryOverheadBits()
                + (immediate ? m.actionDataBits() : 0));
    }

    /** RAMs one row of {@code pack} entries spans: the largest of the bit, byte, overhead and entries-per-RAM limits. */
    private static int rowWidth(MatchTable m, TargetProfile t, int entry, int overhead, int pack) {
        MauResources mau = t.mau();
        MemoryGeometry sram = t.sram();
        long width = ResourceChecker.ceilDiv((long) pack * entry, sram.widthBits());
        width = Math.max(width, ResourceChecker.ceilDiv((long) pack * keyBytes(m), Math.max(1, sram.widthBits() / BITS_PER_BYTE)));
        if (mau.exactOverheadBitsPerRam() != UNLIMITED) {
            width = Math.max(width, ResourceChecker.ceilDiv((long) pack * overhead, mau.exactOverheadBitsPerRam()));
        }
        if (mau.exactMaxEntriesPerWord() != UNLIMITED) {
            width = Math.max(width, ResourceChecker.ceilDiv(pack, mau.exactMaxEntriesPerWord()));
        }
        return (int) Math.max(1, width);
    }

    /** One exact-match layout option: format, entries a row, RAMs wide and what it costs. */
    private record ExactLayout(boolean immediate, int entryBits, int pack, int width, long depth, int ways, long actionRams,
                               long capacity, String rule) implements SramLayoutChoice {
        static ExactLayout of(MatchTable m, TargetProfile t, boolean immediate, int entry, int pack, int width) {
            MauResources mau = t.mau();
            MemoryGeometry sram = t.sram();
            long depth = ResourceChecker.ceilDiv(m.size(), (long) sram.depth() * pack);
            String per = width == 1 ? pack + " per word" : pack + " per " + width + "-RAM row";
            int ways;
            String rule;
            if (m.keyBits() <= mau.exactGhostBits() && depth == 1) {
                ways = 1;
                rule = "direct: key of " + m.keyBits() + " b addresses the " + sram.depth() + " rows";
            } else if (depth < mau.exactMinWays()) {
                rule = String.format(Locale.ROOT, "minimum %d ways (%d entries need %d RAM%s deep at %s)",
                        mau.exactMinWays(), m.size(), depth, depth == 1 ? "" : "s", per);
                depth = mau.exactMinWays();
                ways = mau.exactMinWays();
            } else {
                ways = MemoryLayout.ways(depth, mau.exactMinWays());
                rule = String.format(Locale.ROOT, "entries: ceil(%d / (%d x %s)) = %d RAMs deep in %d ways",
                        m.size(), sram.depth(), per, depth, ways);
            }
            if (width > 1) {
                rule += ", " + width + " RAMs wide";
            }
            long action = immediate ? 0 : MemoryLayout.actionRams(m, m.size(), sram);
            if (action > 0) {
                rule += fitsImmediate(m.actionDataBits(), mau)
                        ? String.format(Locale.ROOT, ", action data %d b in %d action RAMs (fewer RAMs than in the entry)",
                                m.actionDataBits(), action)
                        : String.format(Locale.ROOT, ", action data %d b > %d b immediate: %d action RAMs",
                                m.actionDataBits(), mau.immediateMaxBits(), action);
            }
            return new ExactLayout(immediate, entry, pack, width, depth, ways, action, depth * sram.depth() * pack, rule);
        }

        @Override
        public long rams() {
            return depth * width + actionRams;
        }

        TableUsage usage(MatchTable m, TargetProfile t) {
            return new TableUsage(m.stage(), m.gress(), m.name(), "exact", depth * width, 0, actionRams, 0, 0, ways, entryBits,
                    width == 1 ? pack : 0, rule);
        }
    }

    /**
     * Ways of a hashed table {@code depth} RAMs deep: the minimum while fewer than twice
     * as many RAMs; beyond, ways of the largest power-of-two size s with minWays x s <= depth
     * (24 RAMs: six ways of 4), as resource_estimate.cpp calculate_way_sizes splits them.
     */
    static int ways(long depth, int minWays) {
        if (depth < 2L * minWays) {
            return minWays;
        }
        long s = 1;
        while ((s * 2) * minWays <= depth) {
            s *= 2;
        }
        return (int) ResourceChecker.ceilDiv(depth, s);
    }

    /**
     * Ternary/LPM: key bytes plus the version nibble, in nibbles, over the nibbles one TCAM
     * row holds (44 b = 5 bytes and a nibble of the shared byte) gives TCAMs wide; entries
     * over the TCAM depth gives TCAMs deep. Action-select bits and immediate data go to
     * ternary indirection RAMs, entries of a power of two bits (at least the profile's minimum).
     */
    private static TableUsage ternary(MatchTable m, TargetProfile t) {
        MauResources mau = t.mau();
        MemoryGeometry sram = t.sram();
        MemoryGeometry tcam = t.tcam();
        int keyBytes = keyBytes(m);
        int nibbles = 2 * keyBytes + (int) ResourceChecker.ceilDiv(mau.ternaryVersionBits(), BITS_PER_NIBBLE);
        int tcamNibbles = Math.max(1, tcam.widthBits() / BITS_PER_NIBBLE);
        int wide = (int) ResourceChecker.ceilDiv(nibbles, tcamNibbles);
        long entries = m.kind() == MatchKind.RANGE ? rangeLines(m, t) : m.size();
        long deep = ResourceChecker.ceilDiv(entries, tcam.depth());
        boolean immediate = fitsImmediate(m.actionDataBits(), mau);
        int overhead = t.exactEntryOverheadBits() + (immediate ? m.actionDataBits() : 0);
        long tind = 0;
        String rule = String.format(Locale.ROOT, "TCAM: %d key bytes + version = %d nibbles, %d per TCAM: %d wide x %d deep",
                keyBytes, nibbles, tcamNibbles, wide, deep);
        if (entries != m.size()) {
            rule = rangeRule(m, t, entries) + "; " + rule;
        }
        if (overhead > 0) {
            int tindBits = Math.max(mau.tindMinEntryBits(), powerOfTwoAtLeast(overhead));
            int perWord = Math.max(1, sram.widthBits() / tindBits);
            tind = ResourceChecker.ceilDiv(entries, (long) sram.depth() * perWord);
            rule += String.format(Locale.ROOT, ", indirection %d b entries, %d per word: %d RAMs", tindBits, perWord, tind);
        }
        long action = immediate ? 0 : actionRams(m, entries, sram);
        if (action > 0) {
            rule += String.format(Locale.ROOT, ", action data %d b > %d b immediate: %d action RAMs",
                    m.actionDataBits(), mau.immediateMaxBits(), action);
        }
        return new TableUsage(m.stage(), m.gress(), m.name(), m.kind().name().toLowerCase(Locale.ROOT), 0, 0, action, tind,
                (long) wide * deep, 0, nibbles * BITS_PER_NIBBLE, 0, rule);
    }

    /**
     * PHV nibbles a range key field spans: bf-p4c mau/resource_estimate.cpp RangeEntries::preorder
     * counts, per container byte the field occupies, the low nibble and the high nibble it
     * touches; rmtemu places a field from bit 0 of its container, so that is ceil(width / 4).
     */
    static int rangeNibbles(Field f) {
        return (f.width() + BITS_PER_NIBBLE - 1) / BITS_PER_NIBBLE;
    }

    /**
     * TCAM lines a range table is sized for, as bf-p4c's TablePlacement::initial_stage_and_entries
     * sizes a table with ranges (mau/table_placement.cpp) through RangeEntries
     * (mau/resource_estimate.cpp): one range entry takes up to 2 x nibbles - 1 lines (DirtCAM
     * matches a range nibble by nibble), capped by the multirange distributor; the widest key
     * field decides; RANGE_ENTRY_PERCENTAGE of the entries (rounded down) are sized at that,
     * the others at one line each. 512 entries on a 16-bit key: 128 x 7 + 384 = 1280 lines.
     */
    static long rangeLines(MatchTable m, TargetProfile t) {
        MauResources mau = t.mau();
        long ranged = mau.rangeEntryPercent() == UNLIMITED ? m.size() : (long) m.size() * mau.rangeEntryPercent() / 100;
        return ranged * linesPerRangeEntry(m, t) + (m.size() - ranged);
    }

    /**
     * Lines the worst range entry of this table takes: 2 x nibbles - 1 of its widest range field,
     * capped (RangeEntries::preorder visits only the key's range fields: an exact, ternary or lpm
     * field beside them takes one line's bits, as in any TCAM entry).
     */
    static int linesPerRangeEntry(MatchTable m, TargetProfile t) {
        int nibbles = 0;
        for (int i = 0; i < m.key().size(); i++) {
            if (m.fieldKind(i) == MatchKind.RANGE) {
                nibbles = Math.max(nibbles, rangeNibbles(m.key().get(i)));
            }
        }
        int cap = t.mau().rangeMaxLinesPerEntry();
        int lines = 2 * nibbles - 1;
        return cap == UNLIMITED ? lines : Math.min(cap, lines);
    }

    private static String rangeRule(MatchTable m, TargetProfile t, long lines) {
        MauResources mau = t.mau();
        long ranged = mau.rangeEntryPercent() == UNLIMITED ? m.size() : (long) m.size() * mau.rangeEntryPercent() / 100;
        return String.format(Locale.ROOT, "range: %d entries x %d%% at %d lines + %d at 1 = %d TCAM lines",
                m.size(), mau.rangeEntryPercent() == UNLIMITED ? 100 : mau.rangeEntryPercent(), linesPerRangeEntry(m, t),
                m.size() - ranged, lines);
    }

    /** TCAMs one entry of this ternary table spans. */
    static int tcamsWide(MatchTable m, TargetProfile t) {
        int nibbles = 2 * keyBytes(m) + (int) ResourceChecker.ceilDiv(t.mau().ternaryVersionBits(), BITS_PER_NIBBLE);
        return (int) ResourceChecker.ceilDiv(nibbles, Math.max(1, t.tcam().widthBits() / BITS_PER_NIBBLE));
    }

    /** Crossbar bytes of a table key: each field takes whole bytes. */
    static int keyBytes(MatchTable m) {
        int bytes = 0;
        for (Field f : m.key()) {
            bytes += fieldBytes(f);
        }
        return bytes;
    }

    static int fieldBytes(Field f) {
        return (f.width() + BITS_PER_BYTE - 1) / BITS_PER_BYTE;
    }

    /** Action data bus bytes a table's action data takes: immediate bytes, or the action RAM's power-of-two width. */
    static int actionBusBytes(MatchTable m, TargetProfile t) {
        if (m.actionDataBits() == 0) {
            return 0;
        }
        int bytes = (m.actionDataBits() + BITS_PER_BYTE - 1) / BITS_PER_BYTE;
        return fitsImmediate(m.actionDataBits(), t.mau()) ? bytes : powerOfTwoAtLeast(bytes);
    }

    static boolean fitsImmediate(int bits, MauResources mau) {
        return mau.immediateMaxBits() == UNLIMITED || bits <= mau.immediateMaxBits();
    }

    /** Action RAMs: entries of a power-of-two number of bytes packed per word (a wide entry spans RAMs). */
    static long actionRams(MatchTable m, long entries, MemoryGeometry sram) {
        int bits = powerOfTwoAtLeast((m.actionDataBits() + BITS_PER_BYTE - 1) / BITS_PER_BYTE) * BITS_PER_BYTE;
        return ResourceChecker.blocks(entries, bits, sram);
    }

    static int powerOfTwoAtLeast(int n) {
        int p = 1;
        while (p < n) {
            p *= 2;
        }
        return p;
    }
}

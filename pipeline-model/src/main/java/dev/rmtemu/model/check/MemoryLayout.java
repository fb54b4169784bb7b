package dev.rmtemu.model.check;

import dev.rmtemu.model.phv.Field;
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

    /** Register: ceil(cells / (RAM depth x cells per word)) data RAMs, plus the spare. */
    static TableUsage register(RegisterArray r, TargetProfile t) {
        MemoryGeometry sram = t.sram();
        int cellBits = r.cellBits();
        int perWord = cellBits <= sram.widthBits() ? sram.widthBits() / cellBits : 1;
        long data = ResourceChecker.blocks(r.size(), cellBits, sram);
        int spare = t.mau().registerSpareRams();
        String rule = String.format(Locale.ROOT, "cells: ceil(%d / (%d x %d per word)) = %d data + %d spare",
                r.size(), sram.depth(), perWord, data, spare);
        return new TableUsage(r.stage(), r.gress(), r.name(), "register", data, spare, 0, 0, 0, 0, cellBits, perWord, rule);
    }

    static TableUsage table(MatchTable m, TargetProfile t) {
        return m.kind() == MatchKind.EXACT ? exact(m, t) : ternary(m, t);
    }

    /**
     * Exact match: entry = key - ghost bits + version + overhead + immediate action data;
     * entries packed per 128-bit word (at most the profile's maximum), RAMs deep rounded
     * up to the minimum number of hash ways, unless the whole key is the row address.
     */
    private static TableUsage exact(MatchTable m, TargetProfile t) {
        MauResources mau = t.mau();
        MemoryGeometry sram = t.sram();
        boolean immediate = fitsImmediate(m.actionDataBits(), mau);
        int ghost = Math.min(m.keyBits(), mau.exactGhostBits());
        int entry = m.keyBits() - ghost + mau.exactVersionBits() + t.exactEntryOverheadBits()
                + (immediate ? m.actionDataBits() : 0);
        entry = Math.max(1, entry);
        int wide = (int) ResourceChecker.ceilDiv(entry, sram.widthBits());
        int perWord = entry <= sram.widthBits() ? Math.min(sram.widthBits() / entry, mau.exactMaxEntriesPerWord()) : 1;
        long depth = ResourceChecker.ceilDiv(m.size(), (long) sram.depth() * perWord);
        int ways;
        String rule;
        if (m.keyBits() <= mau.exactGhostBits() && depth == 1) {
            ways = 1;
            rule = "direct: key of " + m.keyBits() + " b addresses the " + sram.depth() + " rows";
        } else if (depth < mau.exactMinWays()) {
            rule = String.format(Locale.ROOT, "minimum %d ways (%d entries need %d RAM%s deep at %d per word)",
                    mau.exactMinWays(), m.size(), depth, depth == 1 ? "" : "s", perWord);
            depth = mau.exactMinWays();
            ways = mau.exactMinWays();
        } else {
            ways = ways(depth, mau.exactMinWays());
            rule = String.format(Locale.ROOT, "entries: ceil(%d / (%d x %d per word)) = %d RAMs deep in %d ways",
                    m.size(), sram.depth(), perWord, depth, ways);
        }
        long action = immediate ? 0 : actionRams(m, sram);
        if (wide > 1) {
            rule += ", " + wide + " RAMs wide";
        }
        if (action > 0) {
            rule += String.format(Locale.ROOT, ", action data %d b > %d b immediate: %d action RAMs",
                    m.actionDataBits(), mau.immediateMaxBits(), action);
        }
        return new TableUsage(m.stage(), m.gress(), m.name(), "exact", depth * wide, 0, action, 0, 0, ways, entry,
                entry <= sram.widthBits() ? perWord : 0, rule);
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
        long deep = ResourceChecker.ceilDiv(m.size(), tcam.depth());
        boolean immediate = fitsImmediate(m.actionDataBits(), mau);
        int overhead = t.exactEntryOverheadBits() + (immediate ? m.actionDataBits() : 0);
        long tind = 0;
        String rule = String.format(Locale.ROOT, "TCAM: %d key bytes + version = %d nibbles, %d per TCAM: %d wide x %d deep",
                keyBytes, nibbles, tcamNibbles, wide, deep);
        if (overhead > 0) {
            int tindBits = Math.max(mau.tindMinEntryBits(), powerOfTwoAtLeast(overhead));
            int perWord = Math.max(1, sram.widthBits() / tindBits);
            tind = ResourceChecker.ceilDiv(m.size(), (long) sram.depth() * perWord);
            rule += String.format(Locale.ROOT, ", indirection %d b entries, %d per word: %d RAMs", tindBits, perWord, tind);
        }
        long action = immediate ? 0 : actionRams(m, sram);
        if (action > 0) {
            rule += String.format(Locale.ROOT, ", action data %d b > %d b immediate: %d action RAMs",
                    m.actionDataBits(), mau.immediateMaxBits(), action);
        }
        return new TableUsage(m.stage(), m.gress(), m.name(), m.kind().name().toLowerCase(Locale.ROOT), 0, 0, action, tind,
                (long) wide * deep, 0, nibbles * BITS_PER_NIBBLE, 0, rule);
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

    private static boolean fitsImmediate(int bits, MauResources mau) {
        return mau.immediateMaxBits() == UNLIMITED || bits <= mau.immediateMaxBits();
    }

    /** Action RAMs: entries of a power-of-two number of bytes packed per word (a wide entry spans RAMs). */
    private static long actionRams(MatchTable m, MemoryGeometry sram) {
        int bits = powerOfTwoAtLeast((m.actionDataBits() + BITS_PER_BYTE - 1) / BITS_PER_BYTE) * BITS_PER_BYTE;
        return ResourceChecker.blocks(m.size(), bits, sram);
    }

    static int powerOfTwoAtLeast(int n) {
        int p = 1;
        while (p < n) {
            p *= 2;
        }
        return p;
    }
}

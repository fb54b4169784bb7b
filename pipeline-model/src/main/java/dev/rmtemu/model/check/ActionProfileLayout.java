package dev.rmtemu.model.check;

import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableActions;
import dev.rmtemu.model.table.TableOptions;
import dev.rmtemu.model.target.MemoryGeometry;
import dev.rmtemu.model.target.StageLatencyModel;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The RAMs of action profiles and selectors, in their table's stage (a shared profile: in each
 * stage of a table sharing it), as the Tofino back end of p4c lays them out:
 * <ul>
 * <li>the action profile: its members' action data in action RAMs, entries of a power-of-two
 *     number of bytes packed into 128-bit words (mau/resource_estimate.cpp
 *     {@code StageUseEstimate::calculate_attached_rams}, {@code ActionDataPerWord}):
 *     ceil(size / (1024 x entries per word));</li>
 * <li>the selector: one 128-bit word per 120 members of a group (bf-asm
 *     {@code SELECTOR_PORTS_PER_WORD}; resource_estimate.cpp {@code SelectorRAMLinesPerEntry}),
 *     num_groups x ceil(max_group_size / 120) RAM lines, in ceil(lines / 1024) RAMs plus the
 *     synth-2-port spare (mau/tofino/memories.cpp {@code Memories::swbox_bus_selectors_indirects}:
 *     {@code mems_needed(RAM_lines, SRAM_DEPTH, 1, true)}), each a map RAM; it runs on a meter
 *     ALU (mau/selector_update.cpp {@code AddSelectorSalu}: a synthetic stateful ALU) and its hash
 *     takes a hash function and its bits;</li>
 * <li>the match table: its entries hold a pointer instead of the action data: the member's
 *     address (ceil(log2(size)) bits) and, with a selector, the group's first RAM line
 *     (ceil(log2(lines)) bits) and the selector length (resource_estimate.cpp
 *     {@code SelectorLengthBits}).</li>
 * </ul>
 */
final class ActionProfileLayout {
    /** The largest word count the selector's modulo takes before shifting (resource_estimate.h MAX_MOD). */
    private static final int MAX_MOD = 31;
    private static final int BITS_PER_BYTE = 8;

    private ActionProfileLayout() {
    }

    /**
     * Adds the profiles of gress {@code g} to its stage rows and table list (both changed in
     * place). A profile shared by several tables takes its RAMs once in each stage that holds one
     * of them (bf-p4c mau/table_placement.cpp {@code TablePlacement::can_duplicate}: ActionData
     * and Selector are duplicated into every stage of a table that uses them), listed after the
     * first such table of the stage; each table's entries hold the pointer.
     */
    static void account(StageProgram program, Gress g, TargetProfile target, List<StageUsage> rows, List<TableUsage> tables) {
        for (ActionProfile p : program.actionProfiles()) {
            if (p.gress() != g) {
                continue;
            }
            List<Integer> stagesWithCopy = new ArrayList<>();
            for (String tableName : p.tables()) {
                MatchTable m = program.table(tableName);
                int at = indexOf(tables, m);
                int row = rowOf(rows, m.stage(), g);
                if (at < 0 || row < 0) {
                    continue;
                }
                boolean copy = !stagesWithCopy.contains(m.stage());
                if (copy) {
                    stagesWithCopy.add(m.stage());
                }
                account(program, p, m, copy, at, row, target, rows, tables);
            }
        }
    }

    /** One table of a profile: its pointer-sized entries and, for the first table of its stage, the profile's copy there. */
    private static void account(StageProgram program, ActionProfile p, MatchTable m, boolean copy, int at, int row,
                                TargetProfile target, List<StageUsage> rows, List<TableUsage> tables) {
        TableUsage direct = tables.get(at);
        int pointer = pointerBits(p);
        TableUsage resized = MemoryLayout.table(new MatchTable(m.id(), m.name(), m.kind(), m.key(), m.size(), pointer,
                m.gress(), m.stage(), List.of(), TableActions.NONE, TableOptions.NONE, m.fieldKinds()), target);
        tables.set(at, new TableUsage(resized.stage(), resized.gress(), resized.name(), resized.kind(), resized.dataRams(),
                resized.spareRams(), resized.actionRams(), resized.tindRams(), resized.tcams(), resized.ways(),
                resized.entryBits(), resized.entriesPerWord(), "entries hold a " + pointer + "-bit pointer into "
                + p.name() + "; " + resized.sizedBy()));
        long srams = resized.srams() - direct.srams();
        long tcams = resized.tcams() - direct.tcams();
        long tind = resized.tindRams() - direct.tindRams();
        long map = 0;
        int salus = 0;
        int hashBits = 0;
        int hashUnits = 0;
        int xbar = 0;
        if (copy) {
            TableUsage profile = profile(p, m, target);
            tables.add(at + 1, profile);
            srams += profile.srams();
            if (p.selector() != null) {
                TableUsage sel = selector(p, m, target);
                tables.add(at + 2, sel);
                srams += sel.srams();
                map += sel.dataRams() + sel.spareRams();
                salus = 1;
                hashBits = p.selector().hashBits();
                hashUnits = 1;
                xbar = selectorXbarBytes(p, program, m);
            }
        }
        StageUsage u = rows.get(row);
        StageLatencyModel lat = target.latency();
        // a stage's first stateful ALU adds its cycles to a match-dependent stage (ResourceChecker.usage)
        int cycles = u.latencyCycles() + (salus > 0 && u.statefulAlus() == 0 && u.latencyCycles() >= lat.matchStageCycles()
                ? lat.statefulAluCycles() : 0);
        rows.set(row, new StageUsage(u.stage(), u.gress(), u.sramBlocks() + srams, u.tcamBlocks() + tcams,
                u.statefulAlus() + salus, u.hashBits() + hashBits, u.hashUnits() + hashUnits, u.logicalTables(), cycles,
                u.mapRams() + map, u.tindRams() + tind, u.ternaryTables(), u.gateways(), u.actionDataBusBytes(),
                u.instructions(), u.exactXbarBytes() + xbar, u.ternaryXbarBytes(), u.statsAlus()));
    }

    /** The action RAMs of a profile's members: action data of the table's widest action, in power-of-two-byte slots. */
    static TableUsage profile(ActionProfile p, MatchTable m, TargetProfile t) {
        MemoryGeometry sram = t.sram();
        int bytes = MemoryLayout.powerOfTwoAtLeast(Math.max(1, (m.actionDataBits() + BITS_PER_BYTE - 1) / BITS_PER_BYTE));
        int bits = bytes * BITS_PER_BYTE;
        long rams = m.actionDataBits() == 0 ? 0 : ResourceChecker.blocks(p.size(), bits, sram);
        int perWord = Math.max(1, sram.widthBits() / bits);
        String rule = m.actionDataBits() == 0 ? "members carry no action data"
                : String.format(Locale.ROOT, "members: ceil(%d / (%d x %d per word of %d-byte slots)) = %d action RAMs",
                p.size(), sram.depth(), perWord, bytes, rams);
        return new TableUsage(m.stage(), m.gress(), p.name(), "action profile", 0, 0, rams, 0, 0, 0,
                m.actionDataBits() == 0 ? 0 : bits, perWord, rule);
    }

    /** A selector's RAM lines (one per 120 members of a group), its data RAMs and the spare. */
    static TableUsage selector(ActionProfile p, MatchTable m, TargetProfile t) {
        ActionProfile.Selector s = p.selector();
        MemoryGeometry sram = t.sram();
        long lines = (long) s.wordsPerGroup() * s.numGroups();
        long data = ResourceChecker.ceilDiv(lines, sram.depth());
        int spare = t.mau().registerSpareRams();
        String rule = String.format(Locale.ROOT, "%d groups x ceil(%d / %d members per word) = %d lines: ceil(%d / %d) = %d data + %d spare",
                s.numGroups(), s.maxGroupSize(), ActionProfile.MEMBERS_PER_SELECTOR_WORD, lines, lines, sram.depth(), data, spare);
        return new TableUsage(m.stage(), m.gress(), s.name(), "selector", data, spare, 0, 0, 0, 0,
                ActionProfile.MEMBERS_PER_SELECTOR_WORD, 1, rule);
    }

    /** Bits an indirect entry holds instead of action data: member address, and a selector's group line and length. */
    static int pointerBits(ActionProfile p) {
        int bits = ceilLog2(p.size());
        ActionProfile.Selector s = p.selector();
        if (s != null) {
            bits += ceilLog2((long) s.wordsPerGroup() * s.numGroups()) + lengthBits(s.wordsPerGroup());
        }
        return Math.max(1, bits);
    }

    /** resource_estimate.cpp SelectorLengthBits: the modulo's bits plus the shift's, for a group of {@code words} lines. */
    static int lengthBits(int words) {
        if (words == 1) {
            return 0;
        }
        int shift = 0;
        while ((words >> shift) > MAX_MOD) {
            shift++;
        }
        int mod = ceilLog2((words >> shift) + 1L);
        return mod + (shift == 0 ? 0 : ceilLog2(shift + 1L));
    }

    /**
     * The selector key's crossbar bytes in the stage of table {@code m}: fields not already on the
     * crossbar as the key of a table of that stage sharing the profile (one copy hashes for all).
     */
    private static int selectorXbarBytes(ActionProfile p, StageProgram program, MatchTable m) {
        int bytes = 0;
        for (var f : p.selector().key()) {
            boolean keyed = false;
            for (String name : p.tables()) {
                MatchTable t = program.table(name);
                keyed |= t.stage() == m.stage() && t.key().contains(f);
            }
            bytes += keyed ? 0 : MemoryLayout.fieldBytes(f);
        }
        return bytes;
    }

    private static int ceilLog2(long n) {
        return n <= 1 ? 0 : Long.SIZE - Long.numberOfLeadingZeros(n - 1);
    }

    private static int indexOf(List<TableUsage> tables, MatchTable m) {
        for (int i = 0; i < tables.size(); i++) {
            TableUsage u = tables.get(i);
            if (u.name().equals(m.name()) && u.stage() == m.stage() && u.gress() == m.gress()) {
                return i;
            }
        }
        return -1;
    }

    private static int rowOf(List<StageUsage> rows, int stage, Gress g) {
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).stage() == stage && rows.get(i).gress() == g) {
                return i;
            }
        }
        return -1;
    }
}

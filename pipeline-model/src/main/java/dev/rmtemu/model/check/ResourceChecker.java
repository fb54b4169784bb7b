package dev.rmtemu.model.check;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.MauResources;
import dev.rmtemu.model.target.MemoryGeometry;
import dev.rmtemu.model.target.PhvContainerGroup;
import dev.rmtemu.model.target.StageLatencyModel;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The static checker: places a program on a target and reports every budget it
 * exceeds, one line per failure naming the rule and the numbers ("stage 4 ingress:
 * stateful ALUs 5 > 4", "stage 0 ingress: register flow_count needs 17 map RAMs,
 * 14 left of 48"). Tables and registers are sized by {@link MemoryLayout} as the
 * Tofino back end of p4c lays a stage out; the budgets come from the target profile
 * ({@link TargetProfile#mau()} for the layout rules). A physical stage's memories,
 * stateful ALUs, hash groups, crossbars, gateways, action data bus and logical tables
 * are shared by ingress and egress, so those budgets are checked on their sum;
 * instruction memory is per gress. What the program form cannot show (gateways,
 * VLIW instructions, extra action data bus bytes) comes in as {@link StageLogic}.
 */
public final class ResourceChecker {
    private ResourceChecker() {
    }

    /** Checks a program with nothing known beyond it (no gateways, instructions or extra action data). */
    public static ResourceReport check(StageProgram program, TargetProfile target) {
        return check(program, target, List.of());
    }

    /**
     * Checks a program together with what its stages need that the program form cannot
     * show (gateways, VLIW instructions, action data bus bytes), at most one entry per
     * gress and stage.
     */
    public static ResourceReport check(StageProgram program, TargetProfile target, List<StageLogic> logic) {
        return check(program, target, logic, phvDemands(program));
    }

    /**
     * As {@link #check(StageProgram, TargetProfile, List)}, with the PHV demands given:
     * the compiler passes fields whose live ranges do not overlap as one demand (an overlay).
     */
    public static ResourceReport check(StageProgram program, TargetProfile target, List<StageLogic> logic,
                                       List<PhvAllocation.Demand> phvDemands) {
        if (!program.isPlaced()) {
            // a control's elements have no stage until the compiler places them (ProgramCompiler.compile does)
            throw new IllegalArgumentException("program " + program.name() + " names no stages: place it before checking it");
        }
        Map<String, StageLogic> logicByRow = new TreeMap<>();
        for (StageLogic l : logic) {
            if (logicByRow.put(ResourceReport.rowKey(l.stage(), l.gress()), l) != null) {
                throw new IllegalArgumentException("stage logic given twice for " + l.gress().label() + " stage " + l.stage());
            }
            StageDecl d = find(program.stages(l.gress()), l.stage());
            for (StageLogic.AluInputs in : l.aluInputs()) {
                if (d == null || d.registers().stream().noneMatch(r -> r.name().equals(in.register()))) {
                    throw new IllegalArgumentException("stage logic of " + l.gress().label() + " stage " + l.stage()
                            + " names register '" + in.register() + "', which that stage does not declare");
                }
            }
        }
        List<String> failures = new ArrayList<>();
        Set<String> failingRows = new LinkedHashSet<>();
        List<StageUsage> rows = new ArrayList<>();
        List<TableUsage> tables = new ArrayList<>();
        TreeSet<AtomTemplate> templates = new TreeSet<>();
        Map<Gress, Integer> latency = new EnumMap<>(Gress.class);

        int lastStage = -1;
        for (Gress g : Gress.values()) {
            for (StageDecl s : program.stages(g)) {
                lastStage = Math.max(lastStage, s.number());
            }
        }
        for (StageLogic l : logic) {
            lastStage = Math.max(lastStage, l.stage());
        }
        int rowStages = target.stagesPerGress() == TargetProfile.UNLIMITED ? lastStage + 1 : target.stagesPerGress();
        for (Gress g : Gress.values()) {
            int used = 0;
            for (StageDecl d : program.stages(g)) {
                used = d.number() + 1;
            }
            for (StageLogic l : logic) {
                if (l.gress() == g) {
                    used = Math.max(used, l.stage() + 1);
                }
            }
            if (used == 0) {
                continue;
            }
            if (used > target.stagesPerGress()) {
                failures.add(g.label() + ": program uses " + used + " stages > " + target.stagesPerGress());
            }
            for (int n = 0; n < Math.max(rowStages, used); n++) {
                StageDecl d = find(program.stages(g), n);
                StageLogic l = logicByRow.get(ResourceReport.rowKey(n, g));
                rows.add(d == null ? StageUsage.empty(n, g, l)
                        : usage(d, l, target, failures, failingRows, templates, tables));
            }
            ActionProfileLayout.account(program, g, target, rows, tables);
            latency.put(g, pipelineLatency(rows, g, target.latency()));
        }

        // shared per-stage budgets
        int maxStage = 0;
        for (StageUsage u : rows) {
            maxStage = Math.max(maxStage, u.stage() + 1);
        }
        MauResources mau = target.mau();
        for (int n = 0; n < maxStage; n++) {
            StageUsage in = row(rows, n, Gress.INGRESS);
            StageUsage eg = row(rows, n, Gress.EGRESS);
            registerRams(failures, failingRows, n, tables, target);
            budget(failures, failingRows, n, in, eg, "SRAM blocks", StageUsage::sramBlocks, target.sram().unlimited() ? Long.MAX_VALUE : target.sram().blocks(), "");
            budget(failures, failingRows, n, in, eg, "ternary indirection RAMs", StageUsage::tindRams, mau.leftSideRams(),
                    " (left-side columns, " + mau.sramLeftColumns() + " x " + mau.sramRows() + " rows)");
            budget(failures, failingRows, n, in, eg, "TCAM blocks", StageUsage::tcamBlocks, target.tcam().unlimited() ? Long.MAX_VALUE : target.tcam().blocks(), "");
            budget(failures, failingRows, n, in, eg, "ternary tables", StageUsage::ternaryTables, mau.ternaryTablesPerStage(), "");
            // meter ALUs: register arrays and meters share them (memories.h METER_ALUS)
            budget(failures, failingRows, n, in, eg, "stateful ALUs", StageUsage::statefulAlus, target.statefulAlusPerStage(), "");
            budget(failures, failingRows, n, in, eg, "statistics ALUs", StageUsage::statsAlus, mau.statsAlus(), " (one per counter)");
            budget(failures, failingRows, n, in, eg, "hash functions", StageUsage::hashUnits, target.hashFunctionsPerStage(),
                    " (one per hash group of " + target.hashBitsPerFunction() + " bits)");
            budget(failures, failingRows, n, in, eg, "logical tables", StageUsage::logicalTables, target.logicalTablesPerStage(), "");
            budget(failures, failingRows, n, in, eg, "exact-match crossbar bytes", StageUsage::exactXbarBytes, mau.exactXbarBytes(), "");
            budget(failures, failingRows, n, in, eg, "ternary crossbar bytes", StageUsage::ternaryXbarBytes, mau.ternaryXbarBytes(), "");
            budget(failures, failingRows, n, in, eg, "gateways", StageUsage::gateways, mau.gatewaysPerStage(), "");
            budget(failures, failingRows, n, in, eg, "action data bus bytes", StageUsage::actionDataBusBytes, mau.actionDataBusBytes(), "");
            for (StageUsage u : new StageUsage[] {in, eg}) {
                // instruction memory is per gress: each has its own rows and colours
                if (u != null && mau.instructionSlots() != TargetProfile.UNLIMITED && u.instructions() > mau.instructionSlots()) {
                    failures.add("stage " + n + " " + u.gress().label() + ": VLIW instructions " + u.instructions() + " > "
                            + mau.instructionSlots() + " (instruction memory " + mau.instructionRows() + " rows x "
                            + mau.instructionColours() + " colours, " + mau.instructionReserved() + " reserved for the no-op)");
                    failingRows.add(ResourceReport.rowKey(n, u.gress()));
                }
            }
        }

        PhvAllocation phv = PhvAllocation.allocate(target, phvDemands);
        failures.addAll(phv.failures());
        List<ResourceReport.PhvGroupUsage> groups = new ArrayList<>();
        for (int i = 0; i < target.phvContainers().size(); i++) {
            PhvContainerGroup g = target.phvContainers().get(i);
            groups.add(new ResourceReport.PhvGroupUsage(g.widthBits(), phv.used(Gress.INGRESS, i), phv.used(Gress.EGRESS, i), g.count(),
                    g.tagalong()));
        }
        return new ResourceReport(program.name(), program.params(), target, rows, tables, groups, phv.requestedBits(),
                latency, templates, failures, List.copyOf(failingRows));
    }

    /**
     * Synth-2-port RAMs of one stage (registers, then counters and meters, bf-p4c
     * calculate_attached_rams: each needs map RAMs, which exist only on the right side), in
     * placement order (ingress, then egress, each in declaration order): each one's data and
     * spare RAMs must fit the map RAMs and the right-side RAMs still free, and a register one
     * stateful ALU's reach unless the target can split a register across stages.
     */
    private static void registerRams(List<String> failures, Set<String> failingRows, int n, List<TableUsage> tables,
                                     TargetProfile target) {
        MauResources mau = target.mau();
        long mapUsed = 0;
        long rightUsed = 0;
        for (TableUsage t : tables) {
            boolean register = t.kind().equals("register");
            if (t.stage() == n && t.kind().equals("idletime")) {
                // idle time takes map RAMs only, no SRAM beside them (calculate_attached_rams: need_srams false)
                if (mau.mapRams() != TargetProfile.UNLIMITED && mapUsed + t.dataRams() > mau.mapRams()) {
                    failures.add("stage " + n + " " + t.gress().label() + ": idle time of table " + t.name() + " needs "
                            + t.dataRams() + " map RAMs, " + Math.max(0, mau.mapRams() - mapUsed) + " left of " + mau.mapRams());
                    failingRows.add(ResourceReport.rowKey(n, t.gress()));
                }
                mapUsed += t.dataRams();
                continue;
            }
            if (t.stage() != n || !register && !t.kind().equals("counter") && !t.kind().equals("meter")
                    && !t.kind().equals("selector")) {
                continue;
            }
            long need = t.dataRams() + t.spareRams();
            String where = "stage " + n + " " + t.gress().label() + ": " + t.kind() + " " + t.name();
            if (register && !mau.registerSplitAcrossStages() && mau.registerMaxRams() != TargetProfile.UNLIMITED
                    && need > mau.registerMaxRams()) {
                failures.add(where + " needs " + need + " RAMs, more than the " + mau.registerMaxRams()
                        + " one stateful ALU reaches (" + mau.registerMaxRows() + " rows x " + mau.sramRightColumns()
                        + " right-side RAMs), and " + target.name() + " cannot split a register across stages");
                failingRows.add(ResourceReport.rowKey(n, t.gress()));
            }
            if (mau.mapRams() != TargetProfile.UNLIMITED && mapUsed + need > mau.mapRams()) {
                failures.add(where + " needs " + need + " map RAMs, " + Math.max(0, mau.mapRams() - mapUsed)
                        + " left of " + mau.mapRams());
                failingRows.add(ResourceReport.rowKey(n, t.gress()));
            }
            if (mau.rightSideRams() != TargetProfile.UNLIMITED && rightUsed + need > mau.rightSideRams()) {
                failures.add(where + " needs " + need + " right-side RAMs, " + Math.max(0, mau.rightSideRams() - rightUsed)
                        + " left of " + mau.rightSideRams() + " (" + mau.sramRightColumns() + " columns x "
                        + mau.sramRows() + " rows)");
                failingRows.add(ResourceReport.rowKey(n, t.gress()));
            }
            mapUsed += need;
            rightUsed += need;
        }
    }

    private static StageDecl find(List<StageDecl> decls, int n) {
        for (StageDecl d : decls) {
            if (d.number() == n) {
                return d;
            }
        }
        return null;
    }

    private static StageUsage row(List<StageUsage> rows, int n, Gress g) {
        for (StageUsage u : rows) {
            if (u.stage() == n && u.gress() == g) {
                return u;
            }
        }
        return null;
    }

    private static StageUsage usage(StageDecl d, StageLogic logic, TargetProfile target, List<String> failures,
                                    Set<String> failingRows, Set<AtomTemplate> templates, List<TableUsage> tables) {
        String where = "stage " + d.number() + " " + d.gress().label();
        String rowKey = ResourceReport.rowKey(d.number(), d.gress());
        MauResources mau = target.mau();
        long sramBlocks = 0;
        long tcamBlocks = 0;
        long mapRams = 0;
        long tindRams = 0;
        int ternaryTables = 0;
        int adbBytes = logic == null ? 0 : logic.actionDataBusBytes();
        for (RegisterArray r : d.registers()) {
            TableUsage t = MemoryLayout.register(r, target);
            tables.add(t);
            sramBlocks += t.srams();
            mapRams += t.dataRams() + t.spareRams();
            if (r.wordBits() > target.registerWordBits()) {
                failures.add(where + ": register '" + r.name() + "' words of " + r.wordBits() + " b > "
                        + target.registerWordBits() + " b stateful-ALU word on " + target.name());
                failingRows.add(rowKey);
            } else if (!target.supportsCellWidth(r.cellBits())) {
                failures.add(where + ": register '" + r.name() + "' cells of " + r.cellBits() + " b not supported on "
                        + target.name() + " (cell widths " + target.registerCellWidths() + ")");
                failingRows.add(rowKey);
            }
            int actions = 0;
            for (RegisterAction a : d.registerActions()) {
                actions += a.array() == r ? 1 : 0;
            }
            if (mau.registerActionsPerRegister() != TargetProfile.UNLIMITED && actions > mau.registerActionsPerRegister()) {
                failures.add(where + ": register '" + r.name() + "' has " + actions + " register actions > "
                        + mau.registerActionsPerRegister() + " per register");
                failingRows.add(rowKey);
            }
            // the register file holds the params its actions read (large constants stay in the emulator's code: not counted)
            if (mau.saluRegisterFileRows() != TargetProfile.UNLIMITED && r.params().size() > mau.saluRegisterFileRows()) {
                failures.add(where + ": register '" + r.name() + "' stateful ALU reads " + r.params().size()
                        + " RegisterParams > " + mau.saluRegisterFileRows() + " register-file rows");
                failingRows.add(rowKey);
            }
        }
        if (logic != null) {
            for (StageLogic.AluInputs in : logic.aluInputs()) {
                // input_xbar.cpp: a stateful ALU reads two PHV words from the crossbar, or hash bits of one group
                if (mau.saluPhvSources() != TargetProfile.UNLIMITED && in.phvSources() > mau.saluPhvSources()) {
                    failures.add(where + ": register '" + in.register() + "' stateful ALU reads " + in.phvSources()
                            + " PHV words > " + mau.saluPhvSources());
                    failingRows.add(rowKey);
                }
                if (mau.saluHashBits() != TargetProfile.UNLIMITED && in.hashBits() > mau.saluHashBits()) {
                    failures.add(where + ": register '" + in.register() + "' stateful ALU reads " + in.hashBits()
                            + " hash bits > " + mau.saluHashBits());
                    failingRows.add(rowKey);
                }
            }
        }
        for (RegisterAction a : d.registerActions()) {
            templates.add(a.template());
            if (!target.templates().contains(a.template())) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' needs the "
                        + a.template() + " template, which " + target.name() + "'s stateful ALUs do not implement");
                failingRows.add(rowKey);
            }
            // even where a profile allows more, predicates (4-bit truth tables) name only c0 and c1
            int maxConditions = Math.min(target.saluMaxConditions(), Predicate.CONDITIONS);
            if (a.conditionCount() > maxConditions) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' has "
                        + a.conditionCount() + " conditions > " + maxConditions
                        + (maxConditions < target.saluMaxConditions() ? " (predicates name c0 and c1 only)" : ""));
                failingRows.add(rowKey);
            }
            if (a.maxBranchesPerWord() > target.saluMaxBranchesPerWord()) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' has "
                        + a.maxBranchesPerWord() + " update branches on a word > " + target.saluMaxBranchesPerWord());
                failingRows.add(rowKey);
            }
        }
        // crossbar bytes: a field feeds a crossbar once however many keys and hashes read it
        Set<String> exactFields = new TreeSet<>();
        Set<String> ternaryFields = new TreeSet<>();
        int exactXbar = 0;
        int ternaryXbar = 0;
        int algorithmicLogical = 0;
        for (MatchTable m : d.tables()) {
            if (m.options().algorithmic() != null) {
                // ALPM / ATCAM: the entries in SRAM through the exact-match crossbar, an ALPM's pre-classifier in TCAM
                AlgorithmicTcamLayout.Sized a = AlgorithmicTcamLayout.size(m, target);
                tables.addAll(a.rows());
                for (TableUsage t : a.rows()) {
                    sramBlocks += t.srams();
                    tcamBlocks += t.tcams();
                    tindRams += t.tindRams();
                }
                if (a.refusal() != null) {
                    failures.add(where + ": " + a.refusal());
                    failingRows.add(rowKey);
                }
                adbBytes += MemoryLayout.actionBusBytes(m, target);
                exactXbar += newFieldBytes(m.key(), exactFields);
                if (a.preClassifier() != null) {
                    ternaryTables++;
                    ternaryXbar += newFieldBytes(m.key(), ternaryFields);
                    adbBytes += MemoryLayout.actionBusBytes(a.preClassifier(), target);
                    // the partition index the pre-classifier writes is part of the ATCAM's key
                    exactXbar += (m.options().algorithmic().partitionIndexBits() + Byte.SIZE - 1) / Byte.SIZE;
                }
                // the table itself is counted below with every table: only the extra logical tables here
                algorithmicLogical += Math.max(0, a.logicalTables() - 1);
                continue;
            }
            TableUsage t = MemoryLayout.table(m, target);
            tables.add(t);
            sramBlocks += t.srams();
            tcamBlocks += t.tcams();
            tindRams += t.tindRams();
            adbBytes += MemoryLayout.actionBusBytes(m, target);
            if (m.kind() == MatchKind.EXACT) {
                exactXbar += newFieldBytes(m.key(), exactFields);
            } else {
                ternaryTables++;
                ternaryXbar += newFieldBytes(m.key(), ternaryFields);
                if (m.kind() == MatchKind.RANGE && mau.rangeMaxNibbles() != TargetProfile.UNLIMITED) {
                    // bf-p4c mau/resource_estimate.cpp RangeEntries::preorder: a range key over more PHV nibbles than
                    // one ternary crossbar group's bytes does not compile
                    for (Field f : m.key()) {
                        if (m.fieldKind(m.key().indexOf(f)) != MatchKind.RANGE) {
                            continue; // RangeEntries::preorder returns at once on a key that is not a range
                        }
                        int nibbles = MemoryLayout.rangeNibbles(f);
                        if (nibbles > mau.rangeMaxNibbles()) {
                            failures.add(where + ": range table '" + m.name() + "' matches " + f.name() + " (" + f.width()
                                    + " b) over " + nibbles + " PHV nibbles > " + mau.rangeMaxNibbles() + " a range key may span");
                            failingRows.add(rowKey);
                        }
                    }
                }
                int wide = MemoryLayout.tcamsWide(m, target);
                if (mau.tcamMaxWide() != TargetProfile.UNLIMITED && wide > mau.tcamMaxWide()) {
                    failures.add(where + ": " + t.kind() + " table '" + m.name() + "' needs " + wide + " TCAMs wide ("
                            + MemoryLayout.keyBytes(m) + " key bytes and the version nibble) > " + mau.tcamMaxWide());
                    failingRows.add(rowKey);
                }
            }
        }
        int hashBits = 0;
        if (logic != null) {
            // gateway.cpp: a gateway's bytes come from the exact-match crossbar, its range bits from a hash group
            exactXbar += newFieldBytes(logic.gatewayFields(), exactFields);
            hashBits += logic.gatewayHashBits();
        }
        for (HashUnit h : d.hashes()) {
            hashBits += h.outputBits();
            exactXbar += newFieldBytes(h.inputs(), exactFields);
            if (h.outputBits() > target.hashBitsPerFunction()) {
                failures.add(where + ": hash '" + h.name() + "' outputs " + h.outputBits() + " bits > "
                        + target.hashBitsPerFunction() + " bits of its hash group");
                failingRows.add(rowKey);
            }
        }
        for (MatchTable m : d.tables()) {
            if (m.options().idleTimeout() != null) {
                // idle time: map RAMs only, sized by the entries the table's layout holds (calculate_attached_rams)
                long capacity = m.options().algorithmic() != null ? AlgorithmicTcamLayout.capacity(m, target)
                        : MemoryLayout.capacity(m, target);
                TableUsage t = MemoryLayout.idleTime(m, capacity, target);
                tables.add(t);
                mapRams += t.dataRams();
            }
        }
        for (Counter c : d.counters()) {
            TableUsage t = MemoryLayout.counter(c, target);
            tables.add(t);
            sramBlocks += t.srams();
            mapRams += t.dataRams() + t.spareRams();
        }
        for (Meter m : d.meters()) {
            TableUsage t = MemoryLayout.meter(m, target);
            tables.add(t);
            sramBlocks += t.srams();
            mapRams += t.dataRams() + t.spareRams();
        }
        // a meter runs on a meter ALU, as a register array does (memories.h METER_ALUS, shared)
        int salus = d.registers().size() + d.meters().size();
        // an indirect counter or meter is driven by a logical table of its own, as a register is; a direct one by its table
        int logical = d.tables().size() + d.registers().size() - directRegisters(d) + indirect(d) + algorithmicLogical;
        StageLatencyModel lat = target.latency();
        int cycles = switch (d.dependency()) {
            case MATCH -> lat.matchStageCycles() + (salus > 0 ? lat.statefulAluCycles() : 0) + (tcamBlocks > 0 ? lat.tcamCycles() : 0);
            case ACTION -> lat.actionDependentCycles();
            case CONCURRENT -> lat.concurrentCycles();
        };
        return new StageUsage(d.number(), d.gress(), sramBlocks, tcamBlocks, salus, hashBits, d.hashes().size(), logical, cycles,
                mapRams, tindRams, ternaryTables, logic == null ? 0 : logic.gateways(), adbBytes,
                logic == null ? 0 : logic.instructions(), exactXbar, ternaryXbar, d.counters().size());
    }

    /** Direct register arrays: each is driven by its match table's logical table, not one of its own. */
    private static int directRegisters(StageDecl d) {
        int n = 0;
        for (RegisterArray r : d.registers()) {
            n += r.direct() ? 1 : 0;
        }
        return n;
    }

    private static int indirect(StageDecl d) {
        int n = 0;
        for (Counter c : d.counters()) {
            n += c.direct() ? 0 : 1;
        }
        for (Meter m : d.meters()) {
            n += m.direct() ? 0 : 1;
        }
        return n;
    }

    /** Crossbar bytes of the fields not yet on this crossbar; adds them. */
    private static int newFieldBytes(List<Field> fields, Set<String> onXbar) {
        int bytes = 0;
        for (Field f : fields) {
            if (onXbar.add(f.name())) {
                bytes += MemoryLayout.fieldBytes(f);
            }
        }
        return bytes;
    }

    /** Blocks for {@code entries} entries of {@code bits} bits: packed per word, words per block, wide entries span blocks. */
    static long blocks(long entries, int bits, MemoryGeometry m) {
        if (entries == 0 || bits == 0) {
            return 0;
        }
        if (bits <= m.widthBits()) {
            long perWord = m.widthBits() / bits;
            long words = ceilDiv(entries, perWord);
            return ceilDiv(words, m.depth());
        }
        return ceilDiv(bits, m.widthBits()) * ceilDiv(entries, m.depth());
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static int pipelineLatency(List<StageUsage> rows, Gress g, StageLatencyModel lat) {
        int last = -1;
        for (StageUsage u : rows) {
            if (u.gress() == g && u.latencyCycles() > 0) {
                last = Math.max(last, u.stage());
            }
        }
        int sum = 0;
        for (StageUsage u : rows) {
            if (u.gress() == g && u.stage() <= last) {
                // a stage with nothing in it still passes the packet on
                sum += u.latencyCycles() > 0 ? u.latencyCycles() : lat.concurrentCycles();
            }
        }
        int min = g == Gress.INGRESS ? lat.minIngressCycles() : lat.minEgressCycles();
        return Math.max(sum, min);
    }

    private interface Metric {
        long of(StageUsage u);
    }

    private static void budget(List<String> failures, Set<String> failingRows, int n, StageUsage in, StageUsage eg,
                               String what, Metric m, long available, String why) {
        long a = in == null ? 0 : m.of(in);
        long b = eg == null ? 0 : m.of(eg);
        if (available == TargetProfile.UNLIMITED || a + b <= available) {
            return;
        }
        if (a > 0 && b > 0) {
            failures.add("stage " + n + " (ingress+egress): " + what + " " + (a + b) + " > " + available
                    + " (ingress " + a + " + egress " + b + ")" + why);
            failingRows.add(ResourceReport.rowKey(n, Gress.INGRESS));
            failingRows.add(ResourceReport.rowKey(n, Gress.EGRESS));
        } else {
            Gress g = a > 0 ? Gress.INGRESS : Gress.EGRESS;
            failures.add("stage " + n + " " + g.label() + ": " + what + " " + (a + b) + " > " + available + why);
            failingRows.add(ResourceReport.rowKey(n, g));
        }
    }

    /** One demand per field and gress that uses it: a header in both, metadata in its own. */
    public static List<PhvAllocation.Demand> phvDemands(StageProgram p) {
        List<PhvAllocation.Demand> out = new ArrayList<>();
        for (Gress g : Gress.values()) {
            if (!p.uses(g)) {
                continue;
            }
            for (Field f : p.fields()) {
                if (f.kind() == FieldKind.HEADER || f.gress() == g) {
                    out.add(new PhvAllocation.Demand(f.name(), f.width(), g));
                }
            }
        }
        return out;
    }
}

package dev.rmtemu.model.check;

import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.PhvAllocation;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AtomTemplate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
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
import java.util.TreeSet;

/**
 * The static checker: places a program on a target and reports every budget it
 * exceeds, one line per failure ("stage 4 ingress: stateful ALUs 5 > 4").
 * A physical stage's memories, stateful ALUs, hash units and logical tables are
 * shared by ingress and egress, so budgets are checked on their sum.
 */
public final class ResourceChecker {
    private ResourceChecker() {
    }

    public static ResourceReport check(StageProgram program, TargetProfile target) {
        List<String> failures = new ArrayList<>();
        Set<String> failingRows = new LinkedHashSet<>();
        List<StageUsage> rows = new ArrayList<>();
        TreeSet<AtomTemplate> templates = new TreeSet<>();
        Map<Gress, Integer> latency = new EnumMap<>(Gress.class);

        int lastStage = -1;
        for (Gress g : Gress.values()) {
            for (StageDecl s : program.stages(g)) {
                lastStage = Math.max(lastStage, s.number());
            }
        }
        int rowStages = target.stagesPerGress() == TargetProfile.UNLIMITED ? lastStage + 1 : target.stagesPerGress();
        for (Gress g : Gress.values()) {
            if (!program.uses(g)) {
                continue;
            }
            List<StageDecl> decls = program.stages(g);
            int used = decls.get(decls.size() - 1).number() + 1;
            if (used > target.stagesPerGress()) {
                failures.add(g.label() + ": program uses " + used + " stages > " + target.stagesPerGress());
            }
            for (int n = 0; n < Math.max(rowStages, used); n++) {
                StageDecl d = find(decls, n);
                rows.add(d == null ? new StageUsage(n, g, 0, 0, 0, 0, 0, 0, 0) : usage(d, target, failures, failingRows, templates));
            }
            latency.put(g, pipelineLatency(rows, g, target.latency()));
        }

        // shared per-stage budgets
        int maxStage = 0;
        for (StageUsage u : rows) {
            maxStage = Math.max(maxStage, u.stage() + 1);
        }
        for (int n = 0; n < maxStage; n++) {
            StageUsage in = row(rows, n, Gress.INGRESS);
            StageUsage eg = row(rows, n, Gress.EGRESS);
            budget(failures, failingRows, n, in, eg, "SRAM blocks", StageUsage::sramBlocks, target.sram().unlimited() ? Long.MAX_VALUE : target.sram().blocks());
            budget(failures, failingRows, n, in, eg, "TCAM blocks", StageUsage::tcamBlocks, target.tcam().unlimited() ? Long.MAX_VALUE : target.tcam().blocks());
            budget(failures, failingRows, n, in, eg, "stateful ALUs", u -> u.statefulAlus(), target.statefulAlusPerStage());
            budget(failures, failingRows, n, in, eg, "hash bits", u -> u.hashBits(), target.hashBitsPerStage());
            budget(failures, failingRows, n, in, eg, "hash units", u -> u.hashUnits(), target.hashFunctionsPerStage());
            budget(failures, failingRows, n, in, eg, "logical tables", u -> u.logicalTables(), target.logicalTablesPerStage());
        }

        PhvAllocation phv = PhvAllocation.allocate(target, phvDemands(program));
        failures.addAll(phv.failures());
        List<ResourceReport.PhvGroupUsage> groups = new ArrayList<>();
        for (int i = 0; i < target.phvContainers().size(); i++) {
            PhvContainerGroup g = target.phvContainers().get(i);
            groups.add(new ResourceReport.PhvGroupUsage(g.widthBits(), phv.used(Gress.INGRESS, i), phv.used(Gress.EGRESS, i), g.count()));
        }
        return new ResourceReport(program.name(), program.params(), target, rows, groups, phv.requestedBits(),
                latency, templates, failures, List.copyOf(failingRows));
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

    private static StageUsage usage(StageDecl d, TargetProfile target, List<String> failures, Set<String> failingRows,
                                    Set<AtomTemplate> templates) {
        String where = "stage " + d.number() + " " + d.gress().label();
        MemoryGeometry sram = target.sram();
        long sramBlocks = 0;
        long tcamBlocks = 0;
        for (RegisterArray r : d.registers()) {
            sramBlocks += blocks(r.size(), r.cellBits(), sram);
            if (r.wordBits() > target.registerWordBits()) {
                failures.add(where + ": register '" + r.name() + "' words of " + r.wordBits() + " b > "
                        + target.registerWordBits() + " b stateful-ALU word on " + target.name());
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            } else if (!target.supportsCellWidth(r.cellBits())) {
                failures.add(where + ": register '" + r.name() + "' cells of " + r.cellBits() + " b not supported on "
                        + target.name() + " (cell widths " + target.registerCellWidths() + ")");
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            }
        }
        for (RegisterAction a : d.registerActions()) {
            templates.add(a.template());
            if (!target.templates().contains(a.template())) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' needs the "
                        + a.template() + " template, which " + target.name() + "'s stateful ALUs do not implement");
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            }
            if (a.conditionCount() > target.saluMaxConditions()) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' has "
                        + a.conditionCount() + " conditions > " + target.saluMaxConditions());
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            }
            if (a.maxBranchesPerWord() > target.saluMaxBranchesPerWord()) {
                failures.add(where + ": register action '" + a.array().name() + "." + a.name() + "' has "
                        + a.maxBranchesPerWord() + " update branches on a word > " + target.saluMaxBranchesPerWord());
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            }
        }
        for (MatchTable t : d.tables()) {
            if (t.kind() == MatchKind.EXACT) {
                sramBlocks += blocks(t.size(), t.keyBits() + t.actionDataBits() + target.exactEntryOverheadBits(), sram);
            } else {
                MemoryGeometry tcam = target.tcam();
                tcamBlocks += ceilDiv(t.keyBits(), tcam.widthBits()) * ceilDiv(t.size(), tcam.depth());
                if (t.actionDataBits() > 0) {
                    sramBlocks += blocks(t.size(), t.actionDataBits(), sram);
                }
            }
        }
        int hashBits = 0;
        for (HashUnit h : d.hashes()) {
            hashBits += h.outputBits();
            if (h.outputBits() > target.hashBitsPerFunction()) {
                failures.add(where + ": hash '" + h.name() + "' outputs " + h.outputBits() + " bits > "
                        + target.hashBitsPerFunction() + " per hash unit");
                failingRows.add(ResourceReport.rowKey(d.number(), d.gress()));
            }
        }
        int salus = d.registers().size();
        int logical = d.tables().size() + d.registers().size();
        StageLatencyModel lat = target.latency();
        int cycles = switch (d.dependency()) {
            case MATCH -> lat.matchStageCycles() + (salus > 0 ? lat.statefulAluCycles() : 0) + (tcamBlocks > 0 ? lat.tcamCycles() : 0);
            case ACTION -> lat.actionDependentCycles();
            case CONCURRENT -> lat.concurrentCycles();
        };
        return new StageUsage(d.number(), d.gress(), sramBlocks, tcamBlocks, salus, hashBits, d.hashes().size(), logical, cycles);
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
                               String what, Metric m, long available) {
        long a = in == null ? 0 : m.of(in);
        long b = eg == null ? 0 : m.of(eg);
        if (available == TargetProfile.UNLIMITED || a + b <= available) {
            return;
        }
        if (a > 0 && b > 0) {
            failures.add("stage " + n + " (ingress+egress): " + what + " " + (a + b) + " > " + available
                    + " (ingress " + a + " + egress " + b + ")");
            failingRows.add(ResourceReport.rowKey(n, Gress.INGRESS));
            failingRows.add(ResourceReport.rowKey(n, Gress.EGRESS));
        } else {
            Gress g = a > 0 ? Gress.INGRESS : Gress.EGRESS;
            failures.add("stage " + n + " " + g.label() + ": " + what + " " + (a + b) + " > " + available);
            failingRows.add(ResourceReport.rowKey(n, g));
        }
    }

    private static List<PhvAllocation.Demand> phvDemands(StageProgram p) {
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

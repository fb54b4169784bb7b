package dev.rmtemu.model.target;

import dev.rmtemu.model.register.AtomTemplate;

import java.util.List;
import java.util.Set;

/**
 * A switch target as data: every budget the static checker and the engine
 * enforce. Built-in profiles live in JSON resources next to this class; users
 * load their own with {@link TargetProfiles#load(String)}. {@code Integer.MAX_VALUE}
 * stands for "unlimited".
 *
 * @param stagesPerGress        match-action stages in each of ingress and egress
 * @param pipes                 independent pipelines (register state exists once per pipe)
 * @param portsPerPipe          front-panel ports mapped to each pipe
 * @param clockHz               pipeline clock; emulated time is counted in these cycles
 * @param sram                  per-stage SRAM geometry (shared by ingress and egress tables)
 * @param tcam                  per-stage TCAM geometry
 * @param statefulAlusPerStage  register arrays a stage can drive (one stateful ALU each)
 * @param registerWordBits      width of one stateful-ALU word; a cell is one word or a lo/hi pair
 * @param registerCellWidths    cell widths a register array may declare
 * @param saluMaxConditions     conditions a register action may evaluate
 * @param saluMaxBranchesPerWord update branches per register word
 * @param templates             register-action templates (atoms) the stateful ALUs implement
 * @param hashFunctionsPerStage hash units per stage
 * @param hashBitsPerFunction   output bits of one hash unit
 * @param logicalTablesPerStage logical tables (match tables and stateful-ALU drivers) per stage
 * @param phvContainers         PHV container groups, shared by both gresses
 * @param latency               stage and pipeline latency rules
 * @param tmBufferBytes         traffic-manager shared buffer
 * @param tmCellBytes           buffer cell size
 * @param recirculationGbps     rate of each pipe's recirculation port
 * @param exactEntryOverheadBits action-select and pointer bits a match entry stores besides key, version and action data
 * @param fullArithmetic        container ALUs multiply, divide and take remainders by any value, shift
 *                              by a run-time amount and evaluate any expression in one instruction (false
 *                              on Tofino-like targets: one operation per instruction, '*', '/', '%' only by
 *                              a power-of-two constant, as a shift or a mask, and shifts by a constant)
 * @param mau                   the per-stage layout rules of the Tofino compiler (RAM sides, map RAMs, ways, TCAM
 *                              packing, crossbars, gateways, action data bus, instruction memory)
 * @param parser                the programmable parser's budgets (TCAM rows, input buffer, select key, window)
 */
public record TargetProfile(
        String name,
        String description,
        int stagesPerGress,
        int pipes,
        int portsPerPipe,
        long clockHz,
        MemoryGeometry sram,
        MemoryGeometry tcam,
        int statefulAlusPerStage,
        int registerWordBits,
        List<Integer> registerCellWidths,
        int saluMaxConditions,
        int saluMaxBranchesPerWord,
        Set<AtomTemplate> templates,
        int hashFunctionsPerStage,
        int hashBitsPerFunction,
        int logicalTablesPerStage,
        List<PhvContainerGroup> phvContainers,
        StageLatencyModel latency,
        long tmBufferBytes,
        int tmCellBytes,
        double recirculationGbps,
        int exactEntryOverheadBits,
        boolean fullArithmetic,
        MauResources mau,
        ParserLimits parser) {

    public static final int UNLIMITED = Integer.MAX_VALUE;
    /** Ends the name of a profile made by {@link #withoutMemoryLimits()}. */
    public static final String UNLIMITED_MEMORY_SUFFIX = "+unlimited-memory";

    public TargetProfile {
        registerCellWidths = List.copyOf(registerCellWidths);
        templates = Set.copyOf(templates);
        phvContainers = List.copyOf(phvContainers);
        if (mau == null) {
            mau = MauResources.UNCONSTRAINED;
        }
        if (parser == null) {
            parser = ParserLimits.UNCONSTRAINED;
        }
    }

    /** A profile without parser limits (the form before parser budgets were profile data). */
    public TargetProfile(String name, String description, int stagesPerGress, int pipes, int portsPerPipe, long clockHz,
            MemoryGeometry sram, MemoryGeometry tcam, int statefulAlusPerStage, int registerWordBits,
            List<Integer> registerCellWidths, int saluMaxConditions, int saluMaxBranchesPerWord, Set<AtomTemplate> templates,
            int hashFunctionsPerStage, int hashBitsPerFunction, int logicalTablesPerStage, List<PhvContainerGroup> phvContainers,
            StageLatencyModel latency, long tmBufferBytes, int tmCellBytes, double recirculationGbps, int exactEntryOverheadBits,
            boolean fullArithmetic, MauResources mau) {
        this(name, description, stagesPerGress, pipes, portsPerPipe, clockHz, sram, tcam, statefulAlusPerStage,
                registerWordBits, registerCellWidths, saluMaxConditions, saluMaxBranchesPerWord, templates,
                hashFunctionsPerStage, hashBitsPerFunction, logicalTablesPerStage, phvContainers, latency, tmBufferBytes,
                tmCellBytes, recirculationGbps, exactEntryOverheadBits, fullArithmetic, mau, null);
    }

    /** Total PHV bits (sum over the ordinary container groups, not the tagalong ones), or UNLIMITED. */
    public long phvBits() {
        long bits = 0;
        for (PhvContainerGroup g : phvContainers) {
            if (g.tagalong()) {
                continue;
            }
            if (g.count() == UNLIMITED) {
                return UNLIMITED;
            }
            bits += (long) g.count() * g.widthBits();
        }
        return bits;
    }

    /** Hash bits one stage can produce. */
    public long hashBitsPerStage() {
        if (hashFunctionsPerStage == UNLIMITED || hashBitsPerFunction == UNLIMITED) {
            return UNLIMITED;
        }
        return (long) hashFunctionsPerStage * hashBitsPerFunction;
    }

    public boolean supportsCellWidth(int bits) {
        return registerCellWidths.contains(bits);
    }

    /** Largest register cell the target offers: a lo/hi pair of words. */
    public int maxCellWidth() {
        int max = 0;
        for (int w : registerCellWidths) {
            max = Math.max(max, w);
        }
        return max;
    }

    /**
     * This target with every memory limit lifted (SRAM and TCAM blocks, the RAM layout
     * rules) and everything else kept: clock, stages, stateful ALUs, latencies, ports. An
     * experiment that sweeps sizes past what fits runs those sizes on it and says so.
     */
    public TargetProfile withoutMemoryLimits() {
        return new TargetProfile(name + UNLIMITED_MEMORY_SUFFIX, description + " (memory limits lifted)", stagesPerGress, pipes,
                portsPerPipe, clockHz, new MemoryGeometry(UNLIMITED, sram.depth(), sram.widthBits()),
                new MemoryGeometry(UNLIMITED, tcam.depth(), tcam.widthBits()), statefulAlusPerStage, registerWordBits,
                registerCellWidths, saluMaxConditions, saluMaxBranchesPerWord, templates, hashFunctionsPerStage,
                hashBitsPerFunction, logicalTablesPerStage, phvContainers, latency, tmBufferBytes, tmCellBytes,
                recirculationGbps, exactEntryOverheadBits, fullArithmetic, MauResources.UNCONSTRAINED, parser);
    }
}

package dev.rmtemu.model.target;

import java.util.Collections;
import dev.rmtemu.model.phv.PortNumbers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key a target profile file may hold, per JSON object, with the rule its
 * value must meet. {@link TargetProfiles} reads each field through its rule, so
 * a value out of range is refused where it is read, and a key not listed here
 * is refused as unknown (naming the closest listed key). A new profile field is
 * one line here plus its read in {@link TargetProfiles#parse}.
 *
 * <p>The ranges are generous bounds on what a switch can mean (no Tofino-like
 * target has 2<sup>20</sup> stages) and keep every product the model forms
 * (ports, memory bits, PHV bits, buffer cells) inside a {@code long}.
 * Keys starting with {@code _} are comments and are ignored.
 */
final class ProfileSchema {
    /** How a value is read. */
    enum Kind { TEXT, OPTIONAL_TEXT, COUNT, OPTIONAL_COUNT, LONG, NUMBER, OPTIONAL_BOOLEAN, COUNT_ARRAY, TEXT_ARRAY, OBJECT,
        OPTIONAL_OBJECT, OBJECT_ARRAY, OPTIONAL_RAW }

    /**
     * One key: its kind, the inclusive range of a numeric value (for arrays, of
     * each element), and whether the string {@code "unlimited"} means something.
     */
    record Rule(String key, Kind kind, long min, long max, boolean unlimitedAllowed) {
        String range() {
            return min + ".." + max + (unlimitedAllowed ? " or \"unlimited\"" : "");
        }
    }

    /** Pipes are numbered so that each has a recirculation port below the 9-bit "unset" port. */
    static final int MAX_PIPES = PortNumbers.UNSET - PortNumbers.RECIRCULATION_BASE;
    private static final long MAX_CYCLES = 1_000_000;

    static final Map<String, Rule> MEMORY = table(
            count("blocks", 1, 1 << 16, true),
            count("depth", 1, 1 << 20, false),
            count("widthBits", 1, 4096, false));

    static final Map<String, Rule> PHV_GROUP = table(
            count("widthBits", 1, 64, false),
            count("count", 0, 1 << 16, true),
            new Rule("ingressOnly", Kind.OPTIONAL_COUNT, 0, 1 << 16, false),
            new Rule("egressOnly", Kind.OPTIONAL_COUNT, 0, 1 << 16, false),
            new Rule("tagalong", Kind.OPTIONAL_BOOLEAN, 0, 0, false));

    static final Map<String, Rule> LATENCY = table(
            count("matchStageCycles", 0, MAX_CYCLES, false),
            count("statefulAluCycles", 0, MAX_CYCLES, false),
            count("tcamCycles", 0, MAX_CYCLES, false),
            count("actionDependentCycles", 0, MAX_CYCLES, false),
            count("concurrentCycles", 0, MAX_CYCLES, false),
            count("minIngressCycles", 0, MAX_CYCLES, false),
            count("minEgressCycles", 0, MAX_CYCLES, false),
            count("parserCycles", 0, MAX_CYCLES, false),
            count("deparserCycles", 0, MAX_CYCLES, false),
            count("trafficManagerCycles", 0, MAX_CYCLES, false));

    /** The parser's budgets (ParserLimits); the window bounds what a ring slot carries, so it is never unlimited. */
    static final Map<String, Rule> PARSER = table(
            count("tcamRows", 1, 1 << 20, true),
            count("inputBufferBytes", 1, 1 << 16, true),
            count("selectKeyBits", 1, 1 << 16, true),
            count("windowBytes", 14, 65_535, false));

    static final Map<String, Rule> ROOT = table(
            new Rule("name", Kind.TEXT, 0, 0, false),
            new Rule("description", Kind.OPTIONAL_TEXT, 0, 0, false),
            count("stagesPerGress", 1, 1024, true),
            count("pipes", 1, MAX_PIPES, false),
            count("portsPerPipe", 1, PortNumbers.RECIRCULATION_BASE, true),
            new Rule("clockHz", Kind.LONG, 1, 100_000_000_000L, false),
            new Rule("sram", Kind.OBJECT, 0, 0, false),
            new Rule("tcam", Kind.OBJECT, 0, 0, false),
            count("statefulAlusPerStage", 0, 1024, true),
            count("registerWordBits", 1, 128, false),
            new Rule("registerCellWidths", Kind.COUNT_ARRAY, 1, 256, false),
            count("saluMaxConditions", 0, 64, true),
            count("saluMaxBranchesPerWord", 1, 64, true),
            new Rule("templates", Kind.TEXT_ARRAY, 0, 0, false),
            count("hashFunctionsPerStage", 0, 1024, true),
            count("hashBitsPerFunction", 1, 64, false),
            count("logicalTablesPerStage", 1, 1024, true),
            new Rule("phvContainers", Kind.OBJECT_ARRAY, 0, 0, false),
            new Rule("latency", Kind.OBJECT, 0, 0, false),
            new Rule("tmBufferBytes", Kind.LONG, 1, 1L << 40, false),
            count("tmCellBytes", 1, 1 << 16, false),
            new Rule("recirculationGbps", Kind.NUMBER, 0, 1_000_000, false),
            count("exactEntryOverheadBits", 0, 1024, false),
            new Rule("fullArithmetic", Kind.OPTIONAL_BOOLEAN, 0, 0, false),
            new Rule("parser", Kind.OPTIONAL_OBJECT, 0, 0, false),
            // the Tofino layout rules: MauResources checks its own fields
            new Rule("mau", Kind.OPTIONAL_RAW, 0, 0, false));

    private ProfileSchema() {
    }

    private static Rule count(String key, long min, long max, boolean unlimitedAllowed) {
        return new Rule(key, Kind.COUNT, min, max, unlimitedAllowed);
    }

    private static Map<String, Rule> table(Rule... rules) {
        Map<String, Rule> m = new LinkedHashMap<>();
        for (Rule r : rules) {
            m.put(r.key(), r);
        }
        return Collections.unmodifiableMap(m);
    }

    static List<String> keys(Map<String, Rule> table) {
        return List.copyOf(table.keySet());
    }
}

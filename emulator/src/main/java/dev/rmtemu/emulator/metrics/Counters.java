package dev.rmtemu.emulator.metrics;

import dev.rmtemu.model.parse.ParserError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The run's packet counters: in, out, dropped by cause, recirculated, violations.
 * Drop causes are free-form names (e.g. {@code tm_queue_limit}, {@code recirc_over_budget});
 * register a cause once with {@link #dropCause(String)} and count with the returned id on the
 * hot path, which allocates nothing. Reports list causes sorted by name.
 *
 * <p>Conservation: every packet that came in has left, been dropped, or is still queued:
 * {@code in + mirrored + replicated = out + dropped + queued} (see {@link #checkConservation(long)};
 * mirrored: the copies the deparsers' mirrors made, {@link #mirrored()}; replicated: the copies
 * the packet replication engine made beyond the packet itself, {@link #replicated()}).
 */
public final class Counters {
    private long in;
    private long mirrored;
    private long replicated;
    private long out;
    private long recirculated;
    private long violations;
    private final List<String> causeNames = new ArrayList<>();
    private final Map<String, Integer> causeIds = new HashMap<>();
    private long[] dropped = new long[8];
    private final long[] parserErrors = new long[ParserError.count()];
    private int causeParserError = -1;

    /** Drop cause of a frame the program's parser refused (its kind counted apart, {@link #parserErrors()}). */
    public static final String PARSER_ERROR = "parser_error";

    /** Counts one mirrored copy (a packet the switch made, not one that entered it). */
    public void mirroredCopy() {
        mirrored++;
    }

    /** Mirrored copies made so far. */
    public long mirrored() {
        return mirrored;
    }

    /** Counts one multicast copy beyond the packet itself (a packet the switch made, not one that entered it). */
    public void replicatedCopy() {
        replicated++;
    }

    /** Multicast copies made so far beyond the packets themselves. */
    public long replicated() {
        return replicated;
    }

    /** Counts one packet entering the switch. */
    public void packetIn() {
        in++;
    }

    /** Counts {@code n} packets entering. */
    public void packetsIn(long n) {
        checkCount(n);
        in += n;
    }

    /** Counts one packet leaving the switch. */
    public void packetOut() {
        out++;
    }

    /** Counts {@code n} packets leaving. */
    public void packetsOut(long n) {
        checkCount(n);
        out += n;
    }

    /** Counts one recirculation pass (not a new packet: it does not change conservation). */
    public void recirculated() {
        recirculated++;
    }

    /** Counts one hardware-contract violation. */
    public void violation() {
        violations++;
    }

    /** The id of a drop cause, registering it on first use (do this before the hot path). */
    public int dropCause(String cause) {
        if (cause == null || cause.isEmpty()) {
            throw new IllegalArgumentException("drop cause needs a name");
        }
        Integer id = causeIds.get(cause);
        if (id != null) {
            return id;
        }
        int newId = causeNames.size();
        causeNames.add(cause);
        causeIds.put(cause, newId);
        if (newId == dropped.length) {
            dropped = Arrays.copyOf(dropped, dropped.length * 2);
        }
        return newId;
    }

    /** The name of drop cause {@code causeId} (as {@link #dropCause(String)} registered it). */
    public String causeName(int causeId) {
        if (causeId < 0 || causeId >= causeNames.size()) {
            throw new IllegalArgumentException("unknown drop cause id " + causeId);
        }
        return causeNames.get(causeId);
    }

    /** Drop causes registered so far (ids 0 .. n-1). */
    public int causeCount() {
        return causeNames.size();
    }

    /** Counts one packet dropped for the cause with id {@code causeId}. */
    public void dropped(int causeId) {
        if (causeId < 0 || causeId >= causeNames.size()) {
            throw new IllegalArgumentException("unknown drop cause id " + causeId);
        }
        dropped[causeId]++;
    }

    /**
     * Counts one packet dropped as {@value #PARSER_ERROR}, and its kind. The cause is registered
     * on the first such drop, so a run without one reports no {@value #PARSER_ERROR} row.
     */
    public void parserError(ParserError kind) {
        if (causeParserError < 0) {
            causeParserError = dropCause(PARSER_ERROR);
        }
        dropped[causeParserError]++;
        parserErrors[kind.ordinal()]++;
    }

    /** Parser errors by kind ({@link ParserError#label()}, in the enum's order), kinds seen only. */
    public SortedMap<String, Long> parserErrors() {
        TreeMap<String, Long> m = new TreeMap<>();
        for (ParserError e : ParserError.values()) {
            if (parserErrors[e.ordinal()] > 0) {
                m.put(e.label(), parserErrors[e.ordinal()]);
            }
        }
        return Collections.unmodifiableSortedMap(m);
    }

    /** Counts {@code n} packets dropped for {@code cause} (registering it if new). */
    public void dropped(String cause, long n) {
        checkCount(n);
        dropped[dropCause(cause)] += n;
    }

    public long packetsIn() {
        return in;
    }

    public long packetsOut() {
        return out;
    }

    public long recirculations() {
        return recirculated;
    }

    public long violations() {
        return violations;
    }

    /** Packets dropped for {@code cause} (0 for a cause never seen). */
    public long droppedFor(String cause) {
        Integer id = causeIds.get(cause);
        return id == null ? 0 : dropped[id];
    }

    /** Packets dropped, all causes. */
    public long droppedTotal() {
        long sum = 0;
        for (int i = 0; i < causeNames.size(); i++) {
            sum += dropped[i];
        }
        return sum;
    }

    /** Drops per cause, causes sorted by name (registered causes with 0 drops included). */
    public SortedMap<String, Long> droppedByCause() {
        TreeMap<String, Long> m = new TreeMap<>();
        for (int i = 0; i < causeNames.size(); i++) {
            m.put(causeNames.get(i), dropped[i]);
        }
        return Collections.unmodifiableSortedMap(m);
    }

    /**
     * Checks {@code in + mirrored + replicated = out + dropped + queued}.
     *
     * @param queued packets still inside the switch (e.g. the traffic manager's queued count)
     * @throws IllegalStateException naming all four numbers if they do not add up
     */
    public void checkConservation(long queued) {
        long dropTotal = droppedTotal();
        if (queued < 0 || in + mirrored + replicated != out + dropTotal + queued) {
            throw new IllegalStateException("packet conservation broken: in " + in + (mirrored == 0 ? "" : " + mirrored " + mirrored)
                    + (replicated == 0 ? "" : " + replicated " + replicated)
                    + " != out " + out + " + dropped "
                    + dropTotal + " + queued " + queued);
        }
    }

    /**
     * The counters for a report, keys sorted: {@code dropped} (a sorted cause → count map),
     * {@code dropped_total}, {@code in}, {@code out}, {@code parser_errors} (by kind, after a
     * parser error only), {@code recirculated}, {@code violations}.
     */
    public SortedMap<String, Object> toMap() {
        TreeMap<String, Object> m = new TreeMap<>();
        m.put("dropped", droppedByCause());
        m.put("dropped_total", droppedTotal());
        m.put("in", in);
        m.put("out", out);
        if (causeParserError >= 0) {
            m.put("parser_errors", parserErrors());
        }
        m.put("recirculated", recirculated);
        m.put("violations", violations);
        return Collections.unmodifiableSortedMap(m);
    }

    private static void checkCount(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative packet count " + n);
        }
    }
}

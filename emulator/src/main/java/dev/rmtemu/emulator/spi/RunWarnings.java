package dev.rmtemu.emulator.spi;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.SkipCounters;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a user should know about a run that finished but probably did not do what they meant:
 * the compiler's warnings about the program (a table keyed by a field its own stage writes),
 * the trace gave no packets, every packet was dropped (one switch) or none was delivered (a
 * network), a switch sent packets out of topology ports that have no link, a forwarding loop,
 * a capture file that reached its limit ({@link ReplayResult#outputWarnings()}, last).
 * One list for both kinds of replay: printed as {@code warning:} lines on stderr, written under
 * {@code warnings} in report.json, and turned into exit 5 by {@code replay --strict}. Each
 * warning depends only on the run's inputs (counters, never the host), in a fixed order.
 */
public final class RunWarnings {
    /** report.json key of the list. */
    public static final String KEY = "warnings";

    private RunWarnings() {
    }

    /** The warnings of a replay, through one switch or a network. */
    public static List<String> of(ReplayResult r) {
        return r.isNetwork() ? ofNetwork(r) : ofSwitch(r);
    }

    /** The warnings of a single-switch replay. */
    private static List<String> ofSwitch(ReplayResult r) {
        List<String> w = new ArrayList<>(r.engine().compilerWarnings());
        emptyTrace(w, r.options().trace(), r.packetsRead(), r.skipped(), r.interruptedBy());
        SwitchEngine e = r.engine();
        long in = e.counters().packetsIn();
        long dropped = e.counters().droppedTotal();
        if (in > 0 && dropped == in && e.counters().packetsOut() == 0) {
            SortedMap<String, Long> causes = e.counters().droppedByCause();
            String line = "every packet was dropped: " + in + " of " + in + " (" + causes(causes) + ")";
            if (causes.getOrDefault(SwitchEngine.DROP_NO_PORT, 0L) > 0) {
                line += "; " + SwitchEngine.DROP_NO_PORT + ": the program chose no egress port or one this switch does"
                        + " not have (front-panel ports 0.." + (e.config().frontPanelPorts() - 1)
                        + ", --ports; check --param port=N)";
            }
            w.add(line);
        }
        poolMemory(w, e);
        programs(w, r.results());
        w.addAll(r.outputWarnings());
        return List.copyOf(w);
    }

    /**
     * Packet-pool bytes above which a snap length is worth a warning: 1 GiB, a quarter of the
     * 4 GiB heap the launcher gives by default (named data, not the host's heap, so the warning
     * depends only on the run's inputs).
     */
    public static final long POOL_WARNING_BYTES = 1L << 30;

    /**
     * A snap length that makes the packet pool large when the traffic manager fills: each packet
     * in its buffer takes at least one cell, so up to {@code min(packets in, buffer cells)} packets
     * wait, each keeping {@code 72 + snap length} bytes.
     */
    private static void poolMemory(List<String> w, SwitchEngine e) {
        long cells = e.config().trafficManager().sharedBufferCells();
        long bound = Math.min(e.counters().packetsIn(), cells);
        long bytes = bound * PacketRecord.stride(e.frameCapacity());
        if (bytes > POOL_WARNING_BYTES) {
            w.add("snap length " + e.frameCapacity() + ": up to " + bound + " packets can wait in the traffic manager's "
                    + cells + " cells, " + (bytes >> 20) + " MiB of packet pool at " + PacketRecord.stride(e.frameCapacity())
                    + " bytes each (more than " + (POOL_WARNING_BYTES >> 20) + " MiB); a smaller --snaplen keeps a deep"
                    + " queue from exhausting the heap");
        }
    }

    /** The warnings of a network replay ({@code --topology}). */
    private static List<String> ofNetwork(ReplayResult r) {
        NetworkEngine net = r.network();
        // switches running one program share its compiler warnings: each line once
        Set<String> compiler = new LinkedHashSet<>();
        for (int s = 0; s < net.switchCount(); s++) {
            compiler.addAll(net.switchEngine(s).compilerWarnings());
        }
        List<String> w = new ArrayList<>(compiler);
        emptyTrace(w, r.options().trace(), r.packetsRead(), r.skipped(), r.interruptedBy());
        NetworkEngine.NetworkTotals t = net.totals();
        if (t.injected() > 0 && t.delivered() == 0 && r.interruptedBy() == null) {
            w.add("no packet was delivered: " + t.injected() + " injected; switch drops " + t.switchDropped()
                    + ", link losses " + t.linkLost() + ", unlinked-port drops " + t.unlinkedPortDrops()
                    + ", hop-limit drops " + t.hopLimitDrops());
        }
        for (int s = 0; s < net.switchCount(); s++) {
            SortedMap<Integer, Long> byPort = net.unlinkedDropsByPort(s);
            if (byPort.isEmpty()) {
                continue;
            }
            List<String> ports = new ArrayList<>();
            byPort.forEach((port, n) -> ports.add(port + " (" + n + ")"));
            w.add("switch " + net.switchNode(s).name() + " sent " + net.unlinkedDrops(s)
                    + " packets out of topology ports with no link, which lost them: port " + String.join(", ", ports)
                    + " (program port = topology port - 1)");
        }
        w.addAll(net.warnings());
        programs(w, r.results());
        w.addAll(r.outputWarnings());
        return List.copyOf(w);
    }

    /** The programs' own warnings, in program-name order (null: the run has no results yet). */
    private static void programs(List<String> w, RunResults results) {
        if (results != null) {
            results.byProgram().values().forEach(p -> w.addAll(p.warnings()));
        }
    }

    private static void emptyTrace(List<String> w, String trace, long packets, SkipCounters skipped,
                                   String interruptedBy) {
        if (packets > 0 || interruptedBy != null) {
            return;
        }
        SortedMap<String, Long> s = new TreeMap<>(skipped.asMap());
        s.values().removeIf(n -> n == 0);
        w.add("empty trace: " + trace + " gave no packets"
                + (s.isEmpty() ? "" : " (frames skipped: " + causes(s) + ")"));
    }

    private static String causes(SortedMap<String, Long> counts) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if (e.getValue() > 0) {
                parts.add(e.getKey() + " " + e.getValue());
            }
        }
        return String.join(", ", parts);
    }
}

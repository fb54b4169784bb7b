package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.spi.ReplayResult;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.json.Json;
import dev.rmtemu.emulator.metrics.PercentileSummary;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.Endpoint;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.traces.impair.ImpairmentChain;

import dev.rmtemu.emulator.rundir.RunDirectory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.TreeMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run directory of a network replay: report.json (inputs, trace, a
 * {@code network} section, emulated time; host measurements only under
 * {@code host}), network-latency.hgrm (end-to-end, ns), report.html and, per impaired link
 * direction, ground-truth/link-ID-DIR.txt (what its impairments did, indexed
 * by the packet's position on that link direction).
 */
public final class NetworkReport {
    public static final String LATENCY_FILE = "network-latency.hgrm";
    public static final String GROUND_TRUTH_DIR = "ground-truth";

    private NetworkReport() {
    }

    /**
     * Writes the outputs into the run directory (each planned in its manifest first), then
     * the final report.json, marked complete unless the run was interrupted.
     */
    public static void write(ReplayResult r, RunDirectory rd) {
        NetworkEngine net = r.network();
        List<String> names = new ArrayList<>(List.of(LATENCY_FILE, RunOutputs.HTML));
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                if (net.groundTruth(l.id(), d) != null) {
                    names.add(groundTruthFile(l, d));
                }
            }
        }
        boolean saveRegisters = savesRegisters(r);
        if (saveRegisters) {
            for (int s = 0; s < net.switchCount(); s++) {
                names.addAll(SavedRegisters.names(net.switchEngine(s).state(), net.switchNode(s).name()));
            }
        }
        for (int s = 0; s < net.switchCount(); s++) {
            names.addAll(SavedCounters.names(net.switchEngine(s).state(), net.switchNode(s).name()));
        }
        names.addAll(r.results().fileNames());
        rd.plan(names);
        r.results().write(rd);
        rd.write(LATENCY_FILE, net.latency()::writeHgrm);
        if (saveRegisters) {
            for (int s = 0; s < net.switchCount(); s++) {
                SavedRegisters.write(net.switchEngine(s).state(), net.switchNode(s).name(), rd);
            }
        }
        for (int s = 0; s < net.switchCount(); s++) {
            SavedCounters.write(net.switchEngine(s).state(), net.switchNode(s).name(), rd);
        }
        rd.writeString(RunOutputs.HTML, HtmlReport.renderNetwork(r));
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                if (net.groundTruth(l.id(), d) != null) {
                    rd.write(groundTruthFile(l, d), net.groundTruth(l.id(), d)::writeTo);
                }
            }
        }
        rd.finish(report(r), r.interruptedBy() == null, r.interruptedBy());
    }

    /** Bytes of every switch's register arrays, uncompressed (see {@link SavedRegisters#ALWAYS_SAVE_BYTES}). */
    public static long registerBytes(NetworkEngine net) {
        long bytes = 0;
        for (int s = 0; s < net.switchCount(); s++) {
            bytes += SavedRegisters.uncompressedBytes(net.switchEngine(s).state());
        }
        return bytes;
    }

    static boolean savesRegisters(ReplayResult r) {
        return SavedRegisters.saves(registerBytes(r.network()), r.options().saveRegisters(), SavedRegisters.ALWAYS_SAVE_BYTES);
    }

    private static String groundTruthFile(Link l, int direction) {
        return GROUND_TRUTH_DIR + "/link-" + l.id() + "-" + (direction == 0 ? "ab" : "ba") + ".txt";
    }

    /** The report tree; {@code host} is the only key that depends on the machine. */
    public static ObjectNode report(ReplayResult r) {
        return Json.tree(record(r));
    }

    /** The report as its record (see {@link RunReport.NetworkRun}). */
    static RunReport.NetworkRun record(ReplayResult r) {
        NetworkEngine net = r.network();
        RunReport.Trace trace = new RunReport.Trace(r.packetsRead(), new TreeMap<>(r.skipped().asMap()));

        TreeMap<String, Long> byCause = new TreeMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            net.switchEngine(s).counters().droppedByCause().forEach((k, v) -> {
                if (v > 0) {
                    byCause.merge(k, v, Long::sum);
                }
            });
        }
        Map<String, RunReport.SwitchSection> switches = new LinkedHashMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            // the arrays of its program, in program order; saved in registers/SWITCH/ unless too large
            List<String> arrays = new ArrayList<>();
            for (RegisterArray a : e.state().program().registers()) {
                arrays.add(a.name());
            }
            Map<String, Long> drops = new LinkedHashMap<>();
            e.counters().droppedByCause().forEach((k, v) -> {
                if (v > 0) {
                    drops.put(k, v);
                }
            });
            switches.put(net.switchNode(s).name(), new RunReport.SwitchSection(net.switchNode(s).kind().fileName(),
                    e.config().profile().name(), net.switchProgram(s), arrays, e.counters().packetsIn(),
                    e.counters().packetsOut(), e.counters().droppedTotal(), drops, RunOutputs.parserErrors(e.counters()),
                    e.counters().recirculations(),
                    net.unlinkedDrops(s), net.hopLimitDrops(s), e.metrics().latency().summary()));
        }

        List<RunReport.LinkDirection> links = new ArrayList<>();
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                if (d == 1 && !l.bidirectional()) {
                    continue;
                }
                Endpoint from = d == 0 ? l.a() : l.b();
                Endpoint to = d == 0 ? l.b() : l.a();
                ImpairmentChain chain = net.impairments(l.id(), d);
                Map<String, Long> by = null;
                if (chain != null) {
                    by = new LinkedHashMap<>();
                    for (int i = 0; i < chain.size(); i++) {
                        by.put(i + ":" + chain.part(i).describe(), net.lostBy(l.id(), d, i));
                    }
                }
                links.add(new RunReport.LinkDirection(l.id(), from.toString(), to.toString(), net.carried(l.id(), d),
                        net.lost(l.id(), d), net.duplicates(l.id(), d), net.delayed(l.id(), d),
                        net.reordered(l.id(), d), net.holdsRefused(l.id(), d), by));
            }
        }

        Map<String, RunReport.HostSection> hosts = new LinkedHashMap<>();
        for (Node h : net.topology().hosts()) {
            hosts.put(h.name(), new RunReport.HostSection(h.address().toString(), h.role().fileName(),
                    net.injected(h.index()), net.delivered(h.index()), net.misdelivered(h.index())));
        }
        RunReport.Network network = new RunReport.Network(net.clock().hz(),
                RunReport.Totals.of(net.totals(), byCause), net.latency().summary(), switches, links, hosts);

        RunReport.EmulatedTime time = new RunReport.EmulatedTime(net.clock().hz(), Math.max(0, r.firstArrivalCycle()),
                r.lastArrivalCycle(), net.now(), net.clock().cyclesToNs(net.now() - Math.max(0, r.firstArrivalCycle())),
                null, null);
        RunReport.Host host = new RunReport.Host(r.hostNanos() / 1_000_000, Math.round(r.hostMpps() * 1000) / 1000.0,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), null, null);
        return new RunReport.NetworkRun(RunInputs.of(r.options()), trace, r.warnings(), network, time,
                r.results().json(), host);
    }

    /** The end-of-run summary table for people. */
    public static String summary(ReplayResult r) {
        NetworkEngine net = r.network();
        NetworkEngine.NetworkTotals t = net.totals();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-28s %s: %d switches, %d hosts, %d links, timing %s%n", "network",
                r.options().topology(), net.switchCount(), net.topology().hosts().size(), net.topology().links().size(),
                r.options().timing()));
        row(sb, "packets read", r.packetsRead());
        t.toMap().forEach((k, v) -> row(sb, k.replace('_', ' '), v));
        PercentileSummary l = net.latency().summary();
        sb.append(String.format(Locale.ROOT, "%-28s p50 %d  p99 %d  p99.9 %d  max %d%n", "end-to-end latency ns",
                l.p50(), l.p99(), l.p999(), l.max()));
        sb.append(String.format(Locale.ROOT, "%-28s %s ns%n", "emulated duration",
                net.clock().cyclesToNs(net.now() - Math.max(0, r.firstArrivalCycle()))));
        sb.append(String.format(Locale.ROOT, "%-28s %.3f s wall, %.2f Mpps (host)%n", "host",
                r.hostNanos() / 1e9, r.hostMpps()));
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, long v) {
        sb.append(String.format(Locale.ROOT, "%-28s %,d%n", k, v));
    }
}

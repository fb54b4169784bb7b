package dev.rmtemu.emulator.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.metrics.PercentileSummary;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.Endpoint;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.traces.impair.ImpairmentChain;

import dev.rmtemu.emulator.rundir.RunDirectory;

import java.util.ArrayList;
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
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private NetworkReport() {
    }

    /**
     * Writes the outputs into the run directory (each planned in its manifest first), then
     * the final report.json, marked complete unless the run was interrupted.
     */
    public static void write(NetworkReplay.Result r, RunDirectory rd) {
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
        names.addAll(r.results().fileNames());
        rd.plan(names);
        r.results().write(rd);
        rd.write(LATENCY_FILE, net.latency()::writeHgrm);
        if (saveRegisters) {
            for (int s = 0; s < net.switchCount(); s++) {
                SavedRegisters.write(net.switchEngine(s).state(), net.switchNode(s).name(), rd);
            }
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

    static boolean savesRegisters(NetworkReplay.Result r) {
        return SavedRegisters.saves(registerBytes(r.network()), r.options().saveRegisters(), SavedRegisters.ALWAYS_SAVE_BYTES);
    }

    private static String groundTruthFile(Link l, int direction) {
        return GROUND_TRUTH_DIR + "/link-" + l.id() + "-" + (direction == 0 ? "ab" : "ba") + ".txt";
    }

    /** The report tree; {@code host} is the only key that depends on the machine. */
    public static ObjectNode report(NetworkReplay.Result r) {
        NetworkEngine net = r.network();
        ReplayOptions o = r.options();
        ObjectNode root = JSON.createObjectNode();
        root.set("inputs", RunInputs.of(o));

        ObjectNode trace = root.putObject("trace");
        trace.put("packets", r.packetsRead());
        ObjectNode skipped = trace.putObject("skipped");
        new java.util.TreeMap<>(r.skipped().asMap()).forEach(skipped::put);
        r.warnings().forEach(root.putArray(RunWarnings.KEY)::add);

        ObjectNode network = root.putObject("network");
        network.put("clock_hz", net.clock().hz());
        ObjectNode totals = network.putObject("totals");
        net.totals().toMap().forEach(totals::put);
        java.util.TreeMap<String, Long> byCause = new java.util.TreeMap<>();
        for (int s = 0; s < net.switchCount(); s++) {
            net.switchEngine(s).counters().droppedByCause().forEach((k, v) -> byCause.merge(k, v, Long::sum));
        }
        ObjectNode causes = totals.putObject("switch_dropped_by_cause");
        byCause.forEach((k, v) -> {
            if (v > 0) {
                causes.put(k, v);
            }
        });
        summary(network.putObject("latency_ns"), net.latency().summary());

        ObjectNode switches = network.putObject("switches");
        for (int s = 0; s < net.switchCount(); s++) {
            SwitchEngine e = net.switchEngine(s);
            ObjectNode sn = switches.putObject(net.switchNode(s).name());
            sn.put("kind", net.switchNode(s).kind().fileName());
            sn.put("target", e.config().profile().name());
            sn.put("program", net.switchProgram(s));
            // the arrays of its program, in program order; saved in registers/SWITCH/ unless too large
            ArrayNode arrays = sn.putArray("register_arrays");
            for (dev.rmtemu.model.register.RegisterArray a : e.state().program().registers()) {
                arrays.add(a.name());
            }
            sn.put("in", e.counters().packetsIn());
            sn.put("out", e.counters().packetsOut());
            sn.put("dropped", e.counters().droppedTotal());
            ObjectNode drops = sn.putObject("dropped_by_cause");
            e.counters().droppedByCause().forEach((k, v) -> {
                if (v > 0) {
                    drops.put(k, v);
                }
            });
            sn.put("recirculated", e.counters().recirculations());
            sn.put("unlinked_port_drops", net.unlinkedDrops(s));
            sn.put("hop_limit_drops", net.hopLimitDrops(s));
            summary(sn.putObject("latency_ns"), e.metrics().latency().summary());
        }

        ArrayNode links = network.putArray("links");
        for (Link l : net.topology().links()) {
            for (int d = 0; d < 2; d++) {
                if (d == 1 && !l.bidirectional()) {
                    continue;
                }
                Endpoint from = d == 0 ? l.a() : l.b();
                Endpoint to = d == 0 ? l.b() : l.a();
                ObjectNode ln = links.addObject();
                ln.put("link", l.id());
                ln.put("from", from.toString());
                ln.put("to", to.toString());
                ln.put("carried", net.carried(l.id(), d));
                ln.put("lost", net.lost(l.id(), d));
                ln.put("duplicated", net.duplicates(l.id(), d));
                ln.put("delayed", net.delayed(l.id(), d));
                ln.put("reordered", net.reordered(l.id(), d));
                ln.put("reorders_refused", net.holdsRefused(l.id(), d));
                ImpairmentChain chain = net.impairments(l.id(), d);
                if (chain != null) {
                    ObjectNode by = ln.putObject("lost_by_impairment");
                    for (int i = 0; i < chain.size(); i++) {
                        by.put(i + ":" + chain.part(i).describe(), net.lostBy(l.id(), d, i));
                    }
                }
            }
        }

        ObjectNode hosts = network.putObject("hosts");
        for (Node h : net.topology().hosts()) {
            ObjectNode hn = hosts.putObject(h.name());
            hn.put("address", h.address().toString());
            hn.put("role", h.role().fileName());
            hn.put("injected", net.injected(h.index()));
            hn.put("delivered", net.delivered(h.index()));
            hn.put("misdelivered", net.misdelivered(h.index()));
        }

        ObjectNode time = root.putObject("emulated_time");
        time.put("clock_hz", net.clock().hz());
        time.put("first_arrival_cycle", Math.max(0, r.firstArrivalCycle()));
        time.put("last_arrival_cycle", r.lastArrivalCycle());
        time.put("last_event_cycle", net.now());
        time.put("duration_ns", net.clock().cyclesToNs(net.now() - Math.max(0, r.firstArrivalCycle())));

        root.set("results", r.results().json());

        ObjectNode host = root.putObject("host");
        host.put("wall_ms", r.hostNanos() / 1_000_000);
        host.put("mpps", Math.round(r.hostMpps() * 1000) / 1000.0);
        host.put("java", System.getProperty("java.version"));
        host.put("cores", Runtime.getRuntime().availableProcessors());
        return root;
    }

    private static void summary(ObjectNode into, PercentileSummary s) {
        for (Map.Entry<String, Number> e : s.toMap().entrySet()) {
            if (e.getValue() instanceof Double d) {
                into.put(e.getKey(), d);
            } else {
                into.put(e.getKey(), e.getValue().longValue());
            }
        }
    }

    /** The end-of-run summary table for people. */
    public static String summary(NetworkReplay.Result r) {
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

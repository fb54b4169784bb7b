package dev.rmtemu.emulator.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.metrics.PercentileSummary;
import dev.rmtemu.emulator.tm.DropCause;
import dev.rmtemu.emulator.tm.TrafficManager;
import dev.rmtemu.model.check.ReportRenderer;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;

import dev.rmtemu.emulator.metrics.LatencyHistogram;
import dev.rmtemu.emulator.rundir.RunDirectory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a single-switch run's outputs into its {@link RunDirectory}: report.json (everything that depends only on the
 * inputs, plus host measurements under the single key {@code host}),
 * resources.json, the .hgrm latency histograms and report.html.
 */
public final class RunOutputs {
    public static final String REPORT = RunDirectory.REPORT;
    static final String HGRM = ".hgrm";
    public static final String RESOURCES = "resources.json";
    public static final String HTML = "report.html";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunOutputs() {
    }

    /**
     * Writes the outputs into the run directory (each planned in its manifest first), then
     * the final report.json, marked complete unless the run was interrupted.
     */
    public static void write(ReplayResult r, RunDirectory rd) {
        List<LatencyHistogram> histograms = r.engine().metrics().nonEmpty();
        List<String> names = new ArrayList<>(List.of(RESOURCES, HTML));
        for (LatencyHistogram h : histograms) {
            names.add(h.name() + HGRM);
        }
        boolean saveRegisters = savesRegisters(r);
        if (saveRegisters) {
            names.addAll(SavedRegisters.names(r.engine().state(), null));
        }
        names.addAll(r.results().fileNames());
        rd.plan(names);
        r.results().write(rd);
        rd.writeString(RESOURCES, ReportRenderer.json(r.engine().resources()));
        if (saveRegisters) {
            SavedRegisters.write(r.engine().state(), null, rd);
        }
        for (LatencyHistogram h : histograms) {
            rd.write(h.name() + HGRM, h::writeHgrm);
        }
        rd.writeString(HTML, HtmlReport.render(r));
        rd.finish(report(r), r.interruptedBy() == null, r.interruptedBy());
    }

    /** Whether the run's register arrays go into its directory (see {@link SavedRegisters#ALWAYS_SAVE_BYTES}). */
    static boolean savesRegisters(ReplayResult r) {
        return SavedRegisters.saves(SavedRegisters.uncompressedBytes(r.engine().state()), r.options().saveRegisters(),
                SavedRegisters.ALWAYS_SAVE_BYTES);
    }

    /** The report tree; {@code host} is the only key that depends on the machine. */
    public static ObjectNode report(ReplayResult r) {
        SwitchEngine e = r.engine();
        ReplayOptions o = r.options();
        ObjectNode root = JSON.createObjectNode();
        // as given, with what the run resolved: the program's defaults, the profile's name, the port count
        ObjectNode in = root.putObject("inputs");
        in.setAll(RunInputs.of(o));
        ObjectNode params = in.putObject("params");
        e.resources().params().forEach(params::put);
        in.put("target", e.config().profile().name());
        in.put("ports", e.config().frontPanelPorts());

        ObjectNode trace = root.putObject("trace");
        trace.put("packets", r.packetsRead());
        ObjectNode skipped = trace.putObject("skipped");
        new java.util.TreeMap<>(r.skipped().asMap()).forEach(skipped::put);
        r.warnings().forEach(root.putArray(RunWarnings.KEY)::add);

        ObjectNode counters = root.putObject("counters");
        counters.put("in", e.counters().packetsIn());
        counters.put("out", e.counters().packetsOut());
        counters.put("dropped", e.counters().droppedTotal());
        counters.put("recirculated", e.counters().recirculations());
        counters.put("in_flight", e.inFlight());
        ObjectNode drops = counters.putObject("dropped_by_cause");
        e.counters().droppedByCause().forEach(drops::put);

        ObjectNode time = root.putObject("emulated_time");
        long clock = e.config().profile().clockHz();
        time.put("clock_hz", clock);
        time.put("first_arrival_cycle", Math.max(0, r.firstArrivalCycle()));
        time.put("last_arrival_cycle", r.lastArrivalCycle());
        time.put("last_event_cycle", e.now());
        time.put("duration_ns", e.clock().cyclesToNs(e.now() - Math.max(0, r.firstArrivalCycle())));
        time.put("ingress_to_tm_cycles", e.ingressToTmCycles());
        time.put("egress_to_wire_cycles", e.egressToWireCycles());

        ObjectNode lat = root.putObject("latency_ns");
        for (Map.Entry<String, PercentileSummary> s : e.metrics().emulatedSummaries().entrySet()) {
            ObjectNode h = lat.putObject(s.getKey());
            s.getValue().toMap().forEach((k, v) -> {
                if (v instanceof Double d) {
                    h.put(k, d);
                } else {
                    h.put(k, v.longValue());
                }
            });
        }

        ObjectNode ports = root.putObject("ports");
        TrafficManager tm = e.trafficManager();
        int front = e.config().frontPanelPorts();
        for (int p = 0; p < tm.portCount(); p++) {
            long enq = 0;
            long deq = 0;
            long bytes = 0;
            for (int q = 0; q < tm.queueCount(p); q++) {
                enq += tm.enqueuedPackets(p, q);
                deq += tm.dequeuedPackets(p, q);
                bytes += tm.dequeuedBytes(p, q);
            }
            long dropped = 0;
            for (DropCause c : DropCause.values()) {
                dropped += tm.droppedPackets(p, c);
            }
            if (enq == 0 && dropped == 0) {
                continue;
            }
            ObjectNode pn = ports.putObject(p < front ? Integer.toString(p) : "recirc" + (p - front));
            pn.put("enqueued", enq);
            pn.put("dequeued", deq);
            pn.put("bytes", bytes);
            pn.put("tm_dropped", dropped);
        }

        ObjectNode regs = root.putObject("registers");
        PipelineState st = e.state();
        boolean saved = savesRegisters(r);
        for (RegisterArray a : e.config().program().registers()) {
            ObjectNode an = regs.putObject(a.name());
            an.put("gress", a.gress().label());
            an.put("stage", a.stage());
            if (saved) {
                an.put("file", SavedRegisters.fileName(a.name()));
            }
            for (int pipe = 0; pipe < st.pipes(); pipe++) {
                an.put("pipe" + pipe + "_sha256", digest(st.snapshot(pipe, a.name()), st.snapshotHi(pipe, a.name())));
                an.put("pipe" + pipe + "_nonzero", nonZero(st.snapshot(pipe, a.name())));
            }
        }

        root.set("results", r.results().json());

        ObjectNode res = root.putObject("resources");
        res.put("fits", e.resources().fits());
        for (Map.Entry<Gress, Integer> g : e.resources().pipelineLatencyCycles().entrySet()) {
            res.put(g.getKey().label() + "_pipeline_cycles", g.getValue());
        }

        ObjectNode host = root.putObject("host");
        host.put("wall_ms", r.hostNanos() / 1_000_000);
        host.put("mpps", Math.round(r.hostMpps() * 1000) / 1000.0);
        host.put("java", System.getProperty("java.version"));
        host.put("cores", Runtime.getRuntime().availableProcessors());
        PercentileSummary hp = e.metrics().hostProcessing().summary();
        host.put("processing_ns_per_packet_p50", hp.p50());
        host.put("processing_ns_per_packet_p99", hp.p99());
        return root;
    }

    private static long nonZero(long[] v) {
        long n = 0;
        for (long x : v) {
            if (x != 0) {
                n++;
            }
        }
        return n;
    }

    static String digest(long[] lo, long[] hi) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            ByteBuffer b = ByteBuffer.allocate(8 * (lo.length + hi.length));
            for (long x : lo) {
                b.putLong(x);
            }
            for (long x : hi) {
                b.putLong(x);
            }
            return HexFormat.of().formatHex(md.digest(b.array()));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** The end-of-run summary table for people. */
    public static String summary(ReplayResult r) {
        SwitchEngine e = r.engine();
        StringBuilder sb = new StringBuilder();
        PercentileSummary l = e.metrics().latency().summary();
        sb.append(String.format(Locale.ROOT, "%-28s %s on %s, %d ports at %s Gb/s, timing %s%n", "run",
                r.options().program(), e.config().profile().name(), e.config().frontPanelPorts(),
                fmt(r.options().portGbps()), r.options().timing()));
        row(sb, "packets read", r.packetsRead());
        row(sb, "packets in", e.counters().packetsIn());
        row(sb, "packets out", e.counters().packetsOut());
        row(sb, "packets dropped", e.counters().droppedTotal());
        e.counters().droppedByCause().forEach((k, v) -> {
            if (v > 0) {
                row(sb, "  " + k, v);
            }
        });
        row(sb, "recirculated", e.counters().recirculations());
        sb.append(String.format(Locale.ROOT, "%-28s %s ns%n", "emulated duration",
                e.clock().cyclesToNs(e.now() - Math.max(0, r.firstArrivalCycle()))));
        sb.append(String.format(Locale.ROOT, "%-28s p50 %d  p99 %d  p99.9 %d  max %d%n", "latency ns",
                l.p50(), l.p99(), l.p999(), l.max()));
        sb.append(String.format(Locale.ROOT, "%-28s %.3f s wall, %.2f Mpps (host)%n", "host",
                r.hostNanos() / 1e9, r.hostMpps()));
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, long v) {
        sb.append(String.format(Locale.ROOT, "%-28s %,d%n", k, v));
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}

package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.metrics.Counters;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.json.Json;
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
import java.util.LinkedHashMap;
import java.util.TreeMap;
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
        names.addAll(SavedCounters.names(r.engine().state()));
        rd.plan(names);
        r.results().write(rd);
        SavedCounters.write(r.engine().state(), rd);
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
        return Json.tree(record(r));
    }

    /** The report as its record (see {@link RunReport.SwitchRun}). */
    static RunReport.SwitchRun record(ReplayResult r) {
        SwitchEngine e = r.engine();
        ReplayOptions o = r.options();
        // as given, with what the run resolved: the program's defaults, the profile's name, the port count
        RunReport.Inputs given = RunInputs.of(o);
        RunReport.Inputs in = new RunReport.Inputs(given.program(), new TreeMap<>(e.resources().params()),
                given.topology(), e.config().profile().name(), given.trace(), given.timing(), given.seed(),
                e.config().frontPanelPorts(), given.portGbps(), given.maxHops(), given.enforce(), given.maxPackets(),
                given.saveRegisters(), given.control(), given.loop());
        RunReport.Trace trace = new RunReport.Trace(r.packetsRead(), new TreeMap<>(r.skipped().asMap()));
        RunReport.Counters counters = new RunReport.Counters(e.counters().packetsIn(), e.counters().mirrored(),
                e.counters().replicated(), e.counters().packetsOut(),
                e.counters().droppedTotal(), e.counters().recirculations(), e.inFlight(),
                new LinkedHashMap<>(e.counters().droppedByCause()), parserErrors(e.counters()));
        long clock = e.config().profile().clockHz();
        RunReport.EmulatedTime time = new RunReport.EmulatedTime(clock, Math.max(0, r.firstArrivalCycle()),
                r.lastArrivalCycle(), e.now(), e.clock().cyclesToNs(e.now() - Math.max(0, r.firstArrivalCycle())),
                e.ingressToTmCycles(), e.egressToWireCycles());
        Map<String, PercentileSummary> lat = new LinkedHashMap<>(e.metrics().emulatedSummaries());

        Map<String, RunReport.PortCounters> ports = new LinkedHashMap<>();
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
            ports.put(p < front ? Integer.toString(p) : "recirc" + (p - front),
                    new RunReport.PortCounters(enq, deq, bytes, dropped));
        }

        Map<String, RunReport.RegisterArrayReport> regs = new LinkedHashMap<>();
        PipelineState st = e.state();
        boolean saved = savesRegisters(r);
        for (RegisterArray a : e.config().program().registers()) {
            List<RunReport.PipeCells> pipes = new ArrayList<>();
            for (int pipe = 0; pipe < st.pipes(); pipe++) {
                pipes.add(new RunReport.PipeCells(pipe, digest(st.snapshot(pipe, a.name()), st.snapshotHi(pipe, a.name())),
                        nonZero(st.snapshot(pipe, a.name()))));
            }
            regs.put(a.name(), new RunReport.RegisterArrayReport(a.gress().label(), a.stage(),
                    saved ? SavedRegisters.fileName(a.name()) : null, pipes));
        }

        Map<String, Integer> cycles = new LinkedHashMap<>();
        for (Map.Entry<Gress, Integer> g : e.resources().pipelineLatencyCycles().entrySet()) {
            cycles.put(g.getKey().label(), g.getValue());
        }
        PercentileSummary hp = e.metrics().hostProcessing().summary();
        RunReport.Host host = new RunReport.Host(r.hostNanos() / 1_000_000, Math.round(r.hostMpps() * 1000) / 1000.0,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), hp.p50(), hp.p99());
        ObjectNode results = r.results().json();
        ObjectNode externs = SavedCounters.json(st);
        if (externs != null) {
            results.set(SavedCounters.RESULTS_KEY, externs);
        }
        return new RunReport.SwitchRun(in, trace, r.warnings(), counters, time, lat, ports, regs,
                results, new RunReport.Resources(e.resources().fits(), cycles), host);
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
        if (e.counters().mirrored() > 0) {
            row(sb, "mirrored copies", e.counters().mirrored());
        }
        if (e.counters().replicated() > 0) {
            row(sb, "multicast copies", e.counters().replicated()); // beyond the packets themselves
        }
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

    /** The parser errors by kind, or null (left out of report.json) for a run without one. */
    static Map<String, Long> parserErrors(Counters c) {
        return c.parserErrors().isEmpty() ? null : new LinkedHashMap<>(c.parserErrors());
    }
}

package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Tofino's packet generator and link state, driven as bf-runtime's {@code pktgen} tables and
 * bf_pktgen's API are (field names as bf-runtime spells them), for the timer and port-down
 * applications:
 * <pre>
 * pktgen_pkt_buffer OFFSET HEX                   # bytes of the generator's buffer (pkt_buffer)
 * pktgen_app_timer APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]           # trigger_timer_periodic
 * pktgen_app_timer_one_shot APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]  # trigger_timer_one_shot
 * pktgen_app_port_down APP_ID pkt_len=N [FIELD=VALUE...]                        # trigger_port_down
 *     FIELD: pipe, pkt_buffer_offset, batch_count_cfg, packets_per_batch_cfg, ibg, ipg,
 *            ibg_jitter=0, ipg_jitter=0, source_port=68, increment_source_port=false
 * [at CYCLE] pktgen_clear_port_down PORT         # pktgen.port_cfg clear_port_down_enable
 * [at CYCLE] port_down PORT
 * [at CYCLE] port_up PORT
 * </pre>
 * A trigger (the periodic timer's expiry every timer_nanosec, from timer_nanosec on; the
 * one-shot timer's single expiry at timer_nanosec; or a port of the app's pipe going down)
 * sends batch_count_cfg + 1 batches of packets_per_batch_cfg + 1 packets (both zero-based, as
 * bf-runtime takes them): packet p of batch b leaves the generator
 * {@code b * max(ibg, K * ipg) + p * ipg} ns after the trigger (the Tofino model's pktgen runs
 * a batch's packets ipg apart and starts the next batch ibg after the last, no sooner), each
 * time rounded up to whole cycles. A packet is TNA's 6-byte pktgen header
 * ({@code pktgen_timer_header_t}: pipe_id, app_id, batch_id, packet_id;
 * {@code pktgen_port_down_header_t}: pipe_id, app_id, port_num, packet_id) followed by pkt_len
 * bytes of the buffer from pkt_buffer_offset, and enters its pipe's ingress on the pipe's
 * generator port, which rmtemu numbers as the pipe's recirculation port (448 + pipe; Tofino's
 * 68 of each pipe, the only source_port taken; a P4 program sees pipe << 7 | 68, ProgramPorts, and
 * so does a port_down's port_num). Jitter is random on Tofino, so only 0 is taken.
 * Generated packets count as packets in. A periodic timer fires while the input lasts (it stops
 * when the trace is over); a one-shot fires once, even after it.
 *
 * <p>{@code port_down} takes the port's link down at its cycle (the switch's traffic manager
 * flushes the port, {@link SwitchEngine#portDown}) and {@code port_up} brings it back. As
 * bf_pktgen_clear_port_down documents, a port's down transition triggers the port-down
 * applications of its pipe only if the port's port-down event was cleared since it last
 * triggered, and it must be cleared before the first one too; their packets start the cycle
 * after the line's. Applications are configured before the run.
 */
final class PktgenCommands {
    /** TNA's pktgen header. */
    static final int HEADER_BYTES = 6;
    /** The generator's packet buffer on Tofino 1 (16 KB). */
    static final int BUFFER_BYTES = 16 * 1024;
    /** Application ids are 3 bits. */
    static final int APPS = 8;
    /** Packets one trigger sends, at most (each (batch, packet) is a generator of the engine). */
    static final int MAX_PACKETS_PER_TRIGGER = 1024;

    /** bf-runtime's pkt_buffer_offset and the buffer writes must be 16-byte aligned. */
    static final int BUFFER_ALIGNMENT = 16;
    /** The pipe-local port Tofino 1's generated packets enter on (rmtemu's generator port of the pipe). */
    static final int SOURCE_PORT = 68;
    /** timer_nanosec, ibg and ipg are 32-bit fields of bf_pktgen_app_cfg_t. */
    private static final long U32_MAX = 0xFFFF_FFFFL;

    private static final List<String> TIMER_FIELDS = List.of("timer_nanosec", "pkt_len", "pipe", "pkt_buffer_offset",
            "batch_count_cfg", "packets_per_batch_cfg", "ibg", "ipg", "ibg_jitter", "ipg_jitter", "source_port",
            "increment_source_port");
    private static final List<String> PORT_DOWN_FIELDS = TIMER_FIELDS.subList(1, TIMER_FIELDS.size());

    /** What a script configured on one switch's generator. */
    static final class State {
        final byte[] buffer = new byte[BUFFER_BYTES];
        final boolean[] appUsed = new boolean[APPS];
        final List<App> portDownApps = new ArrayList<>();
        /** Ports whose port-down event was cleared since it last triggered (none at first, as on Tofino). */
        final BitSet portDownCleared = new BitSet();
    }

    /** One application: its id, pipe and what each trigger sends. */
    record App(int id, int pipe, byte[] payload, int batches, int packets, long batchGapNs, long ipgNs) {
        long offsetNs(int batch, int packet) {
            return batch * batchGapNs + packet * ipgNs;
        }
    }

    private PktgenCommands() {
    }

    /** {@code pktgen_pkt_buffer OFFSET HEX}: writes bytes into the buffer. */
    static ControlCommand.Effect buffer(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 2, "pktgen_pkt_buffer OFFSET HEX");
        int offset = ControlScript.intNumber(args.get(0), "a buffer offset");
        if (offset % BUFFER_ALIGNMENT != 0) {
            throw new UserError("pktgen buffer offset " + offset + " is not " + BUFFER_ALIGNMENT + "-byte aligned");
        }
        String hex = args.get(1).startsWith("0x") ? args.get(1).substring(2) : args.get(1);
        if (hex.isEmpty() || hex.length() % 2 != 0 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new UserError("'" + args.get(1) + "' is not bytes in hex (an even number of hex digits)");
        }
        int n = hex.length() / 2;
        if ((long) offset + n > BUFFER_BYTES) {
            throw new UserError("pktgen buffer: " + n + " bytes at offset " + offset + " pass its end (" + BUFFER_BYTES + " bytes)");
        }
        for (int i = 0; i < n; i++) {
            sw.pktgen.buffer[offset + i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
        }
        return null;
    }

    /** {@code pktgen_app_timer APP_ID FIELD=VALUE...}: a periodic timer application, enabled. */
    static ControlCommand.Effect timer(SwitchControl sw, List<String> args) {
        App app = app(sw, args, "pktgen_app_timer APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]", TIMER_FIELDS);
        long periodNs = timerNanosec(args);
        SwitchEngine e = sw.engine();
        long period = e.clock().nsToCyclesCeil(periodNs);
        for (int b = 0; b < app.batches(); b++) {
            for (int p = 0; p < app.packets(); p++) {
                byte[] frame = frame(app, b, p);
                e.packetGeneratorUntilInputEnds(app.pipe(), e.clock().nsToCyclesCeil(periodNs + app.offsetNs(b, p)), period,
                        template(frame));
            }
        }
        return null;
    }

    /** {@code pktgen_app_timer_one_shot APP_ID FIELD=VALUE...}: a timer application that fires once, at timer_nanosec. */
    static ControlCommand.Effect timerOneShot(SwitchControl sw, List<String> args) {
        App app = app(sw, args, "pktgen_app_timer_one_shot APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]", TIMER_FIELDS);
        long expiryNs = timerNanosec(args);
        SwitchEngine e = sw.engine();
        for (int b = 0; b < app.batches(); b++) {
            for (int p = 0; p < app.packets(); p++) {
                e.packetGenerator(app.pipe(), e.clock().nsToCyclesCeil(expiryNs + app.offsetNs(b, p)), 1, 1,
                        template(frame(app, b, p)));
            }
        }
        return null;
    }

    private static long timerNanosec(List<String> args) {
        long ns = field(args, "timer_nanosec", -1);
        if (ns < 1) {
            throw new UserError("timer_nanosec must be at least 1");
        }
        return ns;
    }

    /** {@code pktgen_app_port_down APP_ID FIELD=VALUE...}: a port-down application, enabled. */
    static ControlCommand.Effect portDownApp(SwitchControl sw, List<String> args) {
        sw.pktgen.portDownApps.add(app(sw, args, "pktgen_app_port_down APP_ID pkt_len=N [FIELD=VALUE...]", PORT_DOWN_FIELDS));
        return null;
    }

    /** {@code pktgen_clear_port_down PORT}: the port's next down transition triggers the port-down applications. */
    static ControlCommand.Effect clearPortDown(SwitchControl sw, List<String> args) {
        int port = port(sw, args, "pktgen_clear_port_down PORT");
        return state -> sw.pktgen.portDownCleared.set(port);
    }

    /**
     * {@code port_down PORT}: the port's link goes down at the line's cycle; a down transition of a
     * cleared port triggers the port-down applications of its pipe, from the next cycle.
     */
    static ControlCommand.Effect portDown(SwitchControl sw, List<String> args, String where, long cycle) {
        int port = port(sw, args, "port_down PORT");
        SwitchEngine e = sw.engine();
        return state -> {
            if (e.portDown(port) && sw.pktgen.portDownCleared.get(port)) {
                sw.pktgen.portDownCleared.clear(port);
                triggerPortDown(sw, port, cycle);
            }
        };
    }

    /** {@code port_up PORT}: the port's link comes up at the line's cycle. */
    static ControlCommand.Effect portUp(SwitchControl sw, List<String> args) {
        int port = port(sw, args, "port_up PORT");
        SwitchEngine e = sw.engine();
        return state -> e.portUp(port);
    }

    /** The port-down applications of the port's pipe send their packets after {@code cycle}. */
    private static void triggerPortDown(SwitchControl sw, int port, long cycle) {
        SwitchEngine e = sw.engine();
        int pipe = e.config().pipeOf(port);
        int programPort = e.ports().toProgram(port); // the pktgen header carries the program's number
        for (App app : sw.pktgen.portDownApps) {
            if (app.pipe() != pipe) {
                continue;
            }
            for (int b = 0; b < app.batches(); b++) {
                for (int p = 0; p < app.packets(); p++) {
                    long at = cycle + 1 + e.clock().nsToCyclesCeil(app.offsetNs(b, p));
                    e.packetGenerator(app.pipe(), at, 1, 1, template(frame(app, programPort, p)));
                }
            }
        }
    }

    private static int port(SwitchControl sw, List<String> args, String usage) {
        TableCommands.exactly(args, 1, usage);
        SwitchConfig config = sw.engine().config();
        int port = PortArgs.port(sw, args.get(0));
        if (port >= config.frontPanelPorts()) {
            throw new UserError(sw.engine().ports().tna() ? "port " + args.get(0) + " is no front-panel port"
                    : "port " + port + " outside 0.." + (config.frontPanelPorts() - 1));
        }
        return port;
    }

    private static App app(SwitchControl sw, List<String> args, String usage, List<String> known) {
        if (args.isEmpty()) {
            throw new UserError("missing arguments: " + usage);
        }
        int id = ControlScript.intNumber(args.get(0), "an application id");
        if (id >= APPS) {
            throw new UserError("application id " + id + " outside 0.." + (APPS - 1));
        }
        if (sw.pktgen.appUsed[id]) {
            throw new UserError("pktgen application " + id + " is configured twice");
        }
        fields(args, known);
        int pipe = (int) field(args, "pipe", 0);
        if (pipe >= sw.engine().config().pipes()) {
            throw new UserError("pipe " + pipe + " outside 0.." + (sw.engine().config().pipes() - 1));
        }
        long len = field(args, "pkt_len", -1);
        long offset = field(args, "pkt_buffer_offset", 0);
        if (len < 0) {
            throw new UserError("field pkt_len missing");
        }
        if (offset % BUFFER_ALIGNMENT != 0) {
            throw new UserError("pkt_buffer_offset " + offset + " is not " + BUFFER_ALIGNMENT + "-byte aligned");
        }
        if (offset + len > BUFFER_BYTES) {
            throw new UserError("pkt_len " + len + " from pkt_buffer_offset " + offset + " passes the buffer's end (" + BUFFER_BYTES
                    + " bytes)");
        }
        long batches = field(args, "batch_count_cfg", 0) + 1;
        long packets = field(args, "packets_per_batch_cfg", 0) + 1;
        if (batches * packets > MAX_PACKETS_PER_TRIGGER) {
            throw new UserError((batches * packets) + " packets a trigger; rmtemu sends at most " + MAX_PACKETS_PER_TRIGGER);
        }
        long ipg = u32(args, "ipg");
        long ibg = u32(args, "ibg");
        u32(args, "timer_nanosec");
        for (String jitter : List.of("ibg_jitter", "ipg_jitter")) {
            long j = field(args, jitter, 0);
            if (j != 0) {
                throw new UserError(jitter + " " + j + ": Tofino's jitter is random; rmtemu is deterministic and takes only 0");
            }
        }
        long source = field(args, "source_port", SOURCE_PORT);
        if (source != SOURCE_PORT) {
            throw new UserError("source_port " + source + ": generated packets enter on the pipe's generator port (Tofino's "
                    + SOURCE_PORT + ", rmtemu's 448 + pipe); another source port is not modelled");
        }
        if (flag(args, "increment_source_port")) {
            throw new UserError("increment_source_port: generated packets enter on the pipe's generator port; a port per "
                    + "packet of a batch is not modelled");
        }
        byte[] payload = new byte[(int) len];
        System.arraycopy(sw.pktgen.buffer, (int) offset, payload, 0, (int) len);
        sw.pktgen.appUsed[id] = true;
        return new App(id, pipe, payload, (int) batches, (int) packets, Math.max(ibg, packets * ipg), ipg);
    }

    /** TNA's header (pipe_id and app_id in the first byte; batch_id or port_num; packet_id), then the payload. */
    private static byte[] frame(App app, int batchOrPort, int packet) {
        byte[] f = new byte[HEADER_BYTES + app.payload().length];
        f[0] = (byte) ((app.pipe() << 3) | app.id());
        f[2] = (byte) (batchOrPort >> 8);
        f[3] = (byte) batchOrPort;
        f[4] = (byte) (packet >> 8);
        f[5] = (byte) packet;
        System.arraycopy(app.payload(), 0, f, HEADER_BYTES, app.payload().length);
        return f;
    }

    /** Fills the generator's record with the frame (built once; nothing allocated per packet). */
    private static Consumer<PacketRecord> template(byte[] frame) {
        return r -> {
            r.wireLength(frame.length);
            r.putFrame(frame, 0, frame.length);
        };
    }

    /** Checks the FIELD=VALUE words after the application id: known names, each once. */
    private static void fields(List<String> args, List<String> known) {
        Map<String, String> seen = new TreeMap<>();
        for (String w : args.subList(1, args.size())) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                throw new UserError("'" + w + "' is not FIELD=VALUE");
            }
            String name = w.substring(0, eq).toLowerCase(Locale.ROOT);
            if (!known.contains(name)) {
                throw new UserError("unknown field '" + w.substring(0, eq) + "'" + ProgramNames.closest(name, known));
            }
            if (seen.put(name, w.substring(eq + 1)) != null) {
                throw new UserError("field " + name + " given twice");
            }
        }
    }

    /** A 32-bit field of bf_pktgen_app_cfg_t (0 when absent). */
    private static long u32(List<String> args, String name) {
        long v = field(args, name, 0);
        if (v > U32_MAX) {
            throw new UserError(name + " " + v + " does not fit its 32 bits");
        }
        return v;
    }

    /** A boolean field: true/false or 1/0 (false when absent). */
    private static boolean flag(List<String> args, String name) {
        for (String w : args.subList(1, args.size())) {
            int eq = w.indexOf('=');
            if (w.substring(0, eq).toLowerCase(Locale.ROOT).equals(name)) {
                String v = w.substring(eq + 1).toLowerCase(Locale.ROOT);
                return switch (v) {
                    case "true", "1" -> true;
                    case "false", "0" -> false;
                    default -> throw new UserError(name + " '" + w.substring(eq + 1) + "' is not true or false");
                };
            }
        }
        return false;
    }

    /** A field's value (a non-negative number), or {@code absent} when the line does not give it. */
    private static long field(List<String> args, String name, long absent) {
        for (String w : args.subList(1, args.size())) {
            int eq = w.indexOf('=');
            if (w.substring(0, eq).toLowerCase(Locale.ROOT).equals(name)) {
                long v = ControlScript.number(w.substring(eq + 1));
                if (v < 0) {
                    throw new UserError(name + " " + v + " is negative");
                }
                return v;
            }
        }
        return absent;
    }
}

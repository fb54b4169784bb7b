package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Tofino's packet generator, driven as bf-runtime's {@code pktgen} tables are (field names as
 * bf-runtime spells them), for the timer and port-down applications:
 * <pre>
 * pktgen_pkt_buffer OFFSET HEX                   # bytes of the generator's buffer (pkt_buffer)
 * pktgen_app_timer APP_ID timer_nanosec=NS pkt_len=N [pipe=P] [pkt_buffer_offset=O]
 *     [batch_count_cfg=B] [packets_per_batch_cfg=K] [ibg=NS] [ipg=NS]
 * pktgen_app_port_down APP_ID pkt_len=N [pipe=P] [pkt_buffer_offset=O] [batch_count_cfg=B]
 *     [packets_per_batch_cfg=K] [ibg=NS] [ipg=NS]
 * [at CYCLE] port_down PORT
 * </pre>
 * A trigger (the timer's expiry every timer_nanosec, from timer_nanosec on; or a port of the
 * app's pipe going down) sends batch_count_cfg + 1 batches of packets_per_batch_cfg + 1 packets
 * (both zero-based, as bf-runtime takes them): packet p of batch b leaves the generator
 * {@code b * max(ibg, K * ipg) + p * ipg} ns after the trigger (the Tofino model's pktgen runs
 * a batch's packets ipg apart and starts the next batch ibg after the last, no sooner), each
 * time rounded up to whole cycles. A packet is TNA's 6-byte pktgen header
 * ({@code pktgen_timer_header_t}: pipe_id, app_id, batch_id, packet_id;
 * {@code pktgen_port_down_header_t}: pipe_id, app_id, port_num, packet_id) followed by pkt_len
 * bytes of the buffer from pkt_buffer_offset, and enters its pipe's ingress on the pipe's
 * generator port, which rmtemu numbers as the pipe's recirculation port (448 + pipe; a P4
 * program sees Tofino's pipe << 7 | 68, ProgramPorts, and so does a port_down's port_num). Generated packets count as packets in. A timer fires while the input lasts
 * (it stops when the trace is over). rmtemu has no link state:
 * {@code port_down} only triggers the port-down applications (the port still forwards), its
 * packets start the cycle after the line's. Applications are configured before the run.
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

    private static final List<String> TIMER_FIELDS = List.of("timer_nanosec", "pkt_len", "pipe", "pkt_buffer_offset",
            "batch_count_cfg", "packets_per_batch_cfg", "ibg", "ipg");
    private static final List<String> PORT_DOWN_FIELDS = TIMER_FIELDS.subList(1, TIMER_FIELDS.size());

    /** What a script configured on one switch's generator. */
    static final class State {
        final byte[] buffer = new byte[BUFFER_BYTES];
        final boolean[] appUsed = new boolean[APPS];
        final List<App> portDownApps = new ArrayList<>();
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
        long periodNs = field(args, "timer_nanosec", -1);
        if (periodNs < 1) {
            throw new UserError("timer_nanosec must be at least 1");
        }
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

    /** {@code pktgen_app_port_down APP_ID FIELD=VALUE...}: a port-down application, enabled. */
    static ControlCommand.Effect portDownApp(SwitchControl sw, List<String> args) {
        sw.pktgen.portDownApps.add(app(sw, args, "pktgen_app_port_down APP_ID pkt_len=N [FIELD=VALUE...]", PORT_DOWN_FIELDS));
        return null;
    }

    /** {@code port_down PORT}: the port-down applications of the port's pipe send their packets. */
    static ControlCommand.Effect portDown(SwitchControl sw, List<String> args, String where, long cycle) {
        TableCommands.exactly(args, 1, "port_down PORT");
        SwitchConfig config = sw.engine().config();
        int port = PortArgs.port(sw, args.get(0));
        if (port >= config.frontPanelPorts()) {
            throw new UserError(sw.engine().ports().tna() ? "port " + args.get(0) + " is no front-panel port"
                    : "port " + port + " outside 0.." + (config.frontPanelPorts() - 1));
        }
        int programPort = sw.engine().ports().toProgram(port); // the pktgen header carries the program's number
        int pipe = config.pipeOf(port);
        SwitchEngine e = sw.engine();
        for (App app : sw.pktgen.portDownApps) {
            if (app.pipe() != pipe) {
                continue;
            }
            for (int b = 0; b < app.batches(); b++) {
                for (int p = 0; p < app.packets(); p++) {
                    byte[] frame = frame(app, programPort, p);
                    long at = cycle + 1 + e.clock().nsToCyclesCeil(app.offsetNs(b, p));
                    e.packetGenerator(app.pipe(), at, 1, 1, template(frame));
                }
            }
        }
        return null;
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
        if (offset + len > BUFFER_BYTES) {
            throw new UserError("pkt_len " + len + " from pkt_buffer_offset " + offset + " passes the buffer's end (" + BUFFER_BYTES
                    + " bytes)");
        }
        long batches = field(args, "batch_count_cfg", 0) + 1;
        long packets = field(args, "packets_per_batch_cfg", 0) + 1;
        if (batches * packets > MAX_PACKETS_PER_TRIGGER) {
            throw new UserError((batches * packets) + " packets a trigger; rmtemu sends at most " + MAX_PACKETS_PER_TRIGGER);
        }
        long ipg = field(args, "ipg", 0);
        long ibg = field(args, "ibg", 0);
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

    /** A field's value (a non-negative number), or {@code absent} when the line does not give it. */
    private static long field(List<String> args, String name, long absent) {
        for (String w : args.subList(1, args.size())) {
            int eq = w.indexOf('=');
            if (w.substring(0, eq).toLowerCase(Locale.ROOT).equals(name)) {
                return ControlScript.intNumber(w.substring(eq + 1), name);
            }
        }
        return absent;
    }
}

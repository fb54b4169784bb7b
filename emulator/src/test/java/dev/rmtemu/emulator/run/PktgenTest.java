package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The packet generator's timer and port-down applications, configured by a control script,
 * send packets with TNA's pktgen header into pipe 0 from its generator port (rmtemu's 448, which
 * the P4 program sees as TNA's 68), which pktgen.p4 parses; tofino1, 1,220 cycles a microsecond.
 */
class PktgenTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    /** Ethernet to 02:00:00:00:00:05 from 02:00:00:00:00:09, type 0x88b6, and the 5 id bytes. */
    private static final String TEMPLATE = "02000000000502000000000988b60000000000";

    /** pktgen.p4 compiled for tofino1 (LinkStateTest runs it too). */
    static StageProgram program() throws Exception {
        try (InputStream in = PktgenTest.class.getResourceAsStream("/dev/rmtemu/emulator/engine/p4/pktgen.p4")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return ProgramCompiler.compile(P4Programs.text("pktgen.p4", text, PreprocessorOptions.defaults()).require(),
                    TOFINO1).requireAccepted().program();
        }
    }

    /** A 64-byte frame of EtherType 0x88b6, which pktgen.p4 forwards. */
    static PacketRecord traceFrame() {
        byte[] f = new byte[64];
        f[12] = (byte) 0x88;
        f[13] = (byte) 0xB6;
        PacketRecord r = PacketRecord.allocate();
        r.wireLength(f.length);
        r.putFrame(f, 0, f.length);
        return r;
    }

    private static int u16(byte[] a, int at) {
        return ((a[at] & 0xff) << 8) | (a[at + 1] & 0xff);
    }

    /**
     * Timer app 2: every 1,000 ns (1,220 cycles) from 1,000 ns, one batch of two packets 100 ns
     * (122 cycles) apart, while the trace (two frames, the last at cycle 4,000) lasts: triggers at
     * cycles 1,220, 2,440 and 3,660. Port-down app 3: two batches of one packet, 50 ns (61
     * cycles) apart, from the cycle after port 7 goes down at 3,000. Each generated packet is the
     * 6-byte header then the 19 buffer bytes; ingress writes the ids it parsed into the last five.
     */
    @Test
    void timerAndPortDownPacketsCarryTheirHeaderFromTheGeneratorPort(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("pktgen.ctl");
        Files.writeString(f, "pktgen_pkt_buffer 0 " + TEMPLATE + "\n"
                + "pktgen_app_timer 2 timer_nanosec=1000 pkt_len=19 packets_per_batch_cfg=1 ipg=100\n"
                + "pktgen_app_port_down 3 pkt_len=19 batch_count_cfg=1 ibg=50\n"
                + "pktgen_clear_port_down 7\n"
                + "at 3000 port_down 7\n");
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        ControlScript.apply(f, e);
        List<String> out = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            byte[] a = pool.frameArray();
            int o = pool.frameOffset(slot);
            if (port == 5) {
                arrivals.add(pool.arrivalCycle(slot));
                out.add((a[o] & 0xff) + "/" + u16(a, o + 2) + "/" + u16(a, o + 4) + " ids " + (a[o + 20] & 0xff) + "/"
                        + u16(a, o + 21) + "/" + u16(a, o + 23) + " len " + pool.capturedLength(slot));
            } else {
                out.add("trace on port " + port);
            }
        });
        e.arrive(100, 0, traceFrame());
        e.arrive(4000, 0, traceFrame());
        e.drain();
        // first byte: pipe 0 << 3 | app id; then batch id (timer) or port (port down), packet id
        assertEquals(List.of(
                "trace on port 1",
                "2/0/0 ids 2/0/0 len 25", "2/0/1 ids 2/0/1 len 25",
                "2/0/0 ids 2/0/0 len 25", "2/0/1 ids 2/0/1 len 25",
                "3/7/0 ids 3/7/0 len 25", "3/7/0 ids 3/7/0 len 25",
                "2/0/0 ids 2/0/0 len 25", "2/0/1 ids 2/0/1 len 25",
                "trace on port 1"), out);
        assertEquals(List.of(1220L, 1342L, 2440L, 2562L, 3001L, 3062L, 3660L, 3782L), arrivals);
        assertEquals(10, e.counters().packetsIn());
    }

    private static String hex(byte[] a, int from, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            b.append(String.format("%02x", a[i] & 0xff));
        }
        return b.toString();
    }

    /**
     * One-shot timer app 2 (bf-runtime's trigger_timer_one_shot): one batch of three packets,
     * 10 ns apart, from its expiry at 2,000 ns = cycle 2,440; packet p at ceil((2,000 + 10p) ns):
     * cycles 2,440, 2,453 (2,452.2) and 2,465 (2,464.4). It fires once, though the trace lasts
     * to cycle 6,000 (a periodic timer would fire again at 4,880). Each frame that leaves port 5
     * starts with the 6-byte header (pipe 0 << 3 | app 2; a zero byte; batch 0; packet p) and
     * the buffer's Ethernet header.
     */
    @Test
    void aOneShotTimerFiresOnceAtItsExpiry(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("oneshot.ctl");
        Files.writeString(f, "pktgen_pkt_buffer 0 " + TEMPLATE + "\n"
                + "pktgen_app_timer_one_shot 2 timer_nanosec=2000 pkt_len=19 packets_per_batch_cfg=2 ipg=10 ibg_jitter=0 "
                + "source_port=68 increment_source_port=false\n");
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        ControlScript.apply(f, e);
        List<String> out = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            if (port == 5) {
                out.add(pool.arrivalCycle(slot) + " " + hex(pool.frameArray(), pool.frameOffset(slot), 18));
            }
        });
        e.arrive(100, 0, traceFrame());
        e.arrive(6000, 0, traceFrame());
        e.drain();
        assertEquals(List.of(
                "2440 020000000000" + "020000000005020000000009",
                "2453 020000000001" + "020000000005020000000009",
                "2465 020000000002" + "020000000005020000000009"), out);
        assertEquals(5, e.counters().packetsIn());
    }

    /**
     * A port's down transition triggers the port-down apps only when its port-down event was
     * cleared since it last triggered, and before the first too (bf_pktgen_clear_port_down's
     * documentation): the downs at 1,000 (never cleared) and 5,000 (not cleared since 3,000) and
     * the second port_down at 3,500 (the link is already down: no transition) send nothing.
     */
    @Test
    void portDownAppsFireOncePerClearedDownTransition(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("flap.ctl");
        Files.writeString(f, "pktgen_pkt_buffer 0 " + TEMPLATE + "\n"
                + "pktgen_app_port_down 3 pkt_len=19\n"
                + "at 1000 port_down 7\n"
                + "at 2000 port_up 7\n"
                + "at 2500 pktgen_clear_port_down 7\n"
                + "at 3000 port_down 7\n"
                + "at 3500 port_down 7\n"
                + "at 4000 port_up 7\n"
                + "at 5000 port_down 7\n"
                + "at 5500 port_up 7\n"
                + "at 5600 pktgen_clear_port_down 7\n"
                + "at 6000 port_down 7\n");
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        ControlScript.apply(f, e);
        List<Long> arrivals = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            if (port == 5) {
                arrivals.add(pool.arrivalCycle(slot));
            }
        });
        e.arrive(100, 0, traceFrame());
        e.arrive(7000, 0, traceFrame());
        e.drain();
        assertEquals(List.of(3001L, 6001L), arrivals);
        assertEquals(true, e.isPortDown(7));
    }

    @Test
    void badGeneratorLinesAreRefusedBeforeTheRun(@TempDir Path tmp) throws Exception {
        String[][] cases = {
            {"pktgen_app_timer 8 timer_nanosec=1000 pkt_len=19", "application id 8 outside 0..7"},
            {"pktgen_app_timer 1 timer_nanosec=1000", "field pkt_len missing"},
            {"pktgen_app_timer 1 timer_nanosec=1000 pkt_len=19 ipq=5", "unknown field 'ipq' (did you mean ipg?)"},
            {"pktgen_app_timer 1 pkt_len=19", "timer_nanosec must be at least 1"},
            {"pktgen_app_timer 1 timer_nanosec=10 pkt_len=16370 pkt_buffer_offset=16",
                "pkt_len 16370 from pkt_buffer_offset 16 passes the buffer's end (16384 bytes)"},
            // bf_pktgen_app_cfg_t: pkt_buffer_offset "must be 16B aligned"; its legal twin is the line above
            {"pktgen_app_timer 1 timer_nanosec=10 pkt_len=4 pkt_buffer_offset=8", "pkt_buffer_offset 8 is not 16-byte aligned"},
            {"pktgen_app_timer_one_shot 1 timer_nanosec=10 pkt_len=4 ipg_jitter=5",
                "ipg_jitter 5: Tofino's jitter is random; rmtemu is deterministic and takes only 0"},
            {"pktgen_app_timer_one_shot 1 timer_nanosec=10 pkt_len=4 source_port=3",
                "source_port 3: generated packets enter on the pipe's generator port (Tofino's 68, rmtemu's 448 + pipe); "
                    + "another source port is not modelled"},
            {"pktgen_app_timer 1 timer_nanosec=10 pkt_len=4 increment_source_port=true",
                "increment_source_port: generated packets enter on the pipe's generator port; a port per packet of a "
                    + "batch is not modelled"},
            {"pktgen_app_timer 1 timer_nanosec=10 pkt_len=4 increment_source_port=yes", "increment_source_port 'yes' is not true or false"},
            {"pktgen_app_timer 1 timer_nanosec=4294967296 pkt_len=4", "timer_nanosec 4294967296 does not fit its 32 bits"},
            {"pktgen_app_timer_one_shot 1 pkt_len=4", "timer_nanosec must be at least 1"},
            {"at 5 pktgen_app_timer_one_shot 1 timer_nanosec=10 pkt_len=4",
                "pktgen_app_timer_one_shot configures the switch before the run: no 'at CYCLE'"},
            {"pktgen_app_timer 1 timer_nanosec=10 pkt_len=1 batch_count_cfg=32 packets_per_batch_cfg=31",
                "1056 packets a trigger; rmtemu sends at most 1024"},
            {"pktgen_pkt_buffer 16368 000102030405060708090a0b0c0d0e0f10",
                "pktgen buffer: 17 bytes at offset 16368 pass its end (16384 bytes)"},
            // bf_pktgen_write_pkt_buffer: the offset "must be 16B aligned"
            {"pktgen_pkt_buffer 8 0a0b", "pktgen buffer offset 8 is not 16-byte aligned"},
            {"pktgen_pkt_buffer 0 abc", "'abc' is not bytes in hex (an even number of hex digits)"},
            {"port_down 4000", "port 4000 names no port of this target (a P4 program numbers ports as TNA does: pipe << 7"
                + " | port, the recirculation port pipe << 7 | 68)"},
            {"port_down 16", "port 16 names no port of this target (a P4 program numbers ports as TNA does: pipe << 7"
                + " | port, the recirculation port pipe << 7 | 68)"},
            {"port_down 68", "port 68 is no front-panel port"},
            {"at 10 port_up 64", "port 64 names no port of this target (a P4 program numbers ports as TNA does: pipe << 7"
                + " | port, the recirculation port pipe << 7 | 68)"},
            {"pktgen_clear_port_down 7 8", "too many arguments: pktgen_clear_port_down PORT"},
        };
        StageProgram p = program();
        for (String[] c : cases) {
            Path f = tmp.resolve("bad.ctl");
            Files.writeString(f, "# line 1\n" + c[0] + "\n");
            SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, p, 100));
            UserError err = assertThrows(UserError.class, () -> ControlScript.apply(f, e), c[0]);
            assertEquals(f + ":2: " + c[1], err.getMessage(), c[0]);
        }
    }
}

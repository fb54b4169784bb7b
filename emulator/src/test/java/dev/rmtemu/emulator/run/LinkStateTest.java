package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.PacketTap;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Link state from a control script: {@code port_down} flushes the port's queues and drops what
 * the traffic manager would queue to it as {@code tm_port_down_flush}, a packet on the wire
 * finishes, and {@code port_up} restores forwarding. pktgen.p4 sends every trace frame to port
 * 1 (100 Gb/s: a 64-byte frame holds it (64 + 20) × 8 / 100 ns = 8.2 cycles); tofino1.
 */
class LinkStateTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static StageProgram program() throws Exception {
        return PktgenTest.program();
    }

    private static PacketRecord frame() {
        return PktgenTest.traceFrame();
    }

    /** Records departures and drops as "packet@cycle" lines. */
    private static final class Log implements PacketTap {
        final List<String> lines = new ArrayList<>();
        private final SwitchEngine engine;

        Log(SwitchEngine engine) {
            this.engine = engine;
        }

        @Override
        public void departed(long packet, int ingressPort, long arrivalCycle, int port, int queue, long cycle, PacketRecord r) {
            lines.add("out " + packet + " port " + port + " @" + cycle);
        }

        @Override
        public void dropped(long packet, int ingressPort, long arrivalCycle, int port, int queue, int cause, long cycle,
                            PacketRecord r) {
            lines.add("drop " + packet + " port " + port + " q" + queue + " " + engine.counters().causeName(cause) + " @" + cycle);
        }
    }

    /**
     * Packets 0..3 arrive together; the parser takes one a cycle, so they reach the traffic
     * manager for port 1 at T, T+1, T+2, T+3 (T = 100 + ingressToTm = 234 here). Packet 0 starts
     * at once; 1 and 2 queue behind it. The port goes down at T+2 = 236, after that cycle's
     * packets: 1 and 2 are flushed then, 0 (on the wire) finishes, 3 is dropped on reaching the
     * traffic manager at 237, and 4 (arriving at 1,000) at 1,134. The port comes up at 2,000 and
     * 5 (arriving at 3,000) leaves.
     */
    @Test
    void aDownPortFlushesItsQueueAndDropsWhatWouldBeQueuedUntilItComesUp(@TempDir Path tmp) throws Exception {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        assertEquals(134, e.ingressToTmCycles());
        Path f = tmp.resolve("link.ctl");
        Files.writeString(f, "at 236 port_down 1\nat 2000 port_up 1\n");
        ControlScript.apply(f, e);
        Log log = new Log(e);
        e.tap(log);
        for (int i = 0; i < 4; i++) {
            e.arrive(100, 0, frame());
        }
        e.arrive(1000, 0, frame());
        e.arrive(3000, 0, frame());
        e.drain();
        long wire = e.egressToWireCycles();
        assertEquals(List.of(
                "out 0 port 1 @" + (234 + 9 + wire),
                "drop 1 port 1 q0 tm_port_down_flush @236",
                "drop 2 port 1 q0 tm_port_down_flush @236",
                "drop 3 port 1 q0 tm_port_down_flush @237",
                "drop 4 port 1 q0 tm_port_down_flush @1134",
                "out 5 port 1 @" + (3134 + 9 + wire)), log.lines);
        assertEquals(Map.of("tm_port_down_flush", 4L), nonZero(e.counters().droppedByCause()));
        assertEquals(2, e.trafficManager().flushedPackets(1));
        assertEquals(2, e.counters().packetsOut());
        e.checkConservation();
    }

    /** A run whose script never takes a port down has no port-down cause in its report. */
    @Test
    void theCauseIsRegisteredOnlyWhenAPortGoesDown() throws Exception {
        SwitchEngine e = new SwitchEngine(SwitchConfig.of(TOFINO1, program(), 100));
        e.arrive(100, 0, frame());
        e.drain();
        assertEquals(false, e.counters().droppedByCause().containsKey(SwitchEngine.DROP_PORT_DOWN));
    }

    private static Map<String, Long> nonZero(Map<String, Long> m) {
        Map<String, Long> r = new java.util.TreeMap<>();
        m.forEach((k, v) -> {
            if (v != 0) {
                r.put(k, v);
            }
        });
        return r;
    }
}

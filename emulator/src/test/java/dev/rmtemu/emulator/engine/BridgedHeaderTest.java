package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A program's bridged header (ingress to egress) is buffered with the packet: it costs
 * traffic-manager cells, while the port still serialises the wire bytes only.
 */
class BridgedHeaderTest {
    private static final int PACKET = 1040;

    /** Forwards to port 1, bridging {@code bridgedBits} bits (0: none). */
    private static StageProgram forwarding(int bridgedBits) {
        ProgramBuilder b = ProgramBuilder.create("fwd", "forwards to port 1");
        Field out = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        List<Field> carried = new ArrayList<>();
        for (int left = bridgedBits, i = 0; left > 0; left -= 32, i++) {
            carried.add(b.bridged("br.f" + i, Math.min(32, left)));
        }
        b.stage(Gress.INGRESS, 0).body(code -> {
            code.set(out, 1);
            for (Field f : carried) {
                code.set(f, constant(1));
            }
        });
        b.stage(Gress.EGRESS, 0).body(code -> { });
        return b.build();
    }

    private record Outcome(int queuedCells, List<Long> departures) {
    }

    private static Outcome run(StageProgram p) {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p, 4, PortConfig.strictPriority(1), true));
        List<Long> departures = new ArrayList<>();
        e.onDeparture((c, port, slot, pool) -> departures.add(c));
        PacketRecord r = PacketRecord.allocate().ipVersion(4).protocol(17).wireLength(PACKET);
        e.arrive(100, 0, r);
        e.arrive(100, 2, r);
        // both are through ingress; the first is on the wire (1 Gb/s: ~10,000 cycles), the second waits
        e.runUntil(2_000, EventQueue.Phase.CONTROL);
        int cells = e.trafficManager().queueDepthCells(1, 0);
        e.drain();
        return new Outcome(cells, departures);
    }

    @Test
    void bridgedBytesAreBufferedNotSent() {
        StageProgram plain = forwarding(0);
        StageProgram bridged = forwarding(40 * 8 - 3); // 317 bits: 40 bytes
        assertEquals(0, plain.bridgedBytes());
        assertEquals(40, bridged.bridgedBytes());
        Outcome a = run(plain);
        Outcome b = run(bridged);
        assertEquals(13, a.queuedCells()); // 1040 / 80
        assertEquals(14, b.queuedCells()); // 1080 / 80, rounded up
        assertEquals(a.departures(), b.departures(), "the wire sees the same bytes");
        assertEquals(2, b.departures().size());
    }
}

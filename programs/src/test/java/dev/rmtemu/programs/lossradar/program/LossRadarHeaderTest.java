package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.FrameSynthesizer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LossRadar's shim on the wire: the upstream meter adds it after Ethernet (EtherType 0x88B5,
 * 8 bytes: batch ID, timestamp, meter ID) with the batch of the packet's ingress time, and a
 * downstream meter alone, the shim's last hop, removes it: the frame leaves as it came.
 */
class LossRadarHeaderTest {
    private static final int WIRE = 200;

    private static PacketRecord packet(int i) {
        PacketRecord r = PacketRecord.allocate().ipVersion(4).protocol(PacketRecord.PROTO_TCP).wireLength(WIRE)
                .srcIpv4(0x0A000001 + i).dstIpv4(0x0A000102).srcPort(4000 + i).dstPort(80).ipId(100 + i).tcpFlags(0x10);
        FrameSynthesizer.attachFrame(r);
        return r;
    }

    @Test
    void theUpstreamMeterAddsTheShimAndALoneDownstreamMeterRemovesIt() {
        // timestamps in the signature, black-box mode with this UM's meter ID 3
        LossRadarConfig cfg = new LossRadarConfig(3, 96, 4, 20, 100_000, false, false, true, 0, 1).withMeters(4, 3);
        StageProgram um = new LossRadarProgram.Upstream().build(cfg, LossRadarProgram.DEFAULT_ACL_ENTRIES, null);
        StageProgram dm = new LossRadarProgram.Downstream().build(cfg, LossRadarProgram.DEFAULT_ACL_ENTRIES, null);
        SwitchEngine a = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), um, 4, PortConfig.strictPriority(100), true));
        SwitchEngine b = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), dm, 4, PortConfig.strictPriority(100), true));
        b.forwarding((in, rec) -> 2);
        List<PacketRecord> onWire = new ArrayList<>();
        List<PacketRecord> left = new ArrayList<>();
        a.onDeparture((c, port, slot, pool) -> {
            onWire.add(PacketRecord.allocate().copyFrom(pool.record(slot)));
            b.scheduleArrival(c + 100, 1, pool.record(slot));
        });
        b.onDeparture((c, port, slot, pool) -> left.add(PacketRecord.allocate().copyFrom(pool.record(slot))));
        long[] cycles = {1_000, 3_000_000, 7_000_000};
        for (int i = 0; i < cycles.length; i++) {
            a.arrive(cycles[i], 0, packet(i));
        }
        a.drain();
        b.drain();
        assertEquals(3, onWire.size());
        assertEquals(3, left.size());
        for (int i = 0; i < cycles.length; i++) {
            PacketRecord w = onWire.get(i);
            long ns = a.clock().cyclesToNs(cycles[i]);
            assertTrue(LossRadarHeader.present(w), "packet " + i + " carries the shim");
            assertEquals(WIRE + LossRadarHeader.BYTES, w.wireLength(), "the shim's 8 bytes are on the wire");
            assertEquals((ns >>> cfg.batchShift()) & 0xFFFF, LossRadarHeader.batch(w), "batch ID of packet " + i);
            assertEquals((ns >>> Signature.TIMESTAMP_UNIT_SHIFT) & 0x3FFF, LossRadarHeader.tstamp(w), "timestamp of packet " + i);
            assertEquals(3, LossRadarHeader.meter(w));
            PacketRecord out = left.get(i);
            assertFalse(LossRadarHeader.present(out), "the DM removed the shim of packet " + i);
            assertEquals(WIRE, out.wireLength());
            assertArrayEquals(packet(i).frameBytes(), out.frameBytes(), "packet " + i + " leaves as it came");
        }
        assertTrue(LossRadarHeader.batch(onWire.get(0)) != LossRadarHeader.batch(onWire.get(2)), "the trace spans batches");
    }
}

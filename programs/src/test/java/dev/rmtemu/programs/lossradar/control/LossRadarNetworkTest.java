package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;

import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** lossradar-um and lossradar-dm in the network engine: the batch ID crosses the link in the shim header. */
class LossRadarNetworkTest {
    private static Topology line(String loss) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("ports", "2");
        params.put("batch_shift", "16");
        params.put("timeout_us", "10");
        KeyValues p = KeyValues.of(params);
        TopologyBuilder b = new TopologyBuilder("test:lossradar-line");
        b.programmableSwitch("s1", "tofino1", 2, "lossradar-um", p);
        b.programmableSwitch("s2", "tofino1", 2, "lossradar-dm", p);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SINK);
        b.link("h1", 1, "s1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 2, "s2", 2, true, 1000, 100, loss == null ? KeyValues.EMPTY : KeyValues.of(Map.of("loss", loss)), KeyValues.EMPTY);
        b.link("s2", 1, "h2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    /** The digest of (slot, port) read straight from a switch's register arrays. */
    private static IbfDigest digest(PipelineState s, LossRadarConfig c, int role, int slot, int port) {
        IbfDigest d = IbfDigest.of(c);
        int m = c.cellsPerHash();
        for (int j = 0; j < c.hashes(); j++) {
            for (int i = 0; i < m; i++) {
                int idx = LossRadarProgram.cellIndex(c, role, slot, 0, port, i);
                d.setCount(j * m + i, (int) s.readRegister(0, LossRadarProgram.arrayName(role, j, c.words(), c.words()), idx));
                for (int w = 0; w < c.words(); w++) {
                    d.setXorWord(j * m + i, w, (int) s.readRegister(0, LossRadarProgram.arrayName(role, j, w, c.words()), idx));
                }
            }
        }
        return d;
    }

    private static NetworkEngine run(String loss) {
        NetworkEngine net = NetworkEngine.build(line(loss), NetworkOptions.of(3), ProgramPlugins.registry());
        PacketRecord r = PacketRecord.allocate();
        for (int i = 0; i < 4000; i++) {
            r.clear();
            r.ipVersion(4).protocol(6).srcIpv4(0x0A000101).dstIpv4(0x0A000201 + (i % 7)).srcPort(1000 + i % 13).dstPort(80)
                    .ipId(i & 0xFFFF).wireLength(500);
            net.inject(100L + i * 150L, r); // 600 k cycles: about 490 µs, several 65.5 µs batches
        }
        net.drain();
        return net;
    }

    @Test
    void withoutLossDownstreamDigestsEqualUpstreamOnesSlotBySlot() {
        NetworkEngine net = run(null);
        LossRadarConfig c = new LossRadarConfig(3, 96, 2, 16, 10_000, false, false, false, 0, 1);
        PipelineState s1 = net.switchEngine("s1").state();
        PipelineState s2 = net.switchEngine("s2").state();
        for (int slot = 0; slot < 2; slot++) {
            IbfDigest um = digest(s1, c, MeterDigest.UM, slot, 1);
            IbfDigest dm = digest(s2, c, MeterDigest.DM, slot, 1);
            assertTrue(um.packets() > 500, "both batch parities used: " + um.packets());
            assertEquals(um, dm, "slot " + slot + ": the DM filed every packet under the UM's batch");
        }
    }

    @Test
    void linkLossesDecodeFromTheDifference() {
        NetworkEngine net = run("bernoulli:0.01");
        LossRadarConfig c = new LossRadarConfig(3, 96, 2, 16, 10_000, false, false, false, 0, 1);
        long lost = net.lost(1, 0);
        assertTrue(lost > 10, "the link lost packets: " + lost);
        long decoded = 0;
        for (int slot = 0; slot < 2; slot++) {
            IbfDigest diff = digest(net.switchEngine("s1").state(), c, MeterDigest.UM, slot, 1)
                    .minus(digest(net.switchEngine("s2").state(), c, MeterDigest.DM, slot, 1));
            IbfDecoder.Result res = IbfDecoder.peel(diff);
            assertTrue(res.complete(), res.summary());
            decoded += res.decoded();
        }
        assertEquals(lost, decoded);
    }
}

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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Black-box mode: two UMs (meter IDs 1 and 2) in front of a regular (black-box) switch,
 * two DMs behind it, lossy links inside. Each DM files packets per upstream meter ID;
 * a UM's digest minus the sum of the DM digests tagged with its ID decodes to exactly
 * its own lost packets.
 */
class LossRadarBlackBoxTest {
    static final int METERS = 3;

    private static KeyValues params(String meterId) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("ports", "2");
        p.put("batch_shift", "16");
        p.put("timeout_us", "10");
        p.put("meters", Integer.toString(METERS));
        p.put("meter_id", meterId);
        return KeyValues.of(p);
    }

    private static Topology topology() {
        TopologyBuilder b = new TopologyBuilder("test:black-box");
        b.programmableSwitch("s1", "tofino1", 2, "lossradar-um", params("1"));
        b.programmableSwitch("s2", "tofino1", 2, "lossradar-um", params("2"));
        b.regularSwitch("r", 4);
        b.programmableSwitch("s3", "tofino1", 2, "lossradar-dm", params("0"));
        b.programmableSwitch("s4", "tofino1", 2, "lossradar-dm", params("0"));
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.SOURCE);
        b.host("h3", Ipv4Prefix.parse("10.0.3.1/32"), HostRole.SINK);
        b.host("h4", Ipv4Prefix.parse("10.0.4.1/32"), HostRole.SINK);
        KeyValues lossy = KeyValues.of(Map.of("loss", "bernoulli:0.01"));
        b.link("h1", 1, "s1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("h2", 1, "s2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s1", 2, "r", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s2", 2, "r", 2, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r", 3, "s3", 1, true, 1000, 100, lossy, KeyValues.EMPTY);
        b.link("r", 4, "s4", 1, true, 1000, 100, lossy, KeyValues.EMPTY);
        b.link("s3", 2, "h3", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("s4", 2, "h4", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    private static IbfDigest digest(PipelineState s, LossRadarConfig c, int role, int slot, int upstream, int port) {
        IbfDigest d = IbfDigest.of(c);
        int m = c.cellsPerHash();
        for (int j = 0; j < c.hashes(); j++) {
            for (int i = 0; i < m; i++) {
                int idx = LossRadarProgram.cellIndex(c, role, slot, upstream, port, i);
                d.setCount(j * m + i, (int) s.readRegister(0, LossRadarProgram.arrayName(role, j, c.words(), c.words()), idx));
                for (int w = 0; w < c.words(); w++) {
                    d.setXorWord(j * m + i, w, (int) s.readRegister(0, LossRadarProgram.arrayName(role, j, w, c.words()), idx));
                }
            }
        }
        return d;
    }

    private static void inject(NetworkEngine net) {
        PacketRecord r = PacketRecord.allocate();
        for (int i = 0; i < 6000; i++) {
            r.clear();
            r.ipVersion(4).protocol(17).srcIpv4(0x0B000000 + i % 29).dstIpv4(0x0C000000 + i % 31).srcPort(2000 + i % 17)
                    .dstPort(53).ipId(i & 0xFFFF).wireLength(300);
            net.inject(100L + i * 100L, r);
        }
        net.drain();
    }

    @Test
    void exportedDigestsDecodePerUpstreamMeterThroughTheJournal(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        NetworkEngine net = NetworkEngine.build(topology(), NetworkOptions.of(5), ProgramPlugins.registry());
        LossRadarConfig c = new LossRadarConfig(3, 96, 2, 16, 10_000, false, false, false, 0, 1);
        dev.rmtemu.emulator.journal.JournalKinds kinds = new dev.rmtemu.emulator.journal.JournalKinds();
        LossRadarExport.registerKinds(kinds);
        String[] names = {"s1", "s2", "s3", "s4"};
        List<LossRadarExport> exports = new ArrayList<>();
        long untilNs = 700_000;
        try (dev.rmtemu.emulator.journal.ExportJournal journal = dev.rmtemu.emulator.journal.ExportJournal.create(dir, kinds)) {
            for (int i = 0; i < names.length; i++) {
                LossRadarConfig ci = c.withMeters(METERS, i < 2 ? i + 1 : 0);
                LossRadarExport e = new LossRadarExport(net.switchEngine(names[i]), ci,
                        i < 2 ? LossRadarProgram.Role.UM : LossRadarProgram.Role.DM, journal, i);
                e.scheduleTicks(c.batchNs() / 8, untilNs);
                exports.add(e);
            }
            inject(net);
            for (int i = 0; i < names.length; i++) {
                exports.get(i).flush(net.switchEngine(names[i]).state(), net.switchEngine(names[i]).clock().nsToCycles(untilNs) + 1);
            }
        }
        List<MeterDigest> ds = LossRadarCollector.read(dir.resolve("journal"));
        List<LossRadarCollector.BatchReport> reports = LossRadarCollector.decodeBlackBox(ds, List.of(
                new LossRadarCollector.BlackBoxMeter("s1", 0, 1, 1), new LossRadarCollector.BlackBoxMeter("s2", 1, 1, 2)));
        assertTrue(reports.size() > 8, "several batches per meter: " + reports.size());
        for (LossRadarCollector.BatchReport b : reports) {
            assertTrue(b.result().complete(), b.link().name() + " batch " + b.batch() + ": " + b.result().summary());
            for (LostPacket p : b.result().lost()) {
                assertEquals(b.link().name().equals("s1") ? 0x0A000101 : 0x0A000201, p.src());
            }
        }
        assertEquals(net.lost(4, 0) + net.lost(5, 0), LossRadarCollector.lost(reports).size());
    }

    @Test
    void eachUpstreamMeterDecodesItsOwnLossesAcrossAllDownstreamMeters() {
        NetworkEngine net = NetworkEngine.build(topology(), NetworkOptions.of(5), ProgramPlugins.registry());
        inject(net);
        long lost = net.lost(4, 0) + net.lost(5, 0);
        assertTrue(lost > 20, "losses inside the black box: " + lost);
        LossRadarConfig c = new LossRadarConfig(3, 96, 2, 16, 10_000, false, false, false, 0, 1).withMeters(METERS, 0);
        long decoded = 0;
        int[] ownSource = {0, 0x0A000101, 0x0A000201};
        for (int u = 1; u <= 2; u++) {
            PipelineState um = net.switchEngine("s" + u).state();
            List<IbfDecoder.Result> results = new ArrayList<>();
            for (int slot = 0; slot < 2; slot++) {
                IbfDigest diff = digest(um, c, MeterDigest.UM, slot, 0, 1);
                for (String dm : new String[] {"s3", "s4"}) {
                    diff = diff.minus(digest(net.switchEngine(dm).state(), c, MeterDigest.DM, slot, u, 0));
                }
                results.add(IbfDecoder.peel(diff));
            }
            for (IbfDecoder.Result res : results) {
                assertTrue(res.complete(), "meter " + u + ": " + res.summary());
                for (LostPacket p : res.lost()) {
                    assertEquals(ownSource[u], p.src(), "meter " + u + " decodes only its own packets");
                }
                decoded += res.decoded();
            }
        }
        assertEquals(lost, decoded);
    }
}

package dev.rmtemu.programs.lds.control;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsIntervals;

import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyFile;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two measurement points on two switches: the sender sketch in s1's ingress, the receiver
 * sketch in s2's egress, two parallel s1–s2 links (ECMP by flow) with different delay
 * impairments, one of them a two-mode mixture. With fixed-size packets everything outside
 * s1-ingress → s2-egress is a constant, so each flow's LDS estimate must equal its
 * end-to-end mean latency minus that constant.
 */
class LdsLineTest {
    /** The two-switch line with two ECMP links of different delay; sketch size and interval vary by test. */
    static String topology(int cells, int intervalShift) {
        String params = "port: 0, cells: " + cells + ", k: 1, interval_shift: " + intervalShift;
        return """
                defaults: {latency_ns: 1000, rate_gbps: 100}
                nodes:
                  - {name: s1, type: switch, target: tofino1, ports: 4, program: lds, params: {role: sender, PARAMS}}
                  - {name: s2, type: switch, target: tofino1, ports: 4, program: lds, params: {role: receiver, PARAMS}}
                  - {name: h1, type: host, address: 10.0.1.0/24, role: source}
                  - {name: h2, type: host, address: 10.0.2.0/24, role: sink}
                links:
                  - {a: h1:1, b: s1:1}
                  - {a: s1:2, b: s2:1, latency_ns: 5000, impair_ab: {delay: "normal:mean=3us,sigma=1us"}}
                  - {a: s1:3, b: s2:2, latency_ns: 5000, impair_ab: {delay: "mixture:w=0.6,mean1=10us,sigma1=2us,mean2=80us,sigma2=20us"}}
                  - {a: s2:3, b: h2:1}
                """.replace("PARAMS", params);
    }

    static final String TOPOLOGY = topology(8192, 16);

    static final double TOLERANCE_NS = 12;

    static final class Flow {
        final PacketRecord key = PacketRecord.allocate();
        long packets;
        double latencySum;
    }

    @Test
    void senderOnS1ReceiverOnS2MeasureTheirSegment(@TempDir Path dir) {
        Topology t = TopologyFile.parse(TOPOLOGY, "lds-line.yaml", TopologyFile.Format.YAML);
        NetworkEngine net = NetworkEngine.build(t, NetworkOptions.of(9), ProgramPlugins.registry());
        TreeMap<Long, Flow> flows = new TreeMap<>();
        net.onDelivery((host, cycle, r) -> {
            Flow f = flows.computeIfAbsent(LdsSwitchTest.key(r), k -> new Flow());
            f.key.copyFrom(r);
            f.packets++;
            f.latencySum += net.clock().cyclesToNs(cycle) - r.timestampNs();
        });
        long start = -1;
        try (PacketSource src = TraceSpec.open("gen:isp?packets=8000&flows=150&ipv6=0&seed=4&load=0.2&sizes=fixed:500&dist=zipf&gbps=100")) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                start = start < 0 ? r.timestampNs() : start;
                net.inject(net.clock().nsToCycles(r.timestampNs() - start), r);
            }
        }
        net.drain();
        LdsConfig cfg = LdsConfig.singleRate(LdsConfig.DEFAULT_ROWS, 8192, 1, 1.0);
        JournalKinds kinds = new JournalKinds();
        LdsCollector.registerKinds(kinds);
        int s1 = 0;
        try (ExportJournal j = ExportJournal.create(dir, kinds)) {
            LdsCollector.export(LdsCollector.read(net.switchEngine("s1").state(), 0, cfg, true), 1, j, net.now(), s1, 0);
        }
        LdsEstimator est = new LdsEstimator(LdsCollector.importSender(dir.resolve("journal"), cfg, 1, s1),
                LdsCollector.read(net.switchEngine("s2").state(), 0, cfg, false));
        List<Double> offsets = new ArrayList<>();
        double minMean = Double.MAX_VALUE;
        double maxMean = 0;
        FlowEstimate e = new FlowEstimate();
        for (Flow f : flows.values()) {
            PacketRecord k = f.key;
            est.estimate(k.srcIpv4(), k.dstIpv4(), k.protocol(), k.srcPort(), k.dstPort(), e);
            if (!e.hasDelay()) {
                continue;
            }
            double e2e = f.latencySum / f.packets;
            offsets.add(e2e - e.meanDelayNs);
            minMean = Math.min(minMean, e.meanDelayNs);
            maxMean = Math.max(maxMean, e.meanDelayNs);
        }
        assertTrue(offsets.size() >= 0.9 * flows.size(), offsets.size() + " of " + flows.size() + " flows estimated");
        double[] o = offsets.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(o);
        double median = o[o.length / 2];
        // four timestamps (injection, s1 arrival, s2 egress, delivery) are each rounded between ns and
        // 1.22 GHz cycles, so per packet the offset moves by a few ns; flow means differ by tens of µs
        assertTrue(o[o.length - 1] - o[0] <= TOLERANCE_NS, "offsets from " + o[0] + " to " + o[o.length - 1] + " ns");
        assertTrue(median > 0, "hosts' links and s2's egress-to-wire time lie outside the measured segment");
        // ECMP over the two links: flows on the mixture link see several times the delay
        assertTrue(maxMean > 3 * minMean, "flow means from " + minMean + " to " + maxMean + " ns");
        assertEquals(2, net.switchCount());
        // intervals of 2^16 ns: s2 files each packet in the bank of the interval s1 stamped into the
        // shim, so bank by bank the two ends counted the same packets (no loss on this path)
        for (int bank = 0; bank < LdsIntervals.BANKS; bank++) {
            LdsSketch tx = LdsCollector.read(net.switchEngine("s1").state(), 0, cfg, true, bank);
            LdsSketch rx = LdsCollector.read(net.switchEngine("s2").state(), 0, cfg, false, bank);
            long sent = 0;
            long received = 0;
            for (int c = 0; c < cfg.cells(); c++) {
                sent += tx.count(0, c);
                received += rx.count(0, c);
                assertEquals(tx.digest(0, c), rx.digest(0, c), "bank " + bank + " cell " + c);
            }
            assertTrue(sent > 1000, "bank " + bank + " holds " + sent + " packets");
            assertEquals(sent, received, "bank " + bank);
        }
    }
}

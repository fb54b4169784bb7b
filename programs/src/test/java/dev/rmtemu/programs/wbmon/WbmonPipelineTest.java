package dev.rmtemu.programs.wbmon;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.topology.HostRole;
import dev.rmtemu.emulator.topology.Ipv4Prefix;
import dev.rmtemu.emulator.topology.KeyValues;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyBuilder;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage program on tofino1: its layout, and register contents equal to the reference over an impaired chain. */
class WbmonPipelineTest {

    @Test
    void thesisBuildFitsTofino1WithOneStatefulAluPerArrayAndTheBitmapsInTheirOwnStage() {
        WbmonPipeline p = new WbmonPipeline(WbmonConfig.defaults());
        ResourceReport r = ResourceChecker.check(p.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(r.fits(), String.join("; ", r.failures()));
        Map<Integer, Integer> ingressAlus = new LinkedHashMap<>();
        int egressAlus = 0;
        for (StageUsage u : r.stages()) {
            if (u.gress() == Gress.INGRESS) {
                ingressAlus.merge(u.stage(), u.statefulAlus(), Integer::sum);
            } else {
                egressAlus += u.statefulAlus();
            }
        }
        assertEquals(2, ingressAlus.get(0), "packets, newest");
        assertEquals(1, ingressAlus.get(1), "slot to clean");
        assertEquals(4, ingressAlus.get(2), "the N = 4 bitmaps");
        assertEquals(0, ingressAlus.get(3), "popcount tables only");
        assertEquals(1, ingressAlus.get(4), "drops");
        assertEquals(1, egressAlus, "next sequence number");
    }

    @Test
    void eightRegistersSpreadOverTwoStagesAndTooManyStagesAreRefused() {
        WbmonPipeline p = new WbmonPipeline(new WbmonConfig(256, 8, 32, 4));
        ResourceReport r = ResourceChecker.check(p.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(r.fits(), String.join("; ", r.failures()));
        WbmonPipeline big = new WbmonPipeline(new WbmonConfig(256, 48, 32, 4));
        ResourceReport rb = ResourceChecker.check(big.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(!rb.fits(), "48 bitmaps need 12 bitmap stages + 4 others > 12");
    }

    /** m1 – r1 – r2 – m2 – r3 – m3, a host on each m-switch; every link touching a regular switch impaired. */
    static Topology impairedChain() {
        TopologyBuilder b = new TopologyBuilder("test:wbmon-chain");
        for (int i = 1; i <= 3; i++) {
            b.programmableSwitch("m" + i, "tofino1", 3, null, KeyValues.EMPTY);
            b.host("h" + i, Ipv4Prefix.parse("10.0." + i + ".1/32"), HostRole.BOTH);
        }
        for (int i = 1; i <= 3; i++) {
            b.regularSwitch("r" + i, 2);
        }
        Map<String, String> imp = new LinkedHashMap<>();
        imp.put("loss", "bernoulli:0.03");
        imp.put("reorder", "p=0.05,sigma=20");
        imp.put("dup", "0.01");
        KeyValues k = KeyValues.of(imp);
        for (int i = 1; i <= 3; i++) {
            b.link("h" + i, 1, "m" + i, 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        }
        b.link("m1", 3, "r1", 1, true, 1000, 100, k, k);
        b.link("r1", 2, "r2", 1, true, 1000, 100, k, k);
        b.link("r2", 2, "m2", 2, true, 1000, 100, k, k);
        b.link("m2", 3, "r3", 1, true, 1000, 100, k, k);
        b.link("r3", 2, "m3", 2, true, 1000, 100, k, k);
        return b.build();
    }

    static PacketRecord packet(long i) {
        SplitMix64 rnd = new SplitMix64(i * 7919 + 3);
        return PacketRecord.allocate().wireLength(64 + rnd.nextInt(1400)).ipVersion(4).protocol(17)
                .srcIpv4((int) rnd.nextLong()).dstIpv4((int) rnd.nextLong())
                .srcPort(rnd.nextInt(65536)).dstPort(rnd.nextInt(65536)).ipId(rnd.nextInt(65536)).tcpSeq((int) rnd.nextLong());
    }

    record Arrival(int node, long cycle, long order, int vconn, long seq) {
    }

    @Test
    void stageProgramEqualsReferenceOnImpairedChain(@TempDir Path tmp) {
        WbmonConfig cfg = new WbmonConfig(16, 4, 32, 2);
        WbmonDeployment d = WbmonDeployment.build(impairedChain(), cfg, 21, true);
        NetworkEngine net = d.network();
        assertEquals(4, d.vconns().size());
        List<Arrival> arrivals = new ArrayList<>();
        net.onArrival((node, port, cycle, r) -> {
            for (int id = 0; id < d.vconns().size(); id++) {
                VConn v = d.vconns().get(id);
                if (v.to() == node && v.toPort() == port) {
                    arrivals.add(new Arrival(node, cycle, arrivals.size(), r.ipId(), r.tcpSeq() & 0xFFFFFFFFL));
                    return;
                }
            }
        });
        int n = 30_000;
        for (int i = 0; i < n; i++) {
            net.inject(150L * i, packet(i));
        }
        net.drain();
        net.checkConservation();
        arrivals.sort(Comparator.comparingLong(Arrival::cycle).thenComparingLong(Arrival::order));
        WindowMonitor ref = new WindowMonitor(cfg);
        for (Arrival a : arrivals) {
            ref.receive(a.vconn(), a.seq());
        }
        long totalDrops = 0;
        long unregistered = 0;
        for (int id = 0; id < d.vconns().size(); id++) {
            VConn v = d.vconns().get(id);
            SwitchEngine down = d.downstream(id);
            assertTrue(ref.packets(id) > 1000, "vconn " + id + " carried " + ref.packets(id));
            assertEquals(ref.packets(id), down.state().readRegister(0, WbmonPipeline.PACKETS, id), "packets " + id);
            assertEquals(ref.drops(id), down.state().readRegister(0, WbmonPipeline.DROPS, id), "drops " + id);
            assertEquals(ref.newestSlot(id) + 1, down.state().readRegister(0, WbmonPipeline.NEWEST, id));
            assertEquals(ref.slotToClean(id) + 1 + cfg.tolerance(), down.state().readRegister(0, WbmonPipeline.TO_CLEAN, id));
            long[] regs = new long[cfg.registers()];
            long[] want = new long[cfg.registers()];
            for (int i = 0; i < cfg.registers(); i++) {
                regs[i] = down.state().readRegister(0, WbmonPipeline.bitmap(i), id);
                want[i] = ref.bitmap(id, i);
            }
            assertArrayEquals(want, regs, "bitmaps of vconn " + id);
            // upstream: one sequence number per packet that entered the vconn's first link
            Link first = net.topology().link(v.links().get(0));
            int dir = first.a().node() == v.from() ? 0 : 1;
            assertEquals(net.carried(first.id(), dir), d.upstream(id).state().readRegister(0, WbmonPipeline.NEXT_SEQ, id));
            totalDrops += ref.drops(id);
            unregistered += ref.unregistered(id);
        }
        assertTrue(unregistered > 0, "late / clean-instead-of-register paths were exercised");
        assertTrue(totalDrops > 500, "impairments produced drops: " + totalDrops);

        JournalKinds kinds = new JournalKinds();
        WbmonCollector.registerKinds(kinds);
        List<WbmonCollector.VconnCounters> exported;
        try (ExportJournal j = ExportJournal.create(tmp, kinds)) {
            exported = WbmonCollector.export(d, j, net.now());
        }
        assertEquals(exported, WbmonCollector.read(tmp.resolve("journal")));
        assertEquals(ref.drops(2), exported.get(2).drops());
    }

    @Test
    void aHostBehindARegularSwitchIsRefused() {
        TopologyBuilder b = new TopologyBuilder("test:host-in-neighbourhood");
        b.programmableSwitch("m1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("m2", "tofino1", 2, null, KeyValues.EMPTY);
        b.regularSwitch("r1", 3);
        b.host("h1", Ipv4Prefix.parse("10.0.1.1/32"), HostRole.BOTH);
        b.host("h2", Ipv4Prefix.parse("10.0.2.1/32"), HostRole.BOTH);
        b.host("h3", Ipv4Prefix.parse("10.0.3.1/32"), HostRole.BOTH);
        b.link("h1", 1, "m1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("m1", 2, "r1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 2, "m2", 2, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("h2", 1, "m2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("h3", 1, "r1", 3, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        UserError e = assertThrows(UserError.class, () -> WbmonDeployment.build(b.build(), WbmonConfig.defaults(), 1, true));
        assertTrue(e.getMessage().contains("h3"), e.getMessage());
    }

    @Test
    void aPortThatStartsSeveralVconnsIsRefused() {
        Topology t = dev.rmtemu.emulator.topology.TopologySpec.parse("builtin:fattree?k=4&programmable=edge");
        assertThrows(UserError.class, () -> WbmonDeployment.build(t, WbmonConfig.defaults(), 1, true));
    }
}

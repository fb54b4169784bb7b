package dev.rmtemu.programs.wbmon.program;

import dev.rmtemu.programs.wbmon.control.WbmonCollector;
import dev.rmtemu.programs.wbmon.control.WbmonControlPlane;
import dev.rmtemu.programs.wbmon.control.WbmonDeployment;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;

import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.engine.SwitchConfig;
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
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.compiler.TablePlacement;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stage program on tofino1: its layout, and register contents equal to the reference over an impaired chain. */
class WbmonPipelineTest {

    /** The thesis' build (N = 4, W = 32, tws = 2, 256 vconns), compiled for tofino1: accepted, with the layout the class comment gives. */
    @Test
    void thesisBuildIsAcceptedByTheTofino1CompilerInSevenIngressStages() {
        WbmonPipeline p = new WbmonPipeline(WbmonConfig.defaults());
        Compilation c = ProgramCompiler.compile(p.program, TargetProfiles.builtIn("tofino1"));
        assertTrue(c.accepted(), String.join("; ", c.lines()));
        ResourceReport r = c.resources();
        Map<Integer, Integer> ingressAlus = new LinkedHashMap<>();
        int egressAlus = 0;
        for (StageUsage u : r.stages()) {
            if (u.gress() == Gress.INGRESS) {
                ingressAlus.merge(u.stage(), u.statefulAlus(), Integer::sum);
            } else {
                egressAlus += u.statefulAlus();
            }
        }
        assertEquals(2, ingressAlus.get(0), "packets, started");
        assertEquals(1, ingressAlus.get(1), "newest (and the own-bit table)");
        assertEquals(1, ingressAlus.get(2), "slot to clean");
        assertEquals(0, ingressAlus.get(3), "decisions only");
        assertEquals(4, ingressAlus.get(4), "the N = 4 bitmaps");
        assertEquals(0, ingressAlus.get(5), "popcount tables only");
        assertEquals(4, ingressAlus.get(6), "drops, one counter per byte lane");
        for (int stage = 7; stage < 12; stage++) {
            assertEquals(0, ingressAlus.getOrDefault(stage, 0), "stage " + stage + " is free");
        }
        assertEquals(5, c.placements().stream().filter(pl -> pl.gress() == Gress.INGRESS).mapToInt(TablePlacement::stage).max()
                .orElseThrow(), "last table: popcount");
        assertEquals(1, egressAlus, "next sequence number");
    }

    @Test
    void sixteenRegistersSpreadOverFourStagesAndTooManyStagesAreRefused() {
        Compilation c = ProgramCompiler.compile(new WbmonPipeline(new WbmonConfig(256, 16, 32, 4)).program,
                TargetProfiles.builtIn("tofino1"));
        assertTrue(c.accepted(), String.join("; ", c.lines()));
        Compilation big = ProgramCompiler.compile(new WbmonPipeline(new WbmonConfig(256, 32, 32, 4)).program,
                TargetProfiles.builtIn("tofino1"));
        assertFalse(big.accepted(), "32 bitmaps need 8 bitmap stages + 6 others > 12");
        assertTrue(big.lines().stream().anyMatch(l -> l.contains("stage")), String.join("; ", big.lines()));
    }

    @Test
    void aRegisterCountThatIsNotAPowerOfTwoIsRefusedWithTheReason() {
        UserError e = assertThrows(UserError.class, () -> new WbmonConfig(256, 6, 32, 2));
        assertEquals("wbmon: N (registers) must be a power of two, at least 2 (a slot's register is a mask of its number:"
                + " tofino1 has no divider): 6", e.getMessage());
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
        PacketRecord r = PacketRecord.allocate().wireLength(64 + rnd.nextInt(1400)).ipVersion(4).protocol(17)
                .srcIpv4((int) rnd.nextLong()).dstIpv4((int) rnd.nextLong())
                .srcPort(rnd.nextInt(65536)).dstPort(rnd.nextInt(65536));
        long h = ownHeaders(r);
        return r.ipId((int) (h & 0xFFFF)).tcpSeq((int) (h >>> 32));
    }

    /**
     * The IP ID (low 16 bits) and TCP sequence (high 32) a test packet was sent with: a mix of its
     * ports and length as sent (without the WBMon header's bytes a vconn adds on the wire).
     */
    static long ownHeaders(PacketRecord r) {
        int sent = r.wireLength() - (WbmonHeader.present(r) ? WbmonHeader.BYTES : 0);
        return new SplitMix64(((long) r.srcPort() << 32) ^ ((long) r.dstPort() << 16) ^ sent).nextLong();
    }

    /** The packet still carries the IP ID and TCP sequence it was sent with. */
    static boolean ownHeadersIntact(PacketRecord r) {
        long h = ownHeaders(r);
        return r.ipId() == (h & 0xFFFF) && (r.tcpSeq() & 0xFFFFFFFFL) == h >>> 32;
    }

    record Arrival(int node, long cycle, long order, int vconn, long seq) {
    }

    /**
     * Per-vconn drops of the run below, counted while the header still overwrote the IP ID and TCP
     * sequence; vconn 1 was 946 before the window's first-packet flag took a stage of its own (the
     * ingress latency grew, so the impairments' draws met other packets); the IR build's 7 ingress
     * stages keep 947 (an 8-stage draft gave 946).
     */
    static final long[] DROPS_BEFORE_SHIM_HEADER = {962, 947, 602, 648};

    @Test
    void stageProgramEqualsReferenceOnImpairedChain(@TempDir Path tmp) {
        WbmonConfig cfg = new WbmonConfig(16, 4, 32, 2);
        WbmonDeployment d = WbmonDeployment.build(impairedChain(), cfg, 21, true);
        NetworkEngine net = d.network();
        assertEquals(4, d.vconns().size());
        List<Arrival> arrivals = new ArrayList<>();
        long[] touched = {0, 0, 0}; // switch arrivals with rewritten IP ID / TCP seq, vconn arrivals without a header, others with one
        net.onArrival((node, port, cycle, r) -> {
            if (!ownHeadersIntact(r)) {
                touched[0]++;
            }
            for (int id = 0; id < d.vconns().size(); id++) {
                VConn v = d.vconns().get(id);
                if (v.to() == node && v.toPort() == port) {
                    if (!WbmonHeader.present(r)) {
                        touched[1]++;
                        return;
                    }
                    arrivals.add(new Arrival(node, cycle, arrivals.size(), WbmonHeader.vconn(r), WbmonHeader.seq(r)));
                    return;
                }
            }
            if (net.topology().node(node).isProgrammable() && WbmonHeader.present(r)) {
                touched[2]++; // arrived from a host: no WBMon header
            }
        });
        long[] delivered = {0, 0, 0};
        net.onDelivery((host, cycle, r) -> {
            delivered[0]++;
            if (!ownHeadersIntact(r)) {
                delivered[1]++;
            }
            if (WbmonHeader.present(r)) {
                delivered[2]++;
            }
        });
        int n = 30_000;
        for (int i = 0; i < n; i++) {
            net.inject(150L * i, packet(i));
        }
        net.drain();
        net.checkConservation();
        assertEquals(0, touched[0], "switch arrivals whose IP ID / TCP seq were rewritten");
        assertEquals(0, touched[1], "vconn arrivals without a valid WBMon header");
        assertEquals(0, touched[2], "arrivals from hosts with a WBMon header");
        assertTrue(delivered[0] > n / 2, "delivered " + delivered[0]);
        assertEquals(0, delivered[1], "packets reaching a host with a rewritten IP ID / TCP seq");
        assertEquals(0, delivered[2], "packets reaching a host with a WBMon header (the last m-switch removes it)");
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
            assertEquals(ref.drops(id), WbmonPipeline.readDrops(down, cfg, id), "drops " + id);
            assertEquals(DROPS_BEFORE_SHIM_HEADER[id], ref.drops(id), "drops of vconn " + id + " as before the shim header");
            assertEquals(ref.newestRegister(id), down.state().readRegister(0, WbmonPipeline.NEWEST, id));
            assertEquals(ref.newestSlot(id) * cfg.bitsPerRegister(), ref.newestRegister(id));
            assertEquals(ref.toCleanRegister(id), down.state().readRegister(0, WbmonPipeline.TO_CLEAN, id));
            assertEquals((ref.slotToClean(id) + cfg.tolerance()) * cfg.bitsPerRegister(), ref.toCleanRegister(id));
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
        for (int id = 0; id < d.vconns().size(); id++) {
            Link first = net.topology().link(d.vconns().get(id).links().get(0));
            int dir = first.a().node() == d.vconns().get(id).from() ? 0 : 1;
            assertEquals(net.carried(first.id(), dir), exported.get(id).sent(), "sent on vconn " + id);
            assertEquals(ref.packets(id), exported.get(id).packets(), "received on vconn " + id);
        }
    }

    /**
     * One m-switch in the middle of two vconns: a packet arriving on vconn 3 (engine port 0) with
     * sequence 77 leaves on the next vconn (port 1, vconn 5) with a fresh header numbered from 0,
     * or towards a host (port 2) with the header removed; its IP ID and TCP sequence leave unchanged.
     */
    @Test
    void theDownstreamConsumesTheHeaderAndTheUpstreamWritesTheNextVconnsOrRemovesIt() {
        WbmonConfig cfg = new WbmonConfig(8, 4, 32, 2);
        WbmonPipeline p = new WbmonPipeline(cfg);
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p.program, 4,
                PortConfig.strictPriority(100), true));
        WbmonPipeline.addIncomingPort(e.state(), 0);
        WbmonPipeline.addOutgoingPort(e.state(), 1, 5);
        e.forwarding((in, rec) -> rec.dstPort());
        List<long[]> out = new ArrayList<>(); // port, header present, vconn, seq, ip id, tcp seq, wire length
        e.onDeparture((cycle, port, slot, pool) -> {
            PacketRecord d = pool.record(slot);
            boolean h = WbmonHeader.present(d);
            out.add(new long[] {port, h ? 1 : 0, h ? WbmonHeader.vconn(d) : -1, h ? WbmonHeader.seq(d) : -1, d.ipId(),
                d.tcpSeq() & 0xFFFFFFFFL, d.wireLength()});
        });
        int[] toPort = {1, 2, 1, 2};
        for (int i = 0; i < toPort.length; i++) {
            PacketRecord r = PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).srcIpv4(1).dstIpv4(2)
                    .srcPort(1000).dstPort(toPort[i]).ipId(0x1234 + i).tcpSeq(0xCAFE0000 + i);
            WbmonHeader.push(r, 3, 77 + i);
            e.arrive(1000L * (i + 1), 0, r);
        }
        e.drain();
        assertEquals(4, out.size());
        long nextSeq = 0;
        for (int i = 0; i < out.size(); i++) {
            long[] o = out.get(i);
            assertEquals(toPort[i], o[0]);
            if (toPort[i] == 1) {
                assertArrayEquals(new long[] {1, 5, nextSeq++}, Arrays.copyOfRange(o, 1, 4), "header of packet " + i);
                assertEquals(100 + WbmonHeader.BYTES, o[6], "the header's 8 bytes stay on the wire");
            } else {
                assertEquals(0, o[1], "header removed for the host, packet " + i);
                assertEquals(100, o[6], "the frame as it was sent, packet " + i);
            }
            assertEquals(0x1234 + i, o[4], "IP ID of packet " + i);
            assertEquals(0xCAFE0000L + i, o[5], "TCP seq of packet " + i);
        }
        assertEquals(4, e.state().readRegister(0, WbmonPipeline.PACKETS, 3), "vconn 3's packets, counted by the downstream");
        assertEquals(64, e.state().readRegister(0, WbmonPipeline.NEWEST, 3), "newest slot's base from sequence 77..80");
        assertEquals(0, e.state().readRegister(0, WbmonPipeline.PACKETS, 5), "the outgoing vconn is not counted here");
        assertEquals(2, e.state().readRegister(0, WbmonPipeline.NEXT_SEQ, 5));
    }

    /**
     * A vconn's sequence number wraps past 2^32 (the 32-bit header field and the upstream's
     * {@code wbmon_next_seq}; WBMon dissertation Section 4.2): the upstream's numbers go on from 0
     * and the downstream window goes on detecting. One m-switch numbers a vconn from 2^32 − 320
     * (its register written by the control plane), a lossy, reordering link feeds its packets back
     * into the switch's own downstream window, and the drop counter must equal the packets lost in
     * the judged range, which ends past the wrap — as the reference counts it.
     */
    @Test
    void detectionGoesOnAcrossTheSequenceWrap() {
        WbmonConfig cfg = new WbmonConfig(8, 4, 32, 2);
        WbmonPipeline p = new WbmonPipeline(cfg);
        SwitchEngine up = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p.program, 4,
                PortConfig.strictPriority(100), true));
        SwitchEngine down = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p.program, 4,
                PortConfig.strictPriority(100), true));
        long mask = (1L << WbmonConfig.SEQ_BITS) - 1;
        long first = mask + 1 - 320; // a slot boundary: the window starts at the first packet's slot
        WbmonPipeline.addOutgoingPort(up.state(), 1, 3);
        up.state().writeRegister(0, WbmonPipeline.NEXT_SEQ, 3, first, 0);
        WbmonPipeline.addIncomingPort(down.state(), 0);
        up.forwarding((in, rec) -> 1);
        down.forwarding((in, rec) -> 2);
        List<PacketRecord> stamped = new ArrayList<>();
        up.onDeparture((cycle, port, slot, pool) -> stamped.add(PacketRecord.allocate().copyFrom(pool.record(slot))));
        down.onDeparture((cycle, port, slot, pool) -> { });
        PacketRecord r = PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).srcIpv4(1).dstIpv4(2);
        int n = 1_500;
        for (int i = 0; i < n; i++) {
            up.arrive(1000L * (i + 1), 2, r);
        }
        up.drain();
        assertEquals(n, stamped.size());
        assertEquals((first + n) & mask, up.state().readRegister(0, WbmonPipeline.NEXT_SEQ, 3), "numbering wrapped");
        // the link: every 31st packet lost, every 17th swapped with the next one
        List<PacketRecord> arriving = new ArrayList<>();
        java.util.BitSet lost = new java.util.BitSet();
        for (int i = 0; i < n; i++) {
            if (i % 31 == 5) {
                lost.set(i);
            } else {
                arriving.add(stamped.get(i));
            }
        }
        for (int i = 0; i + 1 < arriving.size(); i += 17) {
            PacketRecord x = arriving.get(i);
            arriving.set(i, arriving.get(i + 1));
            arriving.set(i + 1, x);
        }
        WindowMonitor ref = new WindowMonitor(cfg);
        for (int i = 0; i < arriving.size(); i++) {
            down.arrive(1000L * (i + 1), 0, arriving.get(i));
            ref.receive(3, WbmonHeader.seq(arriving.get(i)));
        }
        down.drain();
        long judged = ref.judgedBelow(3);
        assertTrue(judged > 1_000 && judged < 2_000, "judged up to sequence " + judged + ", past the wrap");
        int judgedPackets = (int) ((judged - first) & mask);
        long lostJudged = lost.get(0, judgedPackets).cardinality();
        assertTrue(lostJudged > 40, "losses judged: " + lostJudged);
        assertEquals(lostJudged, ref.drops(3), "reference drops");
        assertEquals(lostJudged, WbmonPipeline.readDrops(down, cfg, 3), "stage program drops");
        assertEquals(ref.newestRegister(3), down.state().readRegister(0, WbmonPipeline.NEWEST, 3));
        assertEquals(ref.toCleanRegister(3), down.state().readRegister(0, WbmonPipeline.TO_CLEAN, 3));
    }

    @Test
    void aPacketWithoutAValidHeaderIsNotCountedEvenOnAVconnPort() {
        WbmonPipeline p = new WbmonPipeline(new WbmonConfig(8, 4, 32, 2));
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TargetProfiles.builtIn("tofino1"), p.program, 4,
                PortConfig.strictPriority(100), true));
        WbmonPipeline.addIncomingPort(e.state(), 0);
        e.forwarding((in, rec) -> 2);
        PacketRecord r = PacketRecord.allocate().wireLength(100).ipVersion(4).protocol(17).srcIpv4(1).dstIpv4(2);
        // vconn 3 and sequence 77 in the frame's bytes after Ethernet, but Ethernet announces IPv4: no header
        PacketRecord without = PacketRecord.allocate().copyFrom(r);
        WbmonHeader.push(without, 3, 77);
        byte[] f = without.frameBytes();
        f[12] = 0x08;
        f[13] = 0x00;
        without.putFrame(f, 0, f.length);
        e.arrive(1000, 0, without);
        WbmonHeader.push(r, 3, 78);
        e.arrive(2000, 0, r);
        e.drain();
        assertEquals(1, e.state().readRegister(0, WbmonPipeline.PACKETS, 3));
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

    /** h1 – m1 – r1 – {r2, r3} – r4 – m2 – h2: r1 splits m1's traffic by ECMP over two vconns; 5 % loss on r2→r4 only. */
    static Topology diamond() {
        TopologyBuilder b = new TopologyBuilder("test:wbmon-ecmp-diamond");
        b.programmableSwitch("m1", "tofino1", 2, null, KeyValues.EMPTY);
        b.programmableSwitch("m2", "tofino1", 2, null, KeyValues.EMPTY);
        b.regularSwitch("r1", 3);
        b.regularSwitch("r2", 2);
        b.regularSwitch("r3", 2);
        b.regularSwitch("r4", 3);
        b.host("h1", Ipv4Prefix.parse("10.0.1.0/24"), HostRole.SOURCE);
        b.host("h2", Ipv4Prefix.parse("10.0.2.0/24"), HostRole.SINK);
        KeyValues lossy = KeyValues.of(Map.of("loss", "bernoulli:0.05"));
        b.link("h1", 1, "m1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("m1", 2, "r1", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 2, "r2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r1", 3, "r3", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r2", 2, "r4", 1, true, 1000, 100, lossy, KeyValues.EMPTY);
        b.link("r3", 2, "r4", 2, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("r4", 3, "m2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        b.link("m2", 2, "h2", 1, true, 1000, 100, KeyValues.EMPTY, KeyValues.EMPTY);
        return b.build();
    }

    /**
     * ECMP vconns (issue 19): r1 splits the traffic m1 sends on one port over two vconns. The
     * control plane marks the port and lists each flow's vconn (from the forwarding rules it
     * knows), so m1 numbers the two paths apart and m2's windows count the lossy branch's drops
     * and none on the healthy one. Before, the control plane refused the topology; without the
     * flow entries the packets would leave unnumbered.
     */
    @Test
    void ecmpVconnsAreNumberedPerPathFromTheFlowTable() {
        Topology t = diamond();
        WbmonConfig cfg = new WbmonConfig(4, 4, 32, 2);
        List<PacketRecord> trace = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            trace.add(packet(i % 400));
        }
        WbmonControlPlane bare = WbmonControlPlane.of(t, cfg);
        assertTrue(bare.hasEcmpPorts());
        assertEquals(2, bare.vconns().size(), "m1 to m2 via r2 and via r3");
        WbmonDeployment d = WbmonDeployment.build(t, cfg, 5, true, trace);
        long flowEntries = WbmonControlPlane.of(t, cfg).withFlows(trace).entries().stream()
                .filter(e -> e.table().equals(WbmonPipeline.FLOWS_OUT)).count();
        assertTrue(flowEntries > 100 && flowEntries <= 400, "one entry per flow: " + flowEntries);
        NetworkEngine net = d.network();
        for (int i = 0; i < trace.size(); i++) {
            net.inject(150L * i, trace.get(i));
        }
        net.drain();
        int lossyBranch = -1;
        for (int id = 0; id < 2; id++) {
            if (d.vconns().get(id).nodes().contains(t.node("r2").index())) {
                lossyBranch = id;
            }
        }
        long[] sent = new long[2];
        long[] received = new long[2];
        long[] drops = new long[2];
        for (int id = 0; id < 2; id++) {
            sent[id] = WbmonPipeline.readAllPipes(d.upstream(id), WbmonPipeline.NEXT_SEQ, id);
            received[id] = WbmonPipeline.readAllPipes(d.downstream(id), WbmonPipeline.PACKETS, id);
            drops[id] = WbmonPipeline.readDrops(d.downstream(id), cfg, id);
            assertTrue(sent[id] > 2_500, "vconn " + id + " numbered " + sent[id]);
        }
        assertEquals(trace.size(), sent[0] + sent[1], "every packet numbered on one of the two vconns");
        int healthy = 1 - lossyBranch;
        assertEquals(sent[healthy], received[healthy], "nothing lost via r3");
        assertEquals(0, drops[healthy], "no drop counted on the healthy vconn");
        long lost = sent[lossyBranch] - received[lossyBranch];
        assertTrue(lost > 150, "lost via r2: " + lost);
        // every loss but those in the last slots (not yet cleaned) is counted, and nothing more
        assertTrue(drops[lossyBranch] <= lost && drops[lossyBranch] >= lost - 3L * cfg.bitsPerRegister(),
                "drops " + drops[lossyBranch] + " of " + lost + " lost");

        WbmonDeployment unlisted = WbmonDeployment.build(t, cfg, 5, true);
        for (int i = 0; i < 1_000; i++) {
            unlisted.network().inject(150L * i, trace.get(i));
        }
        unlisted.network().drain();
        assertEquals(0, WbmonPipeline.readAllPipes(unlisted.upstream(0), WbmonPipeline.NEXT_SEQ, 0)
                + WbmonPipeline.readAllPipes(unlisted.upstream(1), WbmonPipeline.NEXT_SEQ, 1), "flows not listed are not numbered");
    }
}

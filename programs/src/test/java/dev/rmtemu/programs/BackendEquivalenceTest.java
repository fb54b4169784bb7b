package dev.rmtemu.programs;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.examples.L2FwdProgram;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.programs.midst.program.MidstProgram;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.wbmon.program.WbmonConfig;
import dev.rmtemu.programs.wbmon.control.WbmonDeployment;
import dev.rmtemu.programs.wbmon.program.WbmonHeader;
import dev.rmtemu.programs.wbmon.program.WbmonPipeline;
import dev.rmtemu.programs.wbmon.reference.WindowMonitor;
import dev.rmtemu.traces.HostMac;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole switches on the two back ends of the IR: the generated class and the
 * interpreter (every run-time rule enforced) give the same departures (cycle,
 * port, packet), the same drops and the same register contents in every pipe,
 * on a random trace over all ports (so every pipe runs) into congested ports.
 */
class BackendEquivalenceTest {
    private static final int PACKETS = 20_000;
    /** Destination addresses the l2fwd entries cover; others miss and drop. */
    private static final int ROUTED = 24;
    private static final long MIDST_PROBE_CYCLES = 1_000;
    private static final long MIDST_PROBES = 3_000;

    @ParameterizedTest(name = "{0} {1} on {2}")
    @CsvSource(delimiter = ';', value = {
        "counter;;tofino1",
        "counter;cells=1000;unconstrained",
        "l2fwd;;tofino1",
        "hashpipe;;tofino1",
        "hashpipe;key=srcip,count=bytes,stages=3,counters=96;tofino1",
        "hashpipe;key=5tuple,counters=300,stages=5;unconstrained",
        "midst;;tofino1",
        "midst;rows=4,columns=1024,dirty_words=0;tofino1",
        "midst;rows=3,columns=40960;unconstrained",
        "lds;;tofino1",
        "lds;sampling=0.3,weights=1/32/2048,paths=2,priority=0.3,interval_shift=12;tofino1",
        "lds;role=receiver,paths=2,priority=0.5,cells=1024,k=3;tofino1",
        "lds;role=sender,cells=1000,k=7,sampling=0.5,paths=3,interval_shift=12;unconstrained",
        "lossradar;;tofino1",
        "lossradar;ttl_bit=1,syn_bit=1,timestamp=1,ttl_norm=1,batch_shift=14,timeout_us=5;tofino1",
        "lossradar;meters=3,meter_id=2,ports=3,batch_shift=14,timeout_us=5;tofino1",
        "lossradar-um;route=1,ports=16,batch_shift=14,timeout_us=5;tofino1",
        "lossradar;cells=30,ports=5,batch_shift=14,timeout_us=5;unconstrained",
    })
    void compiledEqualsInterpreter(String program, String params, String target) {
        Map<String, String> p = new LinkedHashMap<>();
        if (params != null) {
            for (String kv : params.split(",")) {
                p.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        TargetProfile profile = TargetProfiles.builtIn(target);
        StageProgram prog = ProgramPlugins.registry().build(program, p);
        SwitchConfig cfg = new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile), PortConfig.strictPriority(40), true);
        Run compiled = run(cfg.withBackend(Backend.COMPILED));
        Run interpreted = run(cfg.withBackend(Backend.INTERPRETER));
        assertTrue(compiled.departures.size() > PACKETS / 10, "packets leave");
        assertEquals(interpreted.departures, compiled.departures);
        assertEquals(interpreted.dropped, compiled.dropped);
        if (program.equals(MidstProgram.NAME)) {
            // the runs went through the paths that matter: monitoring started and stopped, and cleaning
            // in the data plane ran to the end (both clean pointers back at 0)
            var state = compiled.engine.state();
            assertTrue(state.readRegister(0, MidstPipeline.EPOCH, 0) >= 1, "monitoring started");
            assertEquals(0, state.readRegister(0, MidstPipeline.MONITOR, 0), "monitoring stopped");
            assertEquals(0, state.readRegister(0, MidstPipeline.IN_CLEAN, 0), "ingress cleaning finished");
            assertEquals(0, state.readRegister(0, MidstPipeline.OUT_CLEAN, 0), "egress cleaning finished");
            boolean dirtyWords = !"0".equals(p.get("dirty_words"));
            long counted = 0;
            for (int row = 0; row < Integer.parseInt(p.getOrDefault("rows", "2")); row++) {
                counted += Arrays.stream(state.snapshot(0, MidstPipeline.inCount(row))).sum();
                if (dirtyWords) {
                    assertEquals(0, Arrays.stream(state.snapshot(0, MidstPipeline.inDirty(row))).sum(), "S_in row " + row + " clean");
                    assertEquals(0, Arrays.stream(state.snapshot(0, MidstPipeline.outDirty(row))).sum(), "S_out row " + row + " clean");
                }
            }
            // with dirty words the counters keep their (stale) values; without, cleaning zeroed them
            assertEquals(dirtyWords, counted > 0, "counters after cleaning: " + counted);
        }
        for (RegisterArray r : prog.registers()) {
            for (int pipe = 0; pipe < profile.pipes(); pipe++) {
                assertArrayEquals(interpreted.engine.state().snapshot(pipe, r.name()), compiled.engine.state().snapshot(pipe, r.name()),
                        r.name() + " pipe " + pipe);
                if (r.pair()) {
                    assertArrayEquals(interpreted.engine.state().snapshotHi(pipe, r.name()),
                            compiled.engine.state().snapshotHi(pipe, r.name()), r.name() + " hi, pipe " + pipe);
                }
            }
        }
    }

    private record Run(SwitchEngine engine, List<Long> departures, long dropped) {
    }

    private static Run run(SwitchConfig cfg) {
        SwitchEngine e = new SwitchEngine(cfg);
        int ports = cfg.frontPanelPorts();
        if (cfg.program().name().equals(L2FwdProgram.NAME)) {
            for (int d = 0; d < ROUTED; d++) {
                // the destination host's MAC (the frames carry the host map's MACs)
                e.state().addExact("l2_fwd", new long[] {HostMac.ofIpv4(0xC0A80000 | d)}, L2FwdProgram.ACTION_FORWARD,
                        d % ports);
            }
        }
        if (cfg.program().name().startsWith("lossradar")) {
            lossRadarEntries(e, ports);
        }
        List<Long> departures = new ArrayList<>();
        if (cfg.program().name().equals(MidstProgram.NAME)) {
            // probes every 1,000 cycles over the run and the drain: monitoring starts on the congested
            // port, stops when it drains, and the sketches are cleaned in the data plane
            e.packetGenerator(0, 1, MIDST_PROBE_CYCLES, MIDST_PROBES, MidstSwitch::probeTemplate);
        }
        e.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add(pool.packetNumber(slot));
        });
        SplitMix64 rnd = new SplitMix64(11);
        PacketRecord r = PacketRecord.allocate();
        long cycle = e.now() + 1;
        for (int i = 0; i < PACKETS; i++) {
            int flow = (int) (Math.pow(rnd.nextDouble(), 3) * 500);
            r.ipVersion(4).srcIpv4(0x0A000000 | flow).dstIpv4(0xC0A80000 | (flow % (ROUTED + 8)))
                    .protocol(flow % 3 == 0 ? 17 : 6).srcPort(1000 + flow).dstPort(80 + flow % 5)
                    .ipId(i & 0xFFFF).ttl(64 - flow % 3).tcpFlags(flow % 4 == 0 ? PacketRecord.TCP_SYN : 0)
                    .wireLength(64 + (int) (rnd.nextDouble() * 1400));
            cycle += (long) (rnd.nextDouble() * 40);
            e.arrive(cycle, (int) (rnd.nextDouble() * ports), r);
        }
        e.drain();
        return new Run(e, departures, e.counters().droppedTotal());
    }

    /** LossRadar's ACL denies one destination; its routes spread the routed destinations over ECMP groups of 1 to 3 ports. */
    private static void lossRadarEntries(SwitchEngine e, int ports) {
        if (e.config().program().tables().stream().anyMatch(t -> t.name().equals(LossRadarProgram.ACL_TABLE))) {
            e.state().addTernary(LossRadarProgram.ACL_TABLE, new long[] {0xC0A80003L, 0}, new long[] {0xFFFFFFFFL, 0}, 1,
                    LossRadarProgram.ACL_DENY, 0);
        }
        if (e.config().program().tables().stream().anyMatch(t -> t.name().equals(LossRadarProgram.ROUTE_TABLE))) {
            for (int d = 0; d < ROUTED; d++) {
                int[] group = new int[1 + d % 3];
                for (int i = 0; i < group.length; i++) {
                    group[i] = (d + 5 * i) % ports;
                }
                LossRadarProgram.installRoute(e.state(), 0xC0A80000 | d, 32, group);
            }
        }
    }

    /**
     * WBMon on both back ends, fed frames with WBMon headers on a random trace: per tracked vconn a sequence
     * from a random start (some across the 2^32 wrap) with losses, drop bursts and reordering,
     * plus packets without a valid header, of untracked vconns and on ports where no vconn ends.
     * Both back ends give the same departures (with the WBMon header each writes on the wire and the wire length) and registers, and the
     * registers equal the plain-Java window ({@link WindowMonitor}) fed the counted packets.
     */
    @ParameterizedTest(name = "wbmon {0} on {1}")
    @CsvSource(delimiter = ';', value = {
        "vconns=16;tofino1",
        "vconns=12,registers=8,bits=16,tolerance=3;tofino1",
        "vconns=10,registers=2,bits=8,tolerance=1;unconstrained",
    })
    void wbmonCompiledEqualsInterpreterAndTheWindowReference(String params, String target) {
        Map<String, String> p = new LinkedHashMap<>(WbmonDeployment.programParams(WbmonConfig.defaults()));
        for (String kv : params.split(",")) {
            p.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
        }
        TargetProfile profile = TargetProfiles.builtIn(target);
        WbmonPipeline pipeline = new WbmonPipeline(new WbmonConfig(Integer.parseInt(p.get("vconns")),
                Integer.parseInt(p.get("registers")), Integer.parseInt(p.get("bits")), Integer.parseInt(p.get("tolerance"))));
        WbmonConfig wc = pipeline.config;
        SwitchConfig cfg = new SwitchConfig(profile, pipeline.program, SwitchConfig.defaultPorts(profile),
                PortConfig.strictPriority(40), true);
        int ports = cfg.frontPanelPorts();
        WbmonTrace trace = WbmonTrace.random(wc.vconns(), ports, 23);
        WbmonRun compiled = wbmonRun(cfg.withBackend(Backend.COMPILED), pipeline, trace);
        WbmonRun interpreted = wbmonRun(cfg.withBackend(Backend.INTERPRETER), pipeline, trace);
        assertTrue(compiled.departures.size() > PACKETS, "packets leave");
        assertEquals(interpreted.departures, compiled.departures);
        for (RegisterArray r : pipeline.program.registers()) {
            for (int pipe = 0; pipe < profile.pipes(); pipe++) {
                assertArrayEquals(interpreted.engine.state().snapshot(pipe, r.name()), compiled.engine.state().snapshot(pipe, r.name()),
                        r.name() + " pipe " + pipe);
            }
        }
        WindowMonitor ref = new WindowMonitor(wc);
        for (int i = 0; i < trace.size(); i++) {
            if (trace.counted(i)) {
                ref.receive(trace.vconn[i], trace.seq[i]);
            }
        }
        SwitchEngine e = compiled.engine;
        long drops = 0;
        for (int v = 0; v < wc.vconns(); v++) {
            assertEquals(ref.packets(v), WbmonPipeline.readAllPipes(e, WbmonPipeline.PACKETS, v), "packets of vconn " + v);
            assertEquals(ref.drops(v), WbmonPipeline.readDrops(e, wc, v), "drops of vconn " + v);
            assertEquals(ref.newestRegister(v), WbmonPipeline.readAllPipes(e, WbmonPipeline.NEWEST, v), "newest of vconn " + v);
            assertEquals(ref.toCleanRegister(v), WbmonPipeline.readAllPipes(e, WbmonPipeline.TO_CLEAN, v), "to clean of vconn " + v);
            for (int i = 0; i < wc.registers(); i++) {
                assertEquals(ref.bitmap(v, i), WbmonPipeline.readAllPipes(e, WbmonPipeline.bitmap(i), v), "bitmap " + i + " of vconn " + v);
            }
            drops += ref.drops(v);
        }
        assertTrue(drops > 200, "the trace's losses are detected: " + drops);
    }

    private record WbmonRun(SwitchEngine engine, List<Long> departures) {
    }

    private static WbmonRun wbmonRun(SwitchConfig cfg, WbmonPipeline pipeline, WbmonTrace trace) {
        SwitchEngine e = new SwitchEngine(cfg);
        int ports = cfg.frontPanelPorts();
        for (int port = 0; port < ports / 2; port++) {
            if (port != WbmonTrace.NOT_A_VCONN_PORT) {
                WbmonPipeline.addIncomingPort(e.state(), port);
            }
        }
        for (int port = ports / 2; port < ports - 1; port++) {
            WbmonPipeline.addOutgoingPort(e.state(), port, port % pipeline.config.vconns());
        }
        e.forwarding((in, rec) -> rec.dstPort());
        List<Long> departures = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            departures.add(cycle);
            departures.add((long) port);
            departures.add(pool.packetNumber(slot));
            PacketRecord d = pool.record(slot);
            // the header the egress wrote (or its absence), as the next hop would parse it
            departures.add(WbmonHeader.present(d) ? (long) WbmonHeader.vconn(d) << 32 | WbmonHeader.seq(d) : -1L);
            departures.add((long) d.wireLength());
        });
        PacketRecord r = PacketRecord.allocate();
        long cycle = e.now() + 1;
        for (int i = 0; i < trace.size(); i++) {
            r.clear();
            r.ipVersion(4).srcIpv4(0x0A000001).dstIpv4(0x0A000002).protocol(17).srcPort(1000)
                    .dstPort(ports / 2 + trace.outPort[i]).wireLength(64 + trace.outPort[i] * 40);
            if (trace.valid[i]) {
                WbmonHeader.push(r, trace.vconn[i], trace.seq[i]);
            }
            cycle += 30;
            e.arrive(cycle, trace.inPort[i], r);
        }
        e.drain();
        return new WbmonRun(e, departures);
    }

    /** A random WBMon arrival sequence over one switch's ports (see the test above). */
    private static final class WbmonTrace {
        /** The one ingress port with no incoming-vconn entry. */
        static final int NOT_A_VCONN_PORT = 3;
        final int[] vconn = new int[PACKETS];
        final long[] seq = new long[PACKETS];
        final boolean[] valid = new boolean[PACKETS];
        final int[] inPort = new int[PACKETS];
        final int[] outPort = new int[PACKETS];
        private final int vconns;

        private WbmonTrace(int vconns) {
            this.vconns = vconns;
        }

        static WbmonTrace random(int vconns, int ports, long seed) {
            SplitMix64 rnd = new SplitMix64(seed);
            WbmonTrace t = new WbmonTrace(vconns);
            long mask = (1L << WbmonConfig.SEQ_BITS) - 1;
            int ids = vconns + 2; // two untracked ids
            long[] next = new long[ids];
            for (int v = 0; v < ids; v++) {
                next[v] = v % 3 == 0 ? mask + 1 - 64L * (v + 1) - v : rnd.nextLong() & mask; // some wrap during the trace
            }
            for (int i = 0; i < PACKETS; i++) {
                int v = (int) (rnd.nextDouble() * ids);
                double u = rnd.nextDouble();
                if (u < 0.002) {
                    next[v] += 40 + (long) (rnd.nextDouble() * 300); // a drop burst
                } else if (u < 0.05) {
                    next[v]++; // one loss
                }
                t.vconn[i] = v;
                t.seq[i] = next[v]++ & mask;
                t.valid[i] = rnd.nextDouble() >= 0.02;
                // each vconn ends on its own port (its window lives in that port's pipe)
                t.inPort[i] = rnd.nextDouble() < 0.01 ? NOT_A_VCONN_PORT : v == NOT_A_VCONN_PORT ? ports / 2 - 1 : v % (ports / 2);
                t.outPort[i] = (int) (rnd.nextDouble() * (ports / 2));
            }
            for (int i = 1; i < PACKETS; i++) { // reordering: a packet overtakes up to 40 earlier ones
                if (rnd.nextDouble() < 0.03) {
                    int j = Math.max(0, i - 1 - (int) (rnd.nextDouble() * 40));
                    t.swap(i, j);
                }
            }
            return t;
        }

        private void swap(int i, int j) {
            int v = vconn[i];
            long s = seq[i];
            boolean ok = valid[i];
            int in = inPort[i];
            vconn[i] = vconn[j];
            seq[i] = seq[j];
            valid[i] = valid[j];
            inPort[i] = inPort[j];
            vconn[j] = v;
            seq[j] = s;
            valid[j] = ok;
            inPort[j] = in;
        }

        int size() {
            return PACKETS;
        }

        /** The downstream window counts it: a valid header of a tracked vconn on a port where a vconn ends. */
        boolean counted(int i) {
            return valid[i] && vconn[i] < vconns && inPort[i] != NOT_A_VCONN_PORT;
        }
    }
}

package dev.rmtemu.programs;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.examples.L2FwdProgram;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.Backend;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.programs.lossradar.LossRadarProgram;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
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

    @ParameterizedTest(name = "{0} {1} on {2}")
    @CsvSource(delimiter = ';', value = {
        "counter;;tofino1",
        "counter;cells=1000;unconstrained",
        "l2fwd;;tofino1",
        "hashpipe;;tofino1",
        "hashpipe;key=srcip,count=bytes,stages=3,counters=96;tofino1",
        "hashpipe;key=5tuple,counters=300,stages=5;unconstrained",
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
        StageProgram prog = new ProgramRegistry().build(program, p);
        SwitchConfig cfg = new SwitchConfig(profile, prog, SwitchConfig.defaultPorts(profile), PortConfig.strictPriority(40), true);
        Run compiled = run(cfg.withBackend(Backend.COMPILED));
        Run interpreted = run(cfg.withBackend(Backend.INTERPRETER));
        assertTrue(compiled.departures.size() > PACKETS / 10, "packets leave");
        assertEquals(interpreted.departures, compiled.departures);
        assertEquals(interpreted.dropped, compiled.dropped);
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
                e.state().addExact("l2_fwd", new long[] {0xC0A80000L | d}, L2FwdProgram.ACTION_FORWARD, d % ports);
            }
        }
        if (cfg.program().name().startsWith("lossradar")) {
            lossRadarEntries(e, ports);
        }
        List<Long> departures = new ArrayList<>();
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
}

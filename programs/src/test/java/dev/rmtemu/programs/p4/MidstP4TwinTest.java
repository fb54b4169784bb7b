package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.StageUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstHeaders;
import dev.rmtemu.programs.midst.program.MidstPipeline;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/midst.p4} against its Java IR twin {@code midst} with its defaults (2 rows of
 * 32,768 counters, dirty words, h = 1,250 / l = 125 cells, data to port 1, reports to port 2). The
 * seeded trace sends three bursts of 4,000 TCP and UDP packets (64 flows, skewed) from ports 3..10
 * into port 1 faster than it drains, each followed by a quiet spell of 600; pipe 0's packet
 * generator sends a probe every 2,000 cycles, so monitoring starts and stops once per burst and the
 * probes clean both sketches between bursts (recirculating with the cleaner token). Both give the
 * same departures (cycle, port, packet) and drops, and the same registers in every pipe: the
 * monitor flag, epoch, both clean pointers, the queue depth, the token, and each sketch's dirty
 * words and counters.
 *
 * <p>The ingress-to-egress fields travel in the bridged header {@code midst_br_h} (29 bytes with 4
 * bits of padding, as the IR's 228 bridged bits round up to): emitted first by the ingress
 * deparser, extracted first by the egress parser, and never on the wire.
 *
 * <p>Resources: the same per-stage memories, stateful ALUs, hash bits and logical tables (the P4
 * placement puts the sketches where MidstPipeline puts them by hand, with {@code @stage} on the
 * egress arrays so that egress keeps its state out of the physical stages ingress fills, as the
 * IR's comment says), except ingress stage 0: the IR
 * compares a returning probe's depth with the water marks on a second stateful ALU, on the scratch
 * array {@code midst_depth_cmp} whose predicate output is the verdict (2 more RAMs, 1 more stateful
 * ALU and logical table); rmtemu's P4 front end has no {@code RegisterAction.predicate()}, so the P4
 * program caps the depth with two VLIW instructions instead (min(depth, h) == h, max(depth, l) !=
 * depth), and the IR's scratch cell is never written.
 *
 * Gateways differ: 34 in ingress and 28 in egress for the IR, 41 and 46 for P4. The IR evaluates
 * each condition in the stage it is written for; rmtemu's placement puts a gateway in the earliest
 * stage its condition allows and evaluates it again in every later stage where an element it
 * controls sits (PlacedStages.project): the four {@code if (hdr.br.counted == 1)} around egress's
 * dirty words, counters and differences are placed in egress stage 0 (the bridged bit is there
 * from the start) and repeat in each stage up to the one they gate (2 to 5). The placement fits (at most 13 gateways in a stage
 * of a gress, 16 per physical stage), and the program's behaviour is the same; the P4 program
 * tests the position's high bits through a copy made in stage 1 so that those gateways sit in
 * stage 2, as the IR's do, where placing them in stage 1 would leave egress no gateway there.
 *
 * <p>Latency: egress is 160 cycles in both (tofino1's minimum; neither reaches it). Ingress takes
 * 156 cycles in the IR and 138 in P4: MidstPipeline declares each hand-placed stage
 * match-dependent on the one before (ProgramBuilder.StageBuilder's default), and rmtemu's placement
 * labels each P4 stage by its elements' dependencies, as p4c's DependencyGraph::find_mau_dependency
 * does: stage 6 only computes min(u_0, u_1) from stage 5's outputs in an instruction, an action
 * dependency (2 cycles, not 20). Unlike LossRadar's, MIDST's departures would not just shift by the
 * difference: a probe returns to ingress through the recirculation port and flips the monitor flag
 * there, so 18 cycles move the flip against the data packets entering beside it and change which
 * ones are counted (on tofino1 the IR drops 1,118 packets and P4 1,120). The traffic is therefore
 * compared on tofino1 with the ingress pipeline taking at least the IR's 156 cycles (the profile's
 * minimum, as egress has one), which pads only the P4 program's ingress.
 *
 * <p>The frames are untagged IPv4 with TCP or UDP: the P4 program parses Ethernet, the probe and
 * report headers, IPv4 and the first four bytes of TCP or UDP (the 5-tuple's ports), where the IR
 * twin's default parse graph also reads VLAN tags, IPv6 and ICMP. Both flag the same packets with the
 * same flags and loss estimates (the report header egress adds, read from the departing frames).
 */
class MidstP4TwinTest {
    private static final int FLOWS = 64;
    private static final int BURSTS = 3;
    private static final int BURST_PACKETS = 4_000;
    /** Mean gap within a burst: about 31 cycles, against about 75 for port 1 to send one of these frames at 40 Gb/s. */
    private static final int BURST_GAP_CYCLES = 60;
    private static final int QUIET_PACKETS = 600;
    private static final int QUIET_GAP_CYCLES = 1_000;
    private static final long PROBE_PERIOD_CYCLES = 2_000;
    /** Data packets egress flags (heavy loser, bursty flow or both) in the three epochs. */
    private static final int FLAGGED = 2_163;

    @Test
    void theP4MidstCountsMonitorsAndCleansAsTheIrMidst() {
        StageProgram ir = new MidstPipeline(MidstConfig.defaults()).program;
        StageProgram p4 = P4Twins.compile("midst.p4");

        assertEquals(29, ir.bridgedBytes(), "the IR's 228 bridged bits");
        assertEquals(29, p4.bridgedBytes(), "midst_br_h, 228 bits and 4 of padding");
        List<String> irUse = P4Twins.stageUse(ir);
        List<String> p4Use = P4Twins.stageUse(p4);
        assertEquals("ingress stage 0: sram 4, tcam 0, salus 2, hash bits 64, logical tables 2, gateways 0, map rams 4, stats alus 0",
                irUse.get(0), "the IR's stage 0: the monitor flag and the depth comparator");
        assertEquals("ingress stage 0: sram 2, tcam 0, salus 1, hash bits 64, logical tables 1, gateways 0, map rams 2, stats alus 0",
                p4Use.get(0), "P4's stage 0: the monitor flag");
        assertEquals(irUse.subList(1, irUse.size() - 1), p4Use.subList(1, p4Use.size() - 1), "every other stage's use");
        assertEquals("latency {INGRESS=156, EGRESS=160}", irUse.get(irUse.size() - 1), "stages 0-6 declared match-dependent");
        assertEquals("latency {INGRESS=138, EGRESS=160}", p4Use.get(p4Use.size() - 1), "stage 6 action-dependent");

        assertEquals(List.of(34, 28), gateways(ProgramCompiler.compile(ir, P4Twins.TOFINO1).requireAccepted().resources()),
                "the IR's gateways, ingress and egress");
        assertEquals(List.of(41, 46), gateways(ProgramCompiler.compile(P4Programs.text("midst.p4", P4Twins.source("midst.p4"),
                PreprocessorOptions.defaults()).require(), P4Twins.TOFINO1).requireAccepted().resources()), "P4's gateways");

        int irIngress = ResourceChecker.check(ir, P4Twins.TOFINO1).pipelineLatencyCycles().get(Gress.INGRESS);
        TargetProfile padded = P4Twins.tofino1WithMinIngress(irIngress);
        List<P4Twins.Arrival> trace = trace();
        List<Long> irReports = new ArrayList<>();
        List<Long> p4Reports = new ArrayList<>();
        P4Twins.Run a = P4Twins.run(padded, ir, e -> probesAndReports(e, irReports), trace);
        P4Twins.Run b = P4Twins.run(padded, p4, e -> probesAndReports(e, p4Reports), trace);
        a.assertSameTraffic(b);
        assertEquals(irReports, p4Reports, "flagged packets (packet, flags, loss estimate) on port 1");
        assertEquals(FLAGGED, irReports.size() / 3, "flagged packets");
        // every array of the P4 program, which are the IR's but its scratch comparator
        a.assertSameRegisters(b, p4);
        List<String> irArrays = new ArrayList<>();
        for (RegisterArray r : ir.registers()) {
            irArrays.add(r.name());
        }
        List<String> p4Arrays = new ArrayList<>();
        for (RegisterArray r : p4.registers()) {
            p4Arrays.add(r.name());
        }
        assertEquals(15, irArrays.size(), irArrays.toString());
        assertEquals(14, p4Arrays.size(), p4Arrays.toString());
        assertTrue(irArrays.containsAll(p4Arrays) && irArrays.contains(MidstPipeline.DEPTH_CMP), irArrays + " / " + p4Arrays);
        for (int pipe = 0; pipe < P4Twins.TOFINO1.pipes(); pipe++) {
            assertEquals(0, a.engine().state().snapshot(pipe, MidstPipeline.DEPTH_CMP)[0], "the comparator's cell is never written");
        }

        // what the run exercised: a monitoring epoch per burst, drops, reports to the collector and cleaning
        assertEquals(BURSTS, a.engine().state().readRegister(0, MidstPipeline.EPOCH, 0), "epochs");
        long collector = 0;
        for (int i = 1; i < a.departures().size(); i += 3) {
            collector += a.departures().get(i) == MidstConfig.DEFAULT_COLLECTOR_PORT ? 1 : 0;
        }
        // on the collector port: monitoring on and off per burst, and the cleaning that finished after the last one
        // (the first two were cut short by the next burst: their probe gave the token back)
        assertEquals(2 * BURSTS + 1, collector, "probe reports");
        assertEquals(1_118, a.dropped(), "tail drops at port 1");
        for (String array : List.of(MidstPipeline.IN_CLEAN, MidstPipeline.OUT_CLEAN, MidstPipeline.CLEANER)) {
            assertEquals(0, a.engine().state().readRegister(0, array, 0), array + ": both sketches clean, the token free");
        }

        // on tofino1 itself the P4 program's packets reach the traffic manager 18 cycles earlier: not a shift
        P4Twins.Run c = P4Twins.run(p4, MidstP4TwinTest::probes, trace);
        assertEquals(1_120, c.dropped(), "P4 on tofino1: the monitor flag flips against other data packets");
    }

    /** Probes, and each packet that leaves port 1 with a report header: its number, flags and loss estimate to {@code out}. */
    private static void probesAndReports(SwitchEngine e, List<Long> out) {
        probes(e);
        e.onDeparture((cycle, port, slot, pool) -> {
            PacketRecord r = pool.record(slot);
            int flags = MidstHeaders.reportFlags(r);
            if (port == MidstConfig.DEFAULT_DATA_PORT && flags >= 0) {
                out.add(pool.packetNumber(slot));
                out.add((long) flags);
                out.add(MidstHeaders.reportLoss(r));
            }
        });
    }

    /** Gateways of each gress over all its stages (a gateway evaluated in several stages counts in each). */
    private static List<Integer> gateways(ResourceReport r) {
        int in = 0;
        int eg = 0;
        for (StageUsage u : r.stages()) {
            if (u.gress() == Gress.INGRESS) {
                in += u.gateways();
            } else {
                eg += u.gateways();
            }
        }
        return List.of(in, eg);
    }

    /** Pipe 0's packet generator: a fresh probe every {@link #PROBE_PERIOD_CYCLES} while the trace lasts. */
    private static void probes(SwitchEngine e) {
        e.packetGeneratorUntilInputEnds(0, 0, PROBE_PERIOD_CYCLES, MidstSwitch::probeTemplate);
    }

    private static List<P4Twins.Arrival> trace() {
        SplitMix64 rnd = new SplitMix64(5);
        int[][] flows = new int[FLOWS][];
        for (int f = 0; f < FLOWS; f++) {
            flows[f] = new int[] {0x0A000000 | (int) (rnd.nextDouble() * 65536), 0x0A010000 | (int) (rnd.nextDouble() * 65536),
                    f % 3 == 0 ? 17 : 6, 1024 + (int) (rnd.nextDouble() * 60000), 1 + (int) (rnd.nextDouble() * 1000)};
        }
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        int n = 0;
        for (int burst = 0; burst < BURSTS; burst++) {
            for (int i = 0; i < BURST_PACKETS; i++, n++) {
                cycle += 1 + (long) (rnd.nextDouble() * BURST_GAP_CYCLES);
                trace.add(arrival(rnd, flows, cycle, n));
            }
            for (int i = 0; i < QUIET_PACKETS; i++, n++) {
                cycle += 1 + (long) (rnd.nextDouble() * QUIET_GAP_CYCLES);
                trace.add(arrival(rnd, flows, cycle, n));
            }
        }
        return trace;
    }

    /** A packet of a flow (the low-numbered flows heavier), 242..441 bytes, on one of ports 3..10. */
    private static P4Twins.Arrival arrival(SplitMix64 rnd, int[][] flows, long cycle, int n) {
        int[] flow = flows[(int) (rnd.nextDouble() * rnd.nextDouble() * FLOWS)];
        byte[] frame = P4Twins.frame(flow, new byte[0], n & 0xFFFF, 200 + (int) (rnd.nextDouble() * 200));
        return new P4Twins.Arrival(cycle, 3 + (int) (rnd.nextDouble() * 8), P4Twins.record(frame));
    }
}

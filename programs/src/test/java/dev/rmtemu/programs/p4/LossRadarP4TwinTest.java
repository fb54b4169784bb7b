package dev.rmtemu.programs.p4;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.TableAction;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.traces.gen.SplitMix64;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code programs/p4/lossradar.p4} against its Java IR twin {@code lossradar} with its defaults
 * (both meters, k = 3, 96 cells, 4 ports, batches of 2^23 ns, every packet to port 1, an ACL of
 * 64 entries). The seeded trace mixes frames that carry the LossRadar shim (batch IDs 0..3, as
 * a previous hop's UM wrote them) with plain ones, arriving on ports 0..7 (the DM meters 0..3)
 * over about 36 ms, so that the UM's batch ID takes five values and both batch slots fill; ACL
 * entries deny two destinations and all but UDP to a third. Both give the same departures (cycle, port, packet) and drops, and the same 31
 * register arrays in every pipe: the DM's batch state and the 15 cell arrays of each meter.
 *
 * <p>The frames are untagged IPv4 with TCP or UDP: the P4 program parses Ethernet, the shim,
 * IPv4 and the first four bytes of TCP or UDP (the signature's ports), where the IR twin's
 * default parse graph also reads VLAN tags, IPv6 and ICMP (whose type and code are its ports).
 *
 * <p>Resources: the same per-stage use. The P4 placement puts each step in the stage
 * LossRadarProgram gives it by hand: the ACL and the shim reads in ingress stage 0, the index ORs
 * in 1 and 2, the DM's batch state in 2, the cell arrays four stateful ALUs to a stage in 3..10
 * (the DM's first, as its indexes are ready a stage before the UM's). The pipeline latency
 * differs: a hand-placed IR stage is declared match-dependent on the stage before
 * (ProgramBuilder.StageBuilder's default), 258 cycles for the 11 stages, where rmtemu's placement
 * labels each P4 stage by its elements' dependencies on the stage before, as p4c's
 * DependencyGraph::find_mau_dependency does: the cell-array stages depend on nothing there
 * (concurrent), 97 cycles. The IR twin's packets reach the queues 161 cycles later, all alike, so
 * the departures are the same packets on the same ports in the same order, 161 cycles apart, and
 * the drops and registers are the same.
 */
class LossRadarP4TwinTest {
    private static final int PACKETS = 15_000;
    private static final int FLOWS = 64;
    /** The arrivals span about 36 ms of 1.22 GHz cycles: five 2^23 ns batches. */
    private static final int MEAN_GAP_CYCLES = 3_300;

    @Test
    void theP4LossRadarMetersAndDropsAsTheIrLossRadar() {
        StageProgram ir = ProgramPlugins.registry().build(LossRadarProgram.programName(LossRadarProgram.Role.BOTH), Map.of());
        StageProgram p4 = P4Twins.compile("lossradar.p4");

        SplitMix64 rnd = new SplitMix64(23);
        int[][] flows = new int[FLOWS][];
        for (int f = 0; f < FLOWS; f++) {
            flows[f] = new int[] {0x0A000000 | (int) (rnd.nextDouble() * 65536), 0x0A010000 | (int) (rnd.nextDouble() * 16),
                    f % 3 == 0 ? 17 : 6, 1024 + (int) (rnd.nextDouble() * 60000), 1 + (int) (rnd.nextDouble() * 1000)};
        }
        List<P4Twins.Arrival> trace = new ArrayList<>();
        long cycle = 0;
        long denied = 0;
        for (int i = 0; i < PACKETS; i++) {
            int[] flow = flows[(int) (rnd.nextDouble() * FLOWS)];
            int batch = rnd.nextDouble() < 0.6 ? (int) (rnd.nextDouble() * 4) : -1;
            // a tenth of the packets arrive back to back
            cycle += rnd.nextDouble() < 0.1 ? 1 : (long) (rnd.nextDouble() * 2 * MEAN_GAP_CYCLES);
            byte[] frame = frame(flow, batch, i & 0xFFFF, 40 + (int) (rnd.nextDouble() * 400));
            trace.add(new P4Twins.Arrival(cycle, (int) (rnd.nextDouble() * 8), P4Twins.record(frame)));
            if (flow[1] == flows[1][1] || flow[1] == flows[2][1] || flow[1] == flows[3][1] && flow[2] != 17) {
                denied++;
            }
        }

        List<String> irUse = P4Twins.stageUse(ir);
        List<String> p4Use = P4Twins.stageUse(p4);
        assertEquals(irUse.subList(0, irUse.size() - 1), p4Use.subList(0, p4Use.size() - 1), "per-stage use");
        assertEquals("latency {INGRESS=258}", irUse.get(irUse.size() - 1), "11 stages, each declared match-dependent");
        assertEquals("latency {INGRESS=97}", p4Use.get(p4Use.size() - 1), "11 stages, each as its dependencies are");
        long later = ResourceChecker.check(ir, P4Twins.TOFINO1).pipelineLatencyCycles().get(Gress.INGRESS)
                - ResourceChecker.check(p4, P4Twins.TOFINO1).pipelineLatencyCycles().get(Gress.INGRESS);
        P4Twins.Run a = P4Twins.run(ir, e -> install(e, ir, flows), trace);
        P4Twins.Run b = P4Twins.run(p4, e -> install(e, p4, flows), trace);
        // every packet leaves the IR twin's pipeline `later` cycles after the P4 one's: the same queues, shifted
        List<Long> shifted = new ArrayList<>(a.departures());
        for (int i = 0; i < shifted.size(); i += 3) {
            shifted.set(i, shifted.get(i) - later);
        }
        assertEquals(shifted, b.departures(), "departures (cycle, port, packet), the IR's ingress latency apart");
        assertEquals(a.dropped(), b.dropped(), "drops");
        a.assertSameRegisters(b, ir);
        assertEquals(31, ir.registers().size(), "the DM's batch state and 2 x 3 x (4 + 1) cell arrays");

        LossRadarConfig c = LossRadarConfig.defaults();
        long um = 0;
        long[] umSlots = new long[LossRadarConfig.BATCH_SLOTS];
        long dm = 0;
        int slotSize = LossRadarProgram.arraySize(c, MeterDigest.UM) / LossRadarConfig.BATCH_SLOTS;
        for (int pipe = 0; pipe < P4Twins.TOFINO1.pipes(); pipe++) {
            long[] counts = a.engine().state().snapshot(pipe, LossRadarProgram.arrayName(MeterDigest.UM, 0, c.words(), c.words()));
            for (int i = 0; i < counts.length; i++) {
                um += counts[i];
                umSlots[i / slotSize] += counts[i];
            }
            for (long v : a.engine().state().snapshot(pipe, LossRadarProgram.arrayName(MeterDigest.DM, 0, c.words(), c.words()))) {
                dm += v;
            }
        }
        assertTrue(denied > PACKETS / 50, "the ACL denies some: " + denied);
        assertEquals(denied, a.dropped(), "every drop is the ACL's: port 1 keeps up with the bursts");
        assertEquals(PACKETS - denied, um, "the UM counts every packet the ACL let pass");
        assertTrue(umSlots[0] > 0 && umSlots[1] > 0, "both batch slots: " + umSlots[0] + ", " + umSlots[1]);
        assertTrue(dm > PACKETS / 3 && dm < PACKETS, "the DM counts the packets of ports 0..3: " + dm);
    }

    /** Denies two destinations and all but UDP to a third (the lower priority value wins), by each program's own action ids. */
    private static void install(SwitchEngine e, StageProgram p, int[][] flows) {
        int deny = actionId(p, "deny");
        int permit = actionId(p, "permit");
        e.state().addTernary(LossRadarProgram.ACL_TABLE, new long[] {flows[1][1], 0}, new long[] {0xFFFFFFFFL, 0}, 10, deny, 0);
        e.state().addTernary(LossRadarProgram.ACL_TABLE, new long[] {flows[2][1], 0}, new long[] {0xFFFFFFFFL, 0}, 10, deny, 0);
        e.state().addTernary(LossRadarProgram.ACL_TABLE, new long[] {flows[3][1], 17}, new long[] {0xFFFFFFFFL, 0xFF}, 1, permit, 0);
        e.state().addTernary(LossRadarProgram.ACL_TABLE, new long[] {flows[3][1], 0}, new long[] {0xFFFFFFFFL, 0}, 10, deny, 0);
    }

    private static int actionId(StageProgram p, String name) {
        for (TableAction a : p.table(LossRadarProgram.ACL_TABLE).actions().actions()) {
            if (a.name().equals(name)) {
                return a.id();
            }
        }
        throw new IllegalStateException("no action " + name);
    }

    /** Ethernet, the LossRadar shim when {@code batch} >= 0, IPv4 (IP ID {@code ipId}) and the flow's TCP or UDP ports, then payload. */
    private static byte[] frame(int[] flow, int batch, int ipId, int payload) {
        byte[] shim = new byte[batch >= 0 ? 8 : 0];
        if (batch >= 0) {
            P4Twins.put(shim, 0, 0x88B5, 2);
            P4Twins.put(shim, 2, batch, 2);
        }
        return P4Twins.frame(flow, shim, ipId, payload);
    }
}

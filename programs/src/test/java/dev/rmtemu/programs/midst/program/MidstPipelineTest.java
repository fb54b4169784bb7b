package dev.rmtemu.programs.midst.program;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.midst.control.MidstSwitch;
import dev.rmtemu.programs.midst.experiment.MidstTestTraffic;
import dev.rmtemu.programs.midst.reference.MidstReference;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MidstPipelineTest {

    @Test
    void paperWorkedExampleIsTheMinimumOfDifferences() {
        long[] u = {25, 40, 30};
        long[] v = {20, 10, 5};
        assertEquals(5, MidstReference.minOfDifferences(u, v));
        // the difference of the minimums would say 20
        assertEquals(20, 25 - 5);
        assertThrows(IllegalArgumentException.class, () -> MidstReference.minOfDifferences(u, new long[] {1}));
    }

    @Test
    void pipelineComputesTheWorkedExampleFromPresetRegisters() {
        MidstConfig cfg = MidstConfig.defaults().withRows(3, 4096);
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, 12_500);
        MidstReference ref = new MidstReference(cfg);
        PacketRecord r = PacketRecord.allocate();
        r.timestampNs(0).wireLength(100).ipVersion(4).protocol(PacketRecord.PROTO_TCP).srcIpv4(0x0A000002)
                .dstIpv4(0x0A000001).srcPort(1234).dstPort(80).ingressPort(3);
        long[] inBefore = {24, 39, 29};
        long[] outBefore = {19, 9, 4};
        for (int i = 0; i < 3; i++) {
            int j = ref.index(i, r);
            int word = j / 32;
            long bit = 1L << (j % 32);
            sw.engine().state().writeRegister(0, MidstPipeline.inCount(i), j, inBefore[i], 0);
            sw.engine().state().writeRegister(0, MidstPipeline.outCount(i), j, outBefore[i], 0);
            sw.engine().state().writeRegister(0, MidstPipeline.inDirty(i), word, bit, 0);
            sw.engine().state().writeRegister(0, MidstPipeline.outDirty(i), word, bit, 0);
        }
        sw.monitorAlways();
        long[] est = {-1};
        long[] got = new long[3];
        sw.onDeparture((c, p, s, pool) -> {
            Phv phv = pool.phv(s);
            est[0] = phv.get(sw.pipeline().lossEstimate);
            for (int i = 0; i < 3; i++) {
                got[i] = phv.get(sw.pipeline().brU[i]);
            }
        });
        sw.engine().arrive(0, 3, r);
        sw.engine().drain();
        assertEquals(25, got[0]);
        assertEquals(40, got[1]);
        assertEquals(30, got[2]);
        assertEquals(5, est[0]);
    }

    @Test
    void staleCounterIsResetByTheFirstWriteAfterCleaning() {
        MidstConfig cfg = MidstConfig.defaults().withRows(1, 1024);
        MidstSwitch sw = MidstTestTraffic.newSwitch(cfg, 12_500);
        MidstReference ref = new MidstReference(cfg);
        PacketRecord r = PacketRecord.allocate();
        r.wireLength(100).ipVersion(4).protocol(PacketRecord.PROTO_UDP).srcIpv4(7).dstIpv4(8).srcPort(1).dstPort(2);
        int j = ref.index(0, r);
        // leftover count from an earlier interval, dirty bit clear: logically zero
        sw.engine().state().writeRegister(0, MidstPipeline.inCount(0), j, 1000, 0);
        sw.monitorAlways();
        long[] u = {-1};
        sw.onDeparture((c, p, s, pool) -> u[0] = pool.phv(s).get(sw.pipeline().brU[0]));
        sw.engine().arrive(0, 3, r);
        sw.engine().drain();
        assertEquals(1, u[0]);
        long word = sw.engine().state().readRegister(0, MidstPipeline.inDirty(0), j / 32);
        assertEquals(1L << (j % 32), word);
    }

    @Test
    void ingressAndEgressSketchesNeverShareARegister() {
        MidstPipeline p = new MidstPipeline(MidstConfig.defaults().withRows(4, 8192));
        Set<String> ingress = new HashSet<>();
        Set<String> egress = new HashSet<>();
        for (RegisterArray a : p.program.registers()) {
            (a.gress() == Gress.INGRESS ? ingress : egress).add(a.name());
        }
        for (int i = 0; i < 4; i++) {
            assertTrue(ingress.contains(MidstPipeline.inCount(i)));
            assertTrue(ingress.contains(MidstPipeline.inDirty(i)));
            assertTrue(egress.contains(MidstPipeline.outCount(i)));
            assertTrue(egress.contains(MidstPipeline.outDirty(i)));
        }
        assertTrue(ingress.contains(MidstPipeline.MONITOR));
        assertTrue(egress.contains(MidstPipeline.QDEPTH));
        Set<String> both = new HashSet<>(ingress);
        both.retainAll(egress);
        assertTrue(both.isEmpty(), "shared arrays " + both);
        assertEquals(p.program.registers().size(), ingress.size() + egress.size());
        MidstSwitch sw = MidstTestTraffic.newSwitch(MidstConfig.defaults().withRows(2, 1024), 100);
        assertNotSame(sw.engine().state().registers(0, Gress.INGRESS), sw.engine().state().registers(0, Gress.EGRESS));
    }

    @Test
    void fitsTofino1UpTo512KilobytesPerSketch() {
        for (int rows = 1; rows <= MidstConfig.MAX_ROWS; rows++) {
            for (int kb : new int[] {160, 320, 640, 1280}) {
                // power-of-two rows: the paper's 160 / 320 / 640 / 1,280 KB round down to 128 / 256 / 512 / 1,024 KB
                // (2 rows; 3 rows round to 3 x 64 K counters at 1,280 KB)
                MidstConfig cfg = MidstConfig.defaults().withRows(rows, MidstConfig.columnsFor(kb, rows));
                ResourceReport rep = ResourceChecker.check(new MidstPipeline(cfg).program, TargetProfiles.builtIn("tofino1"));
                // a register RAM holds 4,096 counters and takes one spare RAM more; one stateful ALU reaches 36 RAMs
                // and a stage has 48 map RAMs (bf-p4c memories.cpp): one row of 131,072 counters needs 32 + 1 = 33
                // RAMs and fits; at 1280 KB every split needs more (1 row: 65 > 36; 2 rows: 2 x 33 = 66 > 48;
                // 3 or 4 rows of 65,536: 51 or 68 > 48)
                if (kb == 1280) {
                    assertFalse(rep.fits(), rows + " rows, " + kb + " KB");
                    continue;
                }
                assertTrue(rep.fits(), rows + " rows, " + kb + " KB: " + rep.failures());
            }
        }
        MidstConfig tooBig = MidstConfig.defaults().withRows(2, MidstConfig.columnsFor(2560, 2));
        ResourceReport rep = ResourceChecker.check(new MidstPipeline(tooBig).program, TargetProfiles.builtIn("tofino1"));
        assertFalse(rep.fits());
        assertTrue(String.join(";", rep.failures()).contains("SRAM"), rep.failures().toString());
    }

    @Test
    void theBridgedHeaderIsChargedToTheTrafficManager() {
        // counted, monitor (1 + 1), epoch 16, u_min 32, and per row index 15, u 32, dirty word 10, bit 32:
        // 50 + 2 x 89 = 228 bits = 29 bytes that every packet carries through the buffer
        assertEquals(29, new MidstPipeline(MidstConfig.defaults()).program.bridgedBytes());
        // without dirty words the word and bit are not bridged: 50 + 2 x 47 = 144 bits
        assertEquals(18, new MidstPipeline(MidstConfig.defaults().withDirtyWords(false)).program.bridgedBytes());
    }

    @Test
    void factoryIsRegisteredAndValidatesParameters() {
        assertEquals(MidstProgram.NAME, ProgramPlugins.registry().build("midst", Map.of("rows", "3", "columns", "2048")).name());
        assertThrows(UserError.class, () -> ProgramPlugins.registry().build("midst", Map.of("columns", "1000")));
        assertThrows(UserError.class, () -> ProgramPlugins.registry().build("midst", Map.of("high", "10", "low", "10")));
    }
}

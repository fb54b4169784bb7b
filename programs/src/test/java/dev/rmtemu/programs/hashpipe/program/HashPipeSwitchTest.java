package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;
import dev.rmtemu.programs.hashpipe.control.HashPipeReport;
import dev.rmtemu.programs.hashpipe.reference.HashPipeReference;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HashPipe end to end on an emulated tofino1 switch, read out by the collector and the replay report. */
class HashPipeSwitchTest {
    private static final String TRACE = "gen:isp?packets=30000&flows=3000&seed=4";

    @Test
    void collectorOverTheSwitchEqualsTheReference() {
        Map<String, String> params = Map.of("stages", "4", "counters", "512", "count", "bytes");
        StageProgram prog = ProgramPlugins.registry().build("hashpipe", params);
        TargetProfile tofino1 = TargetProfiles.builtIn("tofino1");
        SwitchEngine engine = new SwitchEngine(new SwitchConfig(tofino1, prog, SwitchConfig.defaultPorts(tofino1),
                PortConfig.strictPriority(100), true));
        HashPipeConfig cfg = HashPipeConfig.of(4, 512, KeyKind.FINGERPRINT, HashPipeConfig.FAMILY_CRC32, true);
        HashPipeReference ref = new HashPipeReference(cfg);
        FlowKeys keys = new FlowKeys(cfg.key());
        PacketRecord r = PacketRecord.allocate();
        long cycle = 1;
        try (PacketSource src = TraceSpec.open(TRACE)) {
            while (src.next(r)) {
                // one port, so one pipe's tables see every packet, in trace order
                engine.arrive(cycle, 0, r);
                cycle += 100;
                keys.load(r);
                ref.update(keys.lo(), keys.hi(), CountedBytes.of(r));
            }
        }
        engine.drain();
        List<FlowCount> fromSwitch = HashPipeCollector.collect(engine.state(), cfg);
        assertEquals(ref.report(), fromSwitch);
        assertTrue(fromSwitch.size() > 300);

        List<HashPipeReport.Row> top = HashPipeReport.topWithTruth(engine.state(), cfg, 10, TRACE, Long.MAX_VALUE);
        assertEquals(10, top.size());
        for (HashPipeReport.Row row : top) {
            // HashPipe never overcounts; the heaviest flows of a skewed trace are exact
            assertTrue(row.flow().count() <= row.trueCount(), row.toString());
            assertTrue(row.fiveTuple().contains(" > "));
        }
        assertEquals(top.get(0).trueCount(), top.get(0).flow().count());
    }
}

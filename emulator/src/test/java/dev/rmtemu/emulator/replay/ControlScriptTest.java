package dev.rmtemu.emulator.replay;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ControlScriptTest {
    private static SwitchEngine engine(String program) {
        return new SwitchEngine(SwitchConfig.of(TargetProfiles.builtIn("tofino1"),
                new ProgramRegistry().build(program, Map.of()), 100));
    }

    private static PacketRecord to(int dst) {
        PacketRecord r = PacketRecord.allocate();
        return r.wireLength(100).ipVersion(4).protocol(17).dstIpv4(dst);
    }

    @Test
    void tableEntriesForwardAndMissesDrop(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("fwd.txt");
        Files.writeString(f, """
                # two routes
                table l2_fwd exact 10.0.0.2 action=1 data=3
                table l2_fwd exact 0x0a000003 action=1 data=5   # hex works too
                """);
        SwitchEngine e = engine("l2fwd");
        assertEquals(2, ControlScript.apply(f, e));
        List<Integer> ports = new ArrayList<>();
        e.onDeparture((c, p, s, pool) -> ports.add(p));
        e.arrive(0, 0, to(0x0A000002));
        e.arrive(10, 0, to(0x0A000003));
        e.arrive(20, 0, to(0x0A000004));
        e.drain();
        assertEquals(List.of(3, 5), ports);
        assertEquals(1, e.counters().droppedFor(SwitchEngine.DROP_INGRESS));
    }

    @Test
    void scheduledRegisterResetAppliesAtItsCycle(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("ops.txt");
        Files.writeString(f, "register flow_count write 7 100\nat 1000 register flow_count reset\n");
        SwitchEngine e = engine("counter");
        ControlScript.apply(f, e);
        assertEquals(100, e.state().readRegister(0, "flow_count", 7));
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(0, e.state().readRegister(0, "flow_count", 7));
    }

    @Test
    void mistakesNameFileAndLine(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("bad.txt");
        Files.writeString(f, "\n# ok\ntable nosuch exact 1 action=1\n");
        UserError e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("l2fwd")));
        assertEquals(f + ":3: program l2fwd has no table 'nosuch'", e.getMessage());
        Files.writeString(f, "at 5 register flow_count explode\n");
        e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("counter")));
        assertEquals(f + ":1: register operation 'explode' (write, reset)", e.getMessage(), "checked before the run");
        Files.writeString(f, "table l2_fwd exact 300.1.1.1 action=1\n");
        e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("l2fwd")));
        assertEquals(f + ":1: '300.1.1.1' is not a number or IPv4 address", e.getMessage());
        Files.writeString(f, "on s1 register flow_count reset\n");
        e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("counter")));
        assertEquals(f + ":1: 'on s1' names a switch, which needs a network replay (--topology)", e.getMessage());
    }
}

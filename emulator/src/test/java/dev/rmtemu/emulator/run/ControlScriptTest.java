package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramRegistry;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                # two hosts: the MACs of 10.0.0.2 and 10.0.0.3 (HostMac)
                table l2_fwd exact 02:00:0a:00:00:02 action=1 data=3
                table l2_fwd exact 0x02000a000003 action=1 data=5   # hex works too
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
        assertEquals(f + ":1: '300.1.1.1' is not a number, IPv4 or MAC address", e.getMessage());
        Files.writeString(f, "table l2_fwd exact 02:00:0a:00:00:2g action=1\n");
        e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("l2fwd")));
        assertEquals(f + ":1: '02:00:0a:00:00:2g' is not a number, IPv4 or MAC address", e.getMessage());
        Files.writeString(f, "on s1 register flow_count reset\n");
        e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine("counter")));
        assertEquals(f + ":1: 'on s1' names a switch, which needs a network replay (--topology)", e.getMessage());
    }

    private static String refusal(Path f, byte[] content, String program) throws Exception {
        Files.write(f, content);
        UserError e = assertThrows(UserError.class, () -> ControlScript.apply(f, engine(program)));
        assertEquals(UserError.BAD_INPUT, e.exitCode());
        return e.getMessage();
    }

    private static String refusal(Path f, String content) throws Exception {
        return refusal(f, content.getBytes(StandardCharsets.UTF_8), "counter");
    }

    @Test
    void aValueWiderThanTheCellsIsRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":2: value 4294967296 does not fit flow_count's 32-bit cells",
                refusal(f, "register flow_count write 3 4294967295\nregister flow_count write 3 4294967296\n"));
        assertEquals(f + ":1: value 0x100000000 does not fit flow_count's 32-bit cells",
                refusal(f, "at 10 register flow_count write 3 0x100000000\n"));
        assertEquals(f + ":1: value -1 does not fit flow_count's 32-bit cells",
                refusal(f, "register flow_count write 3 -1\n"));
        assertEquals(f + ":1: register flow_count: index 65536 outside 0..65535",
                refusal(f, "at 10 register flow_count write 65536 1\n"));
        assertEquals(f + ":1: '4294967296' is out of range for a register index (0..2147483647)",
                refusal(f, "register flow_count write 4294967296 1\n"));
        SwitchEngine e = engine("counter");
        Files.writeString(f, "register flow_count write 3 4294967295\n");
        ControlScript.apply(f, e);
        assertEquals(4294967295L, e.state().readRegister(0, "flow_count", 3));
    }

    @Test
    void aScheduledTableEntryIsCheckedBeforeTheRun(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":1: 'x1' is not a number, IPv4 or MAC address",
                refusal(f, "at 10 table l2_fwd exact x1 action=1\n".getBytes(StandardCharsets.UTF_8), "l2fwd"));
        assertEquals(f + ":1: '-2' is out of range for an action (0..2147483647)",
                refusal(f, "at 10 table l2_fwd exact 1 action=-2\n".getBytes(StandardCharsets.UTF_8), "l2fwd"));
    }

    @Test
    void aBareMulticastIsRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":1: multicast needs a GROUP and its PORTs", refusal(f, "multicast\n"));
    }

    @Test
    void negativeCyclesAreRefused(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        assertEquals(f + ":1: cycle -5 is negative", refusal(f, "at -5 register flow_count reset\n"));
    }

    @Test
    void anOperationAfterTheLastEventIsNotAppliedAndDoesNotStretchTheRun(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        Files.writeString(f, "register flow_count write 7 100\nat 1000 register flow_count write 7 5\n"
                + "at 9223372036854775807 register flow_count reset\n");
        SwitchEngine e = engine("counter");
        ControlScript.apply(f, e);
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(5, e.state().readRegister(0, "flow_count", 7), "the reset at the end of time was not applied");
        assertTrue(e.now() < 10_000, "run not stretched: " + e.now());
        assertEquals(List.of(f + ":3"), e.controlOpsNotApplied().stream().map(Object::toString).toList());
    }

    @Test
    void aProgramsOwnControlOperationAfterTheLastPacketStillRuns() {
        // programs read their sketches at the end of an interval with scheduleControl: that always runs
        SwitchEngine e = engine("counter");
        List<Long> ran = new ArrayList<>();
        e.scheduleControl(50_000, (state, cycle) -> ran.add(cycle));
        e.scheduleControlWithinRun(60_000, (state, cycle) -> ran.add(cycle));
        e.arrive(2000, 0, to(1));
        e.drain();
        assertEquals(List.of(50_000L), ran);
        assertEquals(50_000, e.now());
        assertEquals(1, e.controlOpsNotApplied().size());
    }

    @Test
    void longTokensAreCutInMessages(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        String huge = "x".repeat(10_000_000);
        String msg = refusal(f, "table " + huge + " exact 1 action=1\n");
        assertEquals(f + ":1: program counter has no table '" + "x".repeat(60) + "... (10000000 characters)'", msg);
        msg = refusal(f, "at 5 register flow_count write 1 " + "9".repeat(100) + "\n");
        assertEquals(f + ":1: value " + "9".repeat(60) + "... (100 characters) does not fit flow_count's 32-bit cells", msg);
    }

    @Test
    void binaryInputIsNotUtf8TextAndAByteOrderMarkIsSkipped(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("c.txt");
        byte[] bin = {'#', ' ', 'o', 'k', '\n', 'r', 'e', 'g', (byte) 0xC3, '\n', (byte) 0xFF, 0};
        assertEquals(f + ":2: not UTF-8 text", refusal(f, bin, "counter"));
        byte[] text = "register flow_count write 7 9\r\n".getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[text.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, withBom, 3, text.length);
        Files.write(f, withBom);
        SwitchEngine e = engine("counter");
        assertEquals(1, ControlScript.apply(f, e));
        assertEquals(9, e.state().readRegister(0, "flow_count", 7));
        assertEquals("control file " + tmp + " is not a regular file",
                assertThrows(UserError.class, () -> ControlScript.apply(tmp, engine("counter"))).getMessage());
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.emulator.run.ControlScript;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.TableUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's DirectRegister and DirectRegisterAction ({@code p4/direct_register.p4}): one pair cell
 * per entry of table flows, run by {@code execute()} in the table's actions on the entry that
 * hit; a miss runs the default action, which counts in the miss entry's cell (index = the
 * table's size), as a direct counter does (Tofino's miss address comes from the logical table's
 * miss-value register, which the driver points at the default entry's own direct cell).
 */
class P4DirectRegisterTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");
    private static final String FILE = "direct_register.p4";
    private static final long A = 0x02000000000AL;
    private static final long B = 0x02000000000BL;
    private static final long C = 0x02000000000CL;
    private static final long DST = 0x020000000002L;
    private static final int DST_ADDR = 30;
    private static final int TABLE_SIZE = 4096;

    private static StageProgram placed(String text) {
        return ProgramCompiler.compile(P4Programs.text(FILE, text, PreprocessorOptions.defaults()).require(), TOFINO1)
                .requireAccepted().program();
    }

    private static String program() {
        return P4RouterTest.resource(FILE);
    }

    @Test
    void theDirectRegisterHasOneCellPerEntryAndTheMissCellAndIsPlacedWithItsTable() {
        StageProgram p = placed(program());
        RegisterArray r = p.register("flow_totals");
        assertEquals(List.of(true, "flows", TABLE_SIZE + 1, 32, true), List.of(r.direct(), r.table().name(), r.size(), r.wordBits(),
                r.pair()));
        assertEquals(p.table("flows").stage(), r.stage());
    }

    /**
     * A, B, A, C (C matches no entry): A's cell (handle 0) holds 2 packets of 100 + 40 bytes, B's
     * (handle 1) 1 of 60, the miss cell (4096) 1 of 50, every other cell 0; each frame leaves by
     * its entry's port (a miss by port 9) carrying its flow's count so far.
     */
    @Test
    void eachEntryCountsInItsOwnCellAndAMissInTheMissCell() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, placed(program()), SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        assertEquals(0, e.state().addExact("flows", new long[] {A}, 1, 1)); // forward(1): handle 0
        assertEquals(1, e.state().addExact("flows", new long[] {B}, 1, 2)); // forward(2): handle 1
        List<Integer> ports = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> {
            ports.add(port);
            byte[] a = pool.frameArray();
            int at = pool.frameOffset(slot) + DST_ADDR;
            counts.add(((a[at] & 0xFFL) << 24) | ((a[at + 1] & 0xFFL) << 16) | ((a[at + 2] & 0xFFL) << 8) | (a[at + 3] & 0xFFL));
        });
        long[] sources = {A, B, A, C};
        int[] lengths = {100, 60, 40, 50};
        long cycle = e.now() + 1;
        for (int i = 0; i < sources.length; i++) {
            byte[] f = TestFrames.frame().ethernet(DST, sources[i], 0x0800).ipv4(17, lengths[i], 0, 64)
                    .payload("x".repeat(lengths[i] - 20)).build();
            e.arrive(cycle, 3, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        assertEquals(List.of(1, 2, 1, 9), ports);
        assertEquals(List.of(1L, 1L, 2L, 1L), counts);
        int pipe = 0; // port 3's pipe
        assertEquals(List.of(2L, 140L), cell(e, pipe, 0));
        assertEquals(List.of(1L, 60L), cell(e, pipe, 1));
        assertEquals(List.of(0L, 0L), cell(e, pipe, 2));
        assertEquals(List.of(1L, 50L), cell(e, pipe, TABLE_SIZE));
    }

    /** A new entry's cell starts afresh: deleting A and adding C takes A's handle 0, and its cell is 0 again. */
    @Test
    void aReusedHandleStartsAtTheInitialValue() {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, placed(program()), SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        e.state().writeRegister(0, "flow_totals", 0, 7, 700);
        assertEquals(0, e.state().addExact("flows", new long[] {A}, 1, 1));
        assertEquals(List.of(0L, 0L), cell(e, 0, 0));
        e.state().writeRegister(0, "flow_totals", 0, 7, 700);
        assertEquals(0, e.state().addExact("flows", new long[] {A}, 1, 2)); // the same key: a modify keeps the cell
        assertEquals(List.of(7L, 700L), cell(e, 0, 0));
    }

    /**
     * Control scripts write a direct register's cell by the entry's handle (table_add's: B is
     * handle 1) and the default entry's cell by the table's size; counting goes on from there.
     */
    @Test
    void aControlScriptWritesCellsByEntryHandle(@TempDir Path tmp) throws IOException {
        SwitchEngine e = new SwitchEngine(new SwitchConfig(TOFINO1, placed(program()), SwitchConfig.defaultPorts(TOFINO1),
                PortConfig.strictPriority(40), true));
        Path script = tmp.resolve("direct.ctl");
        Files.writeString(script, """
                table_add flows forward 0x02000000000a => 1
                table_add flows forward 0x02000000000b => 2
                register_write flow_totals 1 10 1000
                register_write flow_totals 4096 7 700
                """);
        ControlScript.apply(script, e);
        List<Long> counts = new ArrayList<>();
        e.onDeparture((cycle, port, slot, pool) -> counts.add((long) pool.frameArray()[pool.frameOffset(slot) + DST_ADDR + 3]));
        long cycle = e.now() + 1;
        for (long src : new long[] {B, C}) {
            byte[] f = TestFrames.frame().ethernet(DST, src, 0x0800).ipv4(17, 60, 0, 64).payload("x".repeat(40)).build();
            e.arrive(cycle, 3, TestFrames.record(f));
            cycle += 1000;
        }
        e.drain();
        assertEquals(List.of(11L, 8L), counts);
        assertEquals(List.of(11L, 1060L), cell(e, 0, 1));
        assertEquals(List.of(8L, 760L), cell(e, 0, TABLE_SIZE));

        Path bad = tmp.resolve("bad.ctl");
        Files.writeString(bad, "register_write flow_totals 4097 1 1\n");
        UserError err = assertThrows(UserError.class, () -> ControlScript.apply(bad, e));
        assertEquals(bad + ":1: direct register flow_totals of table flows: entry handle 4097 outside 0..4096 (4096: the"
                + " default entry's cell)", err.getMessage());
    }

    private static List<Long> cell(SwitchEngine e, int pipe, int index) {
        return List.of(e.state().readRegister(pipe, "flow_totals", index), e.state().readRegisterHi(pipe, "flow_totals", index));
    }

    /**
     * Sized by its table's layout (bf-p4c mau/resource_estimate.cpp
     * StageUseEstimate::calculate_attached_rams: a direct attached table has the layout's
     * {@code lo->entries}; RegisterPerWord packs two 64-bit pair cells a 128-bit word). A ternary
     * table of 2,000 entries holds 4 TCAMs of 512 = 2,048: ceil(2048 / (1024 x 2)) = 1 RAM + the
     * spare; of 2,049 entries, 2,560: 2 + the spare. One stateful ALU, and no logical table of its
     * own (it is driven by the match table's).
     */
    @Test
    void resourcesFollowTheTablesSizeAsP4cCountsThem() {
        assertEquals(List.of(2L, "entries of its table's layout: ceil(2048 / (1024 x 2 per word)) = 1 data + 1 spare"),
                usage(ternary(2000)));
        assertEquals(List.of(3L, "entries of its table's layout: ceil(2560 / (1024 x 2 per word)) = 2 data + 1 spare"),
                usage(ternary(2049)));
        ResourceReport r = ResourceChecker.check(placed(ternary(2000)), TOFINO1);
        int stage = placed(ternary(2000)).table("flows").stage();
        var s = r.stages().stream().filter(x -> x.stage() == stage).findFirst().orElseThrow();
        assertEquals(List.of(1, 1), List.of(s.statefulAlus(), s.logicalTables()));
    }

    private static String ternary(int size) {
        String text = program();
        assertTrue(text.contains("hdr.ethernet.src_addr : exact;") && text.contains("size = 4096;"));
        return text.replace("hdr.ethernet.src_addr : exact;", "hdr.ethernet.src_addr : ternary;")
                .replace("size = 4096;", "size = " + size + ";");
    }

    private static List<Object> usage(String text) {
        ResourceReport r = ResourceChecker.check(placed(text), TOFINO1);
        TableUsage u = r.tables().stream().filter(t -> t.name().equals("flow_totals")).findFirst().orElseThrow();
        return List.of(u.srams(), u.sizedBy());
    }

    /**
     * A direct register is addressed by the entry that hit (bf-p4c mau/resource_estimate.cpp
     * StageUseEstimate::calculate_attached_rams sizes a direct attached table by its match
     * table's entries): outside its table's actions it has no cell.
     */
    @Test
    void aDirectRegisterActionOutsideItsTablesActionsIsRefusedAndInsideAccepted() {
        String legal = program();
        String outside = legal.replace("        ig_md.count = count_flow.execute();\n        ig_tm_md.ucast_egress_port = port;\n",
                        "        ig_tm_md.ucast_egress_port = port;\n")
                .replace("        ig_md.count = count_flow.execute();\n        ig_tm_md.ucast_egress_port = 9;\n",
                        "        ig_tm_md.ucast_egress_port = 9;\n")
                .replace("            hdr.ipv4.dst_addr = ig_md.count;\n",
                        "            ig_md.count = count_flow.execute();\n            hdr.ipv4.dst_addr = ig_md.count;\n");
        assertEquals(List.of(FILE + ":" + lineOf(outside, "            ig_md.count = count_flow.execute();") + ":27:"
                + " DirectRegisterAction count_flow runs outside an action of table flows, whose registers property names"
                + " flow_totals (a direct register's cell is the entry that hit)"), errors(outside));
        assertEquals(List.of(), errors(legal));
    }

    @Test
    void anIndexToADirectRegisterActionIsRefused() {
        String text = program().replace("ig_md.count = count_flow.execute();\n        ig_tm_md.ucast_egress_port = port;",
                "ig_md.count = count_flow.execute(0);\n        ig_tm_md.ucast_egress_port = port;");
        assertEquals(List.of(FILE + ":" + lineOf(text, "count_flow.execute(0)") + ":23: DirectRegisterAction count_flow.execute"
                + " takes no index (its cell is the entry that hit)"), errors(text));
    }

    @Test
    void aDirectRegisterNoTableNamesIsRefusedWithItsPlace() {
        String text = program().replace("        registers = flow_totals;\n", "");
        assertEquals(List.of(FILE + ":" + lineOf(text, "DirectRegister<") + ":5: DirectRegister flow_totals is attached to no table"
                + " (name it in a table's registers property)"), errors(text));
    }

    private static List<String> errors(String text) {
        return P4Programs.text(FILE, text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
    }

    private static int lineOf(String text, String part) {
        assertTrue(text.contains(part), part);
        return 1 + (int) text.substring(0, text.indexOf(part)).chars().filter(ch -> ch == '\n').count();
    }
}

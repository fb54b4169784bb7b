package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One test per construct the lowering refuses: the base program (a well-formed TNA counter)
 * with one construct changed is refused with exactly one {@code FILE:LINE:COL: message}
 * naming the construct where it is written; the base program itself lowers.
 */
class P4LoweringRefusalsTest {
    private static final String FILE = "base.p4";

    private static String base() {
        try (InputStream in = P4LoweringRefusalsTest.class.getResourceAsStream(FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The base program with {@code from} replaced by {@code to}; {@code at} is where the error must point (in the new text). */
    private static void assertRefused(String from, String to, String at, String message) {
        assertRefused(base(), from, to, at, message);
    }

    private static void assertRefused(String src, String from, String to, String at, String message) {
        assertTrue(src.contains(from), from);
        String text = src.replace(from, to);
        int offset = text.indexOf(at);
        assertTrue(offset >= 0, at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        List<String> lines = r.errors().stream().map(Diagnostic::line).toList();
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), lines);
    }

    @Test
    void theBaseProgramLowers() {
        P4Programs.Result r = P4Programs.text(FILE, base(), PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        assertNotNull(r.program());
        assertEquals(List.of("flow_count"), r.program().control(dev.rmtemu.model.phv.Gress.INGRESS).registers().stream()
                .map(a -> a.name()).toList());
    }

    @Test
    void counterWithoutAWidth() {
        assertRefused("    Register<bit<32>, bit<16>>(65536) flow_count;",
                "    Register<bit<32>, bit<16>>(65536) flow_count;\n    Counter<_, bit<8>>(256, CounterType_t.PACKETS) pkts;",
                "_, bit<8>>", "Counter pkts: give the counter's width as bit<W> (the lowering does not infer it)");
    }

    @Test
    void meterWithColourValues() {
        assertRefused("    Register<bit<32>, bit<16>>(65536) flow_count;",
                "    Register<bit<32>, bit<16>>(65536) flow_count;\n    Meter<bit<8>>(256, MeterType_t.BYTES, 8w3, 8w1, 8w0) m;",
                "Meter<", "Meter m needs Meter<I>(size, MeterType_t.TYPE) (the colour values red, yellow, green are not supported yet)");
    }

    /** TNA's egress deparser has Mirror but no Digest (its egress_intrinsic_metadata_for_deparser_t has no digest_type). */
    @Test
    void digestInTheEgressDeparser() {
        assertRefused("                            in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {\n    apply {}",
                "                            in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {\n"
                        + "    Digest<empty_t>() learn;\n    apply {}",
                "Digest<empty_t>", "Digest learn in an egress deparser: TNA's egress deparser has no Digest (learn in the ingress deparser)");
    }

    /** int<W> metadata lowers (programs' P4LanguageGapsTest's signed comparisons); an int<W> header field stays refused. */
    @Test
    void signedHeaderField() {
        assertRefused("    bit<16> identification;", "    int<16> identification;", "int<16>",
                "int<W> here is not supported by the lowering yet (int<W> metadata and local variables of a control are)");
    }

    /**
     * Range keys lower to a range table (they were refused here before; their behaviour on packets is the
     * emulator's P4RangeTest, and of their const entries its P4ConstEntriesTest).
     */
    @Test
    void rangeMatchLowersToARangeTable() {
        String text = base().replace("    apply {\n        ig_md.flow_count", "    table t { key = { hdr.ipv4.protocol : range;"
                + " hdr.ipv4.total_len : range; } actions = { NoAction; } }\n    apply {\n        t.apply();\n        ig_md.flow_count");
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        dev.rmtemu.model.table.MatchTable t = r.program().table("t");
        assertEquals(dev.rmtemu.model.table.MatchKind.RANGE, t.kind());
        assertEquals(List.of(8, 16), t.key().stream().map(f -> f.width()).toList());
    }

    /** The base program with a table {@code decl} before its apply block, applied first. */
    private static String withTable(String decl) {
        return base().replace("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n" + decl
                        + "    apply {\n        t.apply();\n        ig_md.flow_count");
    }

    /**
     * Const entries of range, lpm and mixed-kind tables lower (they were refused as "const entries of range
     * table t are not supported by the lowering yet" and "table t mixes match kinds"; the emulator's
     * P4ConstEntriesTest runs them on packets): each field's form follows its kind, and the fields' kinds
     * make a table of the widest (bmv2's order: range, ternary, lpm, exact).
     */
    @Test
    void constEntriesOfRangeLpmAndMixedTablesLower() {
        String text = withTable("    table t { key = { hdr.ipv4.protocol : exact; hdr.ipv4.total_len : range;"
                + " hdr.ipv4.dst_addr : lpm; } actions = { set_port; } const entries = {\n"
                + "        (6, 0 .. 99, 0x0A000000 &&& 0xFF000000) : set_port(1);\n"
                + "        (17, 100, _) : set_port(2);\n        _ : set_port(3);\n    } }\n");
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        dev.rmtemu.model.table.MatchTable t = r.program().table("t");
        assertEquals(dev.rmtemu.model.table.MatchKind.RANGE, t.kind());
        assertEquals(List.of(dev.rmtemu.model.table.MatchKind.EXACT, dev.rmtemu.model.table.MatchKind.RANGE,
                dev.rmtemu.model.table.MatchKind.LPM), t.fieldKinds());
        List<dev.rmtemu.model.table.MatchTable.ConstEntry> e = t.constEntries();
        assertEquals(3, e.size());
        assertEquals(List.of(6L, 0L, 0x0A000000L), java.util.Arrays.stream(e.get(0).key()).boxed().toList());
        assertEquals(List.of(0xFFL, 0L, 0xFF000000L), java.util.Arrays.stream(e.get(0).mask()).boxed().toList());
        assertEquals(99L, e.get(0).high()[1]);
        assertEquals(List.of(17L, 100L, 0L), java.util.Arrays.stream(e.get(1).key()).boxed().toList());
        assertEquals(100L, e.get(1).high()[1]);
        assertEquals(0L, e.get(1).mask()[2], "_ on an lpm field: the empty prefix");
        assertEquals(List.of(0L, 0L, 0L), java.util.Arrays.stream(e.get(2).mask()).boxed().toList(), "_ for the whole key");
        assertEquals(0xFFFFL, e.get(2).high()[1]);
    }

    /** Its legal twin (lo <= hi) is constEntriesOfRangeLpmAndMixedTablesLower's 0 .. 99. */
    @Test
    void anEmptyRangeInAConstEntry() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : range; } actions = { set_port; }"
                        + " const entries = { 17 .. 6 : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "17 .. 6", "the range 17 .. 6 of ipv4.protocol is empty (its low end is above its high end)");
    }

    @Test
    void aMaskedRangeKeyInAConstEntry() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : range; } actions = { set_port; }"
                        + " const entries = { 6 &&& 0xF : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "6 &&& 0xF", "a key of a range const entry is a constant, a constant .. constant, or _");
    }

    /** P4_16 14.2.1.1: an lpm mask is ones then zeros; its legal twin is 0xFF000000 above. */
    @Test
    void anLpmConstEntryWhoseMaskIsNoPrefix() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.dst_addr : lpm; } actions = { set_port; }"
                        + " const entries = { 0x0A00FF00 &&& 0xFF00FF00 : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "0xFF00FF00", "the mask 0xff00ff00 of an lpm key is not a prefix of 32 bits (ones, then zeros)");
    }

    /** P4 has no v / len keyset: / divides, so 0x0A000000 / 8 would silently be the constant 0x01400000. */
    @Test
    void anLpmConstEntryWrittenAsAPrefixLength() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.dst_addr : lpm; } actions = { set_port; }"
                        + " const entries = { 0x0A000000 / 8 : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "/ 8", "/ in a key divides in P4_16; an lpm const entry gives its prefix as VALUE &&& MASK"
                        + " (10.0.0.0/8 is 0x0A000000 &&& 0xFF000000)");
    }

    /** P4_16 14.2.1.4: const entries match in program order, so none names a priority. */
    @Test
    void aPriorityInConstEntries() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : ternary; } actions = { set_port; }"
                        + " const entries = { priority = 10 : 6 : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "10 :", "an entry of const entries has no priority: they match in program order (P4_16 14.2.1.4)");
    }

    /**
     * One prefix length orders an entry: p4c's bmv2 back end refuses "multiple LPM keys in table"
     * (backends/bmv2/common/control.h, ControlConverter::convertTable). Mixed kinds themselves lower
     * (this was "table t mixes match kinds"); the legal twin is one lpm key beside exact ones.
     */
    @Test
    void twoLpmKeys() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    table t { key = { hdr.ipv4.src_addr : lpm; hdr.ipv4.dst_addr : lpm; } actions = { NoAction; } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "hdr.ipv4.dst_addr : lpm", "table t has a second lpm key; a table matches at most one field by lpm");
    }

    @Test
    void randomHash() {
        assertRefused("Hash<bit<16>>(HashAlgorithm_t.CRC32)", "Hash<bit<16>>(HashAlgorithm_t.RANDOM)", "HashAlgorithm_t.RANDOM",
                "hash algorithm HashAlgorithm_t.RANDOM is not supported by the lowering yet (IDENTITY, CRC8, CRC16, CRC32, CRC64 and CUSTOM are)");
    }

    /** Its legal twin (msb = false, extended = false) is P4LanguageTest's ccitt polynomial. */
    @Test
    void anMsbCrcPolynomial() {
        assertRefused("    Hash<bit<16>>(HashAlgorithm_t.CRC32) flow_hash;",
                "    CRCPolynomial<bit<16>>(16w0x1021, false, true, false, 16w0xffff, 16w0) poly;\n"
                        + "    Hash<bit<16>>(HashAlgorithm_t.CUSTOM, poly) flow_hash;",
                "CRCPolynomial<", "CRCPolynomial poly: msb and extended polynomials are not supported by the lowering"
                        + " (msb = false, extended = false are)");
    }

    @Test
    void twoUpdatesInARegisterAction() {
        assertRefused("            value = value + 1;\n", "            value = value + 1;\n            value = value + 2;\n",
                "value = value + 2", "RegisterAction increment: value is updated twice on one path; a stateful ALU updates each word once");
    }

    @Test
    void multiplicationInARegisterAction() {
        assertRefused("            value = value + 1;\n", "            value = value * 3;\n", "* 3",
                "operator * is not an operation of the stateful ALU the lowering supports");
    }

    @Test
    void headerStack() {
        assertRefused("    tcp_h tcp;\n}", "    tcp_h tcp;\n    tcp_h[2] more;\n}", "tcp_h[2] more",
                "member more of header_t: only headers are supported in the headers struct by the lowering (no stacks, unions or nested structs)");
    }
    @Test
    void localOfAStructTypeAssignedAHeader() {
        assertRefused("        ig_tm_md.ucast_egress_port = 1;\n", "        header_t copy;\n        copy = hdr.tcp;\n"
                + "        ig_tm_md.ucast_egress_port = 1;\n", "copy = hdr.tcp", "this assignment of a header or struct is not supported"
                + " by the lowering (a header or struct of the same type, a local or a header of the headers struct, is)");
    }

    /** Entries without const are P4_16 1.2.2's mutable initial entries: not lowered. */
    @Test
    void entriesWithoutConst() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : exact; } actions = { set_port; } entries = { 6 : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "entries = {", "entries of table t without const are not supported by the lowering (const entries are)");
    }

    /** A ternary const entry's key is a constant, a constant &&& mask or _ (P4LanguageGapsTest runs the legal forms). */
    @Test
    void aTernaryConstEntryKeyedByAField() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action set_port(PortId_t p) { ig_tm_md.ucast_egress_port = p; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : ternary; } actions = { set_port; }"
                        + " const entries = { 6 &&& hdr.ipv4.ttl : set_port(2); } }\n"
                        + "    apply {\n        t.apply();\n        ig_md.flow_count",
                "6 &&& hdr.ipv4.ttl", "a key of a ternary const entry is a constant, a constant &&& mask, or _");
    }

    /** Its legal twin is P4LanguageTest's set_port_and_exit, applied alone. */
    @Test
    void anExitingActionWithAHitBranch() {
        assertRefused("    apply {\n        ig_md.flow_count",
                "    action leave() { ig_tm_md.ucast_egress_port = 2; exit; }\n"
                        + "    table t { key = { hdr.ipv4.protocol : exact; } actions = { leave; } }\n"
                        + "    apply {\n        if (t.apply().hit) { ig_tm_md.ucast_egress_port = 3; }\n        ig_md.flow_count",
                "if (t.apply()", "action leave may exit, and statements follow it on the table's hit/miss/action_run branch;"
                        + " rmtemu carries a table's result only within its stage (apply the table alone, then test)");
    }

    @Test
    void valueSetOfAnotherWidthThanItsKey() {
        String src = base().replace("    TofinoIngressParser() tofino_parser;\n",
                "    TofinoIngressParser() tofino_parser;\n    value_set<bit<8>>(4) protos;\n");
        assertTrue(src.contains("            0x0800 : parse_ipv4;\n"));
        assertRefused(src, "            0x0800 : parse_ipv4;\n", "            0x0800 : parse_ipv4;\n            protos : parse_ipv4;\n",
                "protos : parse_ipv4", "value_set protos holds bit<8> values; the key has 16 bits");
    }

    /** rmtemu parses a frame once: an egress parser that parses the ingress headers otherwise is refused. */
    @Test
    void anEgressParserThatParsesDifferently() {
        assertRefused("parser EmptyEgressParser(packet_in pkt, out empty_t hdr, out empty_t eg_md,\n"
                        + "                         out egress_intrinsic_metadata_t eg_intr_md) {\n"
                        + "    state start {\n        transition accept;\n    }\n}",
                "parser EmptyEgressParser(packet_in pkt, out header_t hdr, out empty_t eg_md,\n"
                        + "                         out egress_intrinsic_metadata_t eg_intr_md) {\n"
                        + "    state start {\n        pkt.extract(eg_intr_md);\n        pkt.extract(hdr.ethernet);\n"
                        + "        transition accept;\n    }\n}",
                "parser EmptyEgressParser", "egress parser EmptyEgressParser parses differently from the ingress parser;"
                        + " rmtemu parses a frame once, so egress must parse the same headers the same way (or none)");
    }

    @Test
    void anEgressParserOfAnotherHeadersStruct() {
        String src = base().replace("struct empty_t {}", "struct empty_t {}\nstruct egress_headers_t { ethernet_h ethernet; }");
        assertRefused(src, "out empty_t hdr, out empty_t eg_md,\n                         out egress",
                "out egress_headers_t hdr, out empty_t eg_md,\n                         out egress",
                "parser EmptyEgressParser", "egress parser EmptyEgressParser extracts into egress_headers_t, not header_t;"
                        + " rmtemu parses a frame once, so egress sees the ingress headers (the same struct) or none (an empty struct)");
    }

    /** Like a compiler, the lowering reports every refusal it finds, in the order of the program. */
    @Test
    void everyRefusalIsReported() {
        String text = base().replace("    Register<bit<32>, bit<16>>(65536) flow_count;",
                        "    RegisterParam<bit<12>>(12w0) rp;\n    Register<bit<32>, bit<16>>(65536) flow_count;")
                .replace("            value = value + 1;\n", "            value = value * 3;\n")
                .replace("        ig_tm_md.ucast_egress_port = 1;\n", "        ig_tm_md.ucast_egress_port = 1;\n        ig_tm_md.copy_to_cpu = 1;\n");
        List<String> lines = P4Programs.text(FILE, text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
        assertEquals(List.of(FILE + ":" + at(text, "RegisterParam<") + ": RegisterParam rp: unsupported type bit<12> (bit<8>, int<8>,"
                        + " bit<16>, int<16>, bit<32> and int<32> are supported)",
                FILE + ":" + at(text, "* 3") + ": operator * is not an operation of the stateful ALU the lowering supports",
                FILE + ":" + at(text, "ig_tm_md.copy_to_cpu") + ": intrinsic metadata ig_tm_md.copy_to_cpu is not supported by the lowering yet"),
                lines);
    }

    private static final String REGISTER = "    Register<bit<32>, bit<16>>(65536) flow_count;";
    private static final String INCREMENT = "            value = value + 1;\n";

    /**
     * bf-p4c extract_maupipe.cpp AttachTables::InitializeRegisterParams::end_apply: a register-file row
     * holds bit<8>, int<8>, bit<16>, int<16>, bit<32> or int<32>; the legal twin (bit<32>) is lowered in
     * P4RegisterParamTest (programs), and int<8> here.
     */
    @Test
    void registerParamOfAnUnsupportedType() {
        assertRefused(REGISTER, "    RegisterParam<bit<12>>(12w1) rp;\n" + REGISTER, "RegisterParam<",
                "RegisterParam rp: unsupported type bit<12> (bit<8>, int<8>, bit<16>, int<16>, bit<32> and int<32> are supported)");
        String legal = base().replace(REGISTER, "    RegisterParam<int<8>>(8s3) rp;\n" + REGISTER)
                .replace(INCREMENT, "            value = value + rp.read();\n");
        P4Programs.Result r = P4Programs.text(FILE, legal, PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        dev.rmtemu.model.register.RegisterArray a = r.program().register("flow_count");
        assertEquals(List.of(new dev.rmtemu.model.register.RegisterArray.Param("rp", 8, true, 3)), a.params());
        assertEquals(-1L, a.params().get(0).row(0xFF), "an int<8> row is sign-extended");
    }

    /** bf-p4c InitializeRegisterParams::preorder: "RegisterParam cannot be used outside RegisterAction". */
    @Test
    void registerParamReadOutsideARegisterAction() {
        String decl = base().replace(REGISTER, "    RegisterParam<bit<32>>(32w5) rp;\n" + REGISTER);
        assertRefused(decl, "    apply {\n        ig_md.flow_count = increment", "    apply {\n        ig_md.flow_count = rp.read();\n"
                + "        ig_md.flow_count = increment", "rp.read()",
                "RegisterParam rp cannot be used outside a RegisterAction");
    }

    /**
     * bf-p4c InitializeRegisterParams::preorder: a param is bound to one stateful ALU, "RegisterParam
     * cannot be used with multiple Registers"; the refusal points at the read in the later action
     * (by name: increment after bump). Its legal twin, two actions of one register, is in P4RegisterParamTest.
     */
    @Test
    void registerParamReadByTwoRegisters() {
        String src = base().replace(REGISTER, "    RegisterParam<bit<32>>(32w5) rp;\n" + REGISTER
                        + "\n    Register<bit<32>, bit<16>>(1024) other;\n"
                        + "    RegisterAction<bit<32>, bit<16>, bit<32>>(other) bump = {\n"
                        + "        void apply(inout bit<32> value) {\n            value = value + rp.read();\n        }\n    };")
                .replace(INCREMENT, "            value = rp.read() + value;\n");
        assertRefused(src, "rp.read() + value", "rp.read() + value", "rp.read() + value",
                "RegisterParam rp cannot be used with multiple Registers (other and flow_count)");
    }

    /** Its legal twin, a struct of two words, is P4PairRegisterTest's pair_t. */
    @Test
    void registerOfAStructOfThreeWords() {
        String src = base().replace("struct empty_t {}", "struct empty_t {}\nstruct triple_t { bit<32> a; bit<32> b; bit<32> c; }");
        assertRefused(src, "    Register<bit<32>, bit<16>>(65536) flow_count;",
                "    Register<bit<32>, bit<16>>(65536) flow_count;\n    Register<triple_t, bit<16>>(8) triples;",
                "Register<triple_t", "Register triples of triple_t: a register cell is one word or a struct of two words of one width"
                        + " (a lo/hi pair)");
    }

    /**
     * rmtemu's register action has one output source (Tofino 1's stateful ALU one output ALU;
     * p4c's bf-p4c/mau/stateful_alu.cpp, CreateSaluInstruction, maps the apply body onto it).
     * Its legal twin, one word returned from both branches, is the base program's body.
     */
    @Test
    void branchesReturningDifferentWords() {
        assertRefused("            value = value + 1;\n            rv = value;\n",
                "            if (value > 5) {\n                rv = value;\n                value = value + 1;\n            } else {\n"
                        + "                value = value + 1;\n                rv = value;\n            }\n",
                "rv = value;\n            }\n", "RegisterAction increment: rv is set from OLD_LO and NEW_LO; a stateful ALU has one"
                        + " output word");
    }

    private static String at(String text, String what) {
        int offset = text.indexOf(what);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        return line + ":" + (offset - text.lastIndexOf('\n', offset - 1));
    }

    /** The base program with two pair structs declared beside its metadata. */
    private static String withPairStructs() {
        return base().replace("struct empty_t {}", "struct empty_t {}\nstruct pair_t {\n    bit<32> lo;\n    bit<32> hi;\n}\n"
                + "struct odd_pair_t {\n    bit<32> lo;\n    bit<16> hi;\n}");
    }

    /** The base program's register action with its body replaced. */
    private static void assertRefusedBody(String body, String at, String message) {
        assertRefused("            value = value + 1;\n            rv = value;\n", body, at, message);
    }

    /**
     * A Tofino stateful ALU has two comparators (bf-p4c mau/salu_inst.cpp,
     * CreateSaluInstruction::setupCmp): a third comparison is refused; two are lowered
     * (P4RegisterActionLoweringTest, and hashpipe.p4's merge actions).
     */
    @Test
    void threeConditionsInARegisterAction() {
        assertRefusedBody("""
                            if (value == 1) {
                                value = 2;
                            } else if (value == 3) {
                                value = 4;
                            } else if (value == 5) {
                                value = 6;
                            }
                """, "== 5",
                "RegisterAction increment: a stateful ALU evaluates at most 2 conditions");
    }

    /** A stateful ALU is fed two PHV words (bf-p4c mau/input_xbar.cpp, the SALU's phv_lo/phv_hi sources). */
    @Test
    void threePhvFieldsInARegisterAction() {
        assertRefusedBody("""
                            if (value == hdr.ipv4.src_addr) {
                                value = hdr.ipv4.dst_addr;
                            } else {
                                value = (bit<32>) hdr.tcp.src_port;
                            }
                """, "hdr.tcp.src_port;",
                "a stateful ALU reads at most two PHV fields (its lo and hi inputs); hdr.ipv4.src_addr and hdr.ipv4.dst_addr"
                        + " are read already");
        assertRefusedBody("""
                            if (value == hdr.ipv4.src_addr) {
                                value = hdr.ipv4.dst_addr;
                            } else {
                                value = ig_md.flow_count;
                            }
                """, "ig_md.flow_count;",
                "a stateful ALU reads at most two PHV fields (its lo and hi inputs); hdr.ipv4.src_addr and hdr.ipv4.dst_addr"
                        + " are read already");
    }

    /**
     * A field cast to the cell's word is the ALU's input as it is (lossradar.p4's batch state
     * widens its 31- and 16-bit inputs so); rmtemu's stateful ALU takes an input field whole,
     * so a cast that narrows a wider field is refused at the cast.
     */
    @Test
    void aNarrowingCastInARegisterAction() {
        assertRefusedBody("""
                            value = (bit<32>) hdr.ethernet.dst_addr;
                """, "(bit<32>) hdr.ethernet.dst_addr",
                "a stateful ALU operand is the register value, a constant, a RegisterParam or a PHV field");
    }

    /** A stateful ALU has one output word (bf-p4c mau/salu_inst.cpp, CreateSaluInstruction's output). */
    @Test
    void returnValueFromTwoWords() {
        assertRefused(withPairStructs(), "    Register<bit<32>, bit<16>>(65536) flow_count;\n    RegisterAction<bit<32>, bit<16>, bit<32>>(flow_count) increment = {\n"
                        + "        void apply(inout bit<32> value, out bit<32> rv) {\n            value = value + 1;\n            rv = value;\n",
                "    Register<pair_t, bit<16>>(65536) flow_count;\n    RegisterAction<pair_t, bit<16>, bit<32>>(flow_count) increment = {\n"
                        + "        void apply(inout pair_t value, out bit<32> rv) {\n"
                        + "            if (value.lo == 0) {\n                rv = value.lo;\n            } else {\n"
                        + "                rv = value.hi;\n            }\n",
                "rv = value.hi", "RegisterAction increment: rv is set from OLD_LO and OLD_HI; a stateful ALU has one output word");
    }

    @Test
    void pairOfUnequalWords() {
        assertRefused(withPairStructs(), "    Register<bit<32>, bit<16>>(65536) flow_count;",
                        "    Register<odd_pair_t, bit<16>>(65536) flow_count;",
                "Register<odd_pair_t", "Register flow_count of odd_pair_t: a register cell is one word or a struct of two words of one"
                        + " width (a lo/hi pair)");
    }

    @Test
    void oneHashWithTwoFieldLists() {
        assertRefused("        ig_tm_md.ucast_egress_port = 1;\n",
                "        ig_tm_md.ucast_egress_port = 1;\n        ig_tm_md.qid = flow_hash.get({hdr.ipv4.src_addr});\n",
                "flow_hash.get({hdr.ipv4.src_addr})",
                "Hash flow_hash is used with two field lists; the lowering gives each Hash instance one list of fields");
    }
}

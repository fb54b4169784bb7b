package dev.rmtemu.programs.p4;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.check.ResourceReport;
import dev.rmtemu.model.check.TableUsage;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Backend;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * P4 language constructs of issue 32 on packets: each small TNA program is lowered, placed on
 * tofino1 and replayed; the departures (ports) and registers show what it did. Each construct
 * that stays refused in some form has that form's {@code FILE:LINE:COL} message checked.
 */
class P4LanguageGapsTest {
    private static final String FILE = "lang.p4";

    /** A TNA program over Ethernet: {@code declarations} before the ingress control, {@code ingress} its locals and apply. */
    static String program(String declarations, String ingress) {
        return """
                #include <core.p4>
                #include <tna.p4>
                header ethernet_h {
                    bit<48> dst_addr;
                    bit<48> src_addr;
                    bit<16> ether_type;
                }
                struct header_t {
                    ethernet_h ethernet;
                }
                struct metadata_t {
                    bit<8> a;
                    bit<8> b;
                    bit<16> c;
                    bit<32> d;
                    int<8> s;
                }
                struct empty_t {}
                parser SwitchIngressParser(packet_in pkt, out header_t hdr, out metadata_t ig_md,
                                           out ingress_intrinsic_metadata_t ig_intr_md) {
                    state start {
                        pkt.extract(ig_intr_md);
                        pkt.advance(PORT_METADATA_SIZE);
                        pkt.extract(hdr.ethernet);
                        transition accept;
                    }
                }
                """ + declarations + """
                control SwitchIngress(inout header_t hdr, inout metadata_t ig_md,
                                      in ingress_intrinsic_metadata_t ig_intr_md,
                                      in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
                                      inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
                                      inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
                """ + ingress + """
                }
                control SwitchIngressDeparser(packet_out pkt, inout header_t hdr, in metadata_t ig_md,
                                              in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
                    apply {
                        pkt.emit(hdr);
                    }
                }
                parser EmptyEgressParser(packet_in pkt, out empty_t hdr, out empty_t eg_md,
                                         out egress_intrinsic_metadata_t eg_intr_md) {
                    state start {
                        transition accept;
                    }
                }
                control EmptyEgress(inout empty_t hdr, inout empty_t eg_md,
                                    in egress_intrinsic_metadata_t eg_intr_md,
                                    in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
                                    inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
                                    inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
                    apply {}
                }
                control EmptyEgressDeparser(packet_out pkt, inout empty_t hdr, in empty_t eg_md,
                                            in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
                    apply {}
                }
                Pipeline(SwitchIngressParser(), SwitchIngress(), SwitchIngressDeparser(),
                         EmptyEgressParser(), EmptyEgress(), EmptyEgressDeparser()) pipe;
                Switch(pipe) main;
                """;
    }

    static StageProgram compile(String text) {
        return compile(text, P4Programs.DEFAULT_RANDOM_SEED);
    }

    static StageProgram compile(String text, long randomSeed) {
        return ProgramCompiler.compile(P4Programs.text(FILE, text, PreprocessorOptions.defaults(), randomSeed).require(),
                P4Twins.TOFINO1).requireAccepted().program();
    }

    /** The one error of {@code text}: {@code FILE:LINE:COL: message}, the position that of {@code at}'s first occurrence. */
    static void assertRefused(String text, String at, String message) {
        int offset = text.indexOf(at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        List<String> errors = P4Programs.text(FILE, text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), errors);
    }

    /** An Ethernet frame from {@code src} to {@code dst} of {@code etherType}, 64 bytes. */
    static byte[] frame(long dst, long src, int etherType) {
        byte[] f = frame(etherType);
        for (int k = 0; k < 6; k++) {
            f[k] = (byte) (dst >>> (40 - 8 * k));
            f[6 + k] = (byte) (src >>> (40 - 8 * k));
        }
        return f;
    }

    /** An Ethernet frame of {@code etherType}, 64 bytes, its first payload bytes {@code tail}. */
    static byte[] frame(int etherType, int... tail) {
        byte[] f = new byte[64];
        f[12] = (byte) (etherType >>> 8);
        f[13] = (byte) etherType;
        for (int i = 0; i < tail.length; i++) {
            f[14 + i] = (byte) tail[i];
        }
        return f;
    }

    /** The egress port of each departure, in order. */
    static List<Long> ports(P4Twins.Run r) {
        List<Long> out = new ArrayList<>();
        for (int i = 1; i < r.departures().size(); i += 3) {
            out.add(r.departures().get(i));
        }
        return out;
    }

    /**
     * Replays the frames on the generated code, and again on the interpreter: the two back ends
     * give the same departures, drops and registers (the run on the generated code is returned).
     */
    static P4Twins.Run run(StageProgram p, byte[]... frames) {
        List<P4Twins.Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < frames.length; i++) {
            arrivals.add(new P4Twins.Arrival(i * 200L, 0, P4Twins.record(frames[i])));
        }
        P4Twins.Run compiled = P4Twins.run(p, e -> { }, arrivals);
        P4Twins.Run interpreted = P4Twins.run(p, Backend.INTERPRETER, e -> { }, arrivals);
        compiled.assertSameTraffic(interpreted);
        compiled.assertSameRegisters(interpreted, p);
        return compiled;
    }

    /** One control, two instances with different constructor constants: each its own port, register and cell. */
    private static final String COUNT_CONTROL = """
            control Count(inout ingress_intrinsic_metadata_for_tm_t tm)(PortId_t port, bit<8> slot) {
                Register<bit<32>, bit<8>>(4) hits;
                RegisterAction<bit<32>, bit<8>, bit<32>>(hits) bump = {
                    void apply(inout bit<32> value) {
                        value = value + 1;
                    }
                };
                apply {
                    tm.ucast_egress_port = port;
                    bump.execute(slot);
                }
            }
            """;

    @Test
    void aControlInstantiatedTwiceWithDifferentConstantsKeepsTwoRegistersAndSendsToItsOwnPort() {
        StageProgram p = compile(program(COUNT_CONTROL, """
                    Count(3, 1) to_three;
                    Count(5, 2) to_five;
                    apply {
                        if (hdr.ethernet.ether_type == 0x0800) {
                            to_three.apply(ig_tm_md);
                        } else {
                            to_five.apply(ig_tm_md);
                        }
                    }
                """));
        P4Twins.Run r = run(p, frame(0x0800), frame(0x86DD), frame(0x0800), frame(0x0800), frame(0x88B5));
        assertEquals(List.of(3L, 5L, 3L, 3L, 5L), ports(r));
        assertArrayEquals(new long[] {0, 3, 0, 0}, r.engine().state().snapshot(0, "to_three.hits"));
        assertArrayEquals(new long[] {0, 0, 2, 0}, r.engine().state().snapshot(0, "to_five.hits"));
    }

    @Test
    void aControlInstanceAppliedTwiceIsRefused() {
        String text = program(COUNT_CONTROL, """
                    Count(3, 1) to_three;
                    apply {
                        to_three.apply(ig_tm_md);
                        to_three.apply(ig_tm_md);
                    }
                """);
        assertRefused(text, "to_three.apply(ig_tm_md);\n    }", "control instance to_three is applied twice; each instance's"
                + " tables are applied once (instantiate Count again)");
    }

    /** CRC-64/ECMA-182 bit by bit, as the CRC catalogue defines it (MSB first, init 0, no final XOR). */
    static long crc64Ecma(byte[] data) {
        long r = 0;
        for (byte b : data) {
            r ^= (long) (b & 0xFF) << 56;
            for (int bit = 0; bit < 8; bit++) {
                r = r < 0 ? (r << 1) ^ 0x42F0E1EBA9EA3693L : r << 1;
            }
        }
        return r;
    }

    /**
     * TNA's HashAlgorithm_t.CRC64 is bf-p4c's crc_64 (bf-utils bfn_hash_algorithm.c
     * standard_crc_algs: poly 0x42f0e1eba9ea3693, not reversed, init 0, final xor 0): a
     * Hash<bit<32>> of it gives the CRC's low 32 bits, here stored per frame in a register cell.
     */
    @Test
    void aCrc64HashGivesTheLowBitsOfCrc64Ecma() {
        assertEquals(0x6C40DF5F0B497347L, crc64Ecma("123456789".getBytes(StandardCharsets.US_ASCII)),
                "the reference's catalogue check value");
        StageProgram p = compile(program("", """
                    Hash<bit<32>>(HashAlgorithm_t.CRC64) src_hash;
                    Register<bit<32>, bit<8>>(256) hashes;
                    RegisterAction<bit<32>, bit<8>, bit<32>>(hashes) keep = {
                        void apply(inout bit<32> value) {
                            value = ig_md.d;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.dst_addr[7:0];
                        ig_md.d = src_hash.get({hdr.ethernet.src_addr});
                        keep.execute(ig_md.a);
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """));
        long[] sources = {0x020000000001L, 0x0A1B2C3D4E5FL, 0xFFFFFFFFFFFEL, 0x001122334455L};
        byte[][] frames = new byte[sources.length][];
        long[] expected = new long[sources.length];
        for (int i = 0; i < sources.length; i++) {
            frames[i] = frame(i, sources[i], 0x0800);
            expected[i] = crc64Ecma(Arrays.copyOfRange(frames[i], 6, 12)) & 0xFFFFFFFFL;
        }
        P4Twins.Run r = run(p, frames);
        assertEquals(List.of(2L, 2L, 2L, 2L), ports(r));
        assertArrayEquals(expected, Arrays.copyOf(r.engine().state().snapshot(0, "hashes"), sources.length));
    }

    private static final String RANDOM = """
                Random<bit<16>>() rng;
                Register<bit<16>, bit<8>>(256) draws;
                RegisterAction<bit<16>, bit<8>, bit<16>>(draws) keep = {
                    void apply(inout bit<16> value) {
                        value = ig_md.c;
                    }
                };
                apply {
                    ig_md.a = hdr.ethernet.dst_addr[7:0];
                    ig_md.c = rng.get();
                    keep.execute(ig_md.a);
                    ig_tm_md.ucast_egress_port = 2;
                }
            """;

    /** The cells of {@code draws} after 8 frames (cell i holds frame i's number) through the Random program of {@code seed}. */
    private static long[] draws(long seed) {
        byte[][] frames = new byte[8][];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = frame(i, 0x020000000001L, 0x0800);
        }
        P4Twins.Run r = run(compile(program("", RANDOM), seed), frames);
        assertEquals(List.of(2L, 2L, 2L, 2L, 2L, 2L, 2L, 2L), ports(r));
        return Arrays.copyOf(r.engine().state().snapshot(0, "draws"), frames.length);
    }

    /** Random<bit<16>>: each packet its number, the same in every run of one seed, others under another seed. */
    @Test
    void randomNumbersRepeatUnderOneSeedAndDifferUnderAnother() {
        long[] first = draws(7);
        assertArrayEquals(first, draws(7), "the same seed, the same numbers");
        assertTrue(Arrays.stream(first).distinct().count() >= 7, "a number per packet: " + Arrays.toString(first));
        long[] other = draws(8);
        long same = 0;
        for (int i = 0; i < first.length; i++) {
            same += first[i] == other[i] ? 1 : 0;
        }
        assertTrue(same <= 1, "another seed, other numbers: " + Arrays.toString(first) + " vs " + Arrays.toString(other));
    }

    /**
     * |+| and |-| on bit<8> and int<8>, and ++: per frame, the source address's low bytes x, y
     * (unsigned) and sx, sy (signed) give x |+| y, x |-| y, sx |+| sy and sx |-| sy, packed by
     * concatenation into one 32-bit cell; 0xA5 ++ y (a constant above a field) and 8w0 ++ x (a
     * zero extension) fill a 16-bit cell each.
     */
    @Test
    void saturatingArithmeticAndConcatenationOnPackets() {
        StageProgram p = compile(program("", """
                    bit<8> x;
                    bit<8> y;
                    int<8> sx;
                    int<8> sy;
                    bit<8> add;
                    bit<8> sub;
                    int<8> sadd;
                    int<8> ssub;
                    bit<16> high;
                    bit<16> low;
                    Register<bit<32>, bit<8>>(256) packed;
                    RegisterAction<bit<32>, bit<8>, bit<32>>(packed) keep = {
                        void apply(inout bit<32> value) {
                            value = ig_md.d;
                        }
                    };
                    Register<bit<16>, bit<8>>(256) tagged;
                    RegisterAction<bit<16>, bit<8>, bit<16>>(tagged) tag = {
                        void apply(inout bit<16> value) {
                            value = ig_md.c;
                        }
                    };
                    Register<bit<16>, bit<8>>(256) widened;
                    RegisterAction<bit<16>, bit<8>, bit<16>>(widened) widen = {
                        void apply(inout bit<16> value) {
                            value = high;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.dst_addr[7:0];
                        y = hdr.ethernet.src_addr[7:0];
                        x = hdr.ethernet.src_addr[15:8];
                        sy = (int<8>) hdr.ethernet.src_addr[23:16];
                        sx = (int<8>) hdr.ethernet.src_addr[31:24];
                        add = x |+| y;
                        sub = x |-| y;
                        sadd = sx |+| sy;
                        ssub = sx |-| sy;
                        ig_md.c = 8w0xA5 ++ y;
                        high = (bit<8>) sadd ++ (bit<8>) ssub;
                        low = sub ++ add;
                        ig_md.d = high ++ low;
                        keep.execute(ig_md.a);
                        tag.execute(ig_md.a);
                        high = 8w0 ++ x;
                        widen.execute(ig_md.a);
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """));
        // (x, y, sx, sy): no saturation, unsigned saturation both ways, signed saturation both ways, the edges
        int[][] bytes = {{10, 3, 5, -7}, {250, 10, 100, 100}, {3, 10, -100, 100}, {255, 255, -128, -128}, {0, 0, 127, -1},
            {128, 127, -1, 127}};
        byte[][] frames = new byte[bytes.length][];
        long[] packed = new long[bytes.length];
        long[] tagged = new long[bytes.length];
        long[] widened = new long[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            int x = bytes[i][0];
            int y = bytes[i][1];
            int sx = bytes[i][2];
            int sy = bytes[i][3];
            long src = 0x02L << 40 | (long) (sx & 0xFF) << 24 | (long) (sy & 0xFF) << 16 | (long) x << 8 | y;
            frames[i] = frame(i, src, 0x0800);
            long add = Math.min(x + y, 255);
            long sub = Math.max(x - y, 0);
            long sadd = Math.max(-128, Math.min(127, sx + sy)) & 0xFF;
            long ssub = Math.max(-128, Math.min(127, sx - sy)) & 0xFF;
            packed[i] = sadd << 24 | ssub << 16 | sub << 8 | add;
            tagged[i] = 0xA500 | y;
            widened[i] = x;
        }
        assertEquals(0x7F00F0FFL, packed[1], "the reference, by hand: 127, 0, 240, 255");
        P4Twins.Run r = run(p, frames);
        assertEquals(List.of(2L, 2L, 2L, 2L, 2L, 2L), ports(r));
        assertArrayEquals(packed, Arrays.copyOf(r.engine().state().snapshot(0, "packed"), bytes.length));
        assertArrayEquals(tagged, Arrays.copyOf(r.engine().state().snapshot(0, "tagged"), bytes.length));
        assertArrayEquals(widened, Arrays.copyOf(r.engine().state().snapshot(0, "widened"), bytes.length));
    }

    /** |+| on int<64>: wider than tofino1's widest (32-bit) PHV container, which the ALU saturates in (bf-p4c limitWidth). */
    @Test
    void saturatingArithmeticWiderThanAContainerIsRefusedByTheCompiler() {
        String text = program("", """
                    bit<64> wide;
                    apply {
                        wide = hdr.ethernet.src_addr ++ hdr.ethernet.ether_type;
                        wide = wide |+| 64w1;
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """);
        StageProgram lowered = P4Programs.text(FILE, text, PreprocessorOptions.defaults(), P4Programs.DEFAULT_RANDOM_SEED).require();
        List<String> lines = ProgramCompiler.compile(lowered, P4Twins.TOFINO1).lines();
        assertTrue(lines.stream().anyMatch(l -> l.contains("saturating '|+|' at 64 bits; it may not exceed tofino1's widest PHV"
                + " container (32 b)")), () -> String.join("\n", lines));
    }

    /** A keyless table and a keyless table with a const default action, as TNA programs write them. */
    private static final String KEYLESS = """
                action set_port(PortId_t port) {
                    ig_tm_md.ucast_egress_port = port;
                }
                action mark(bit<8> v) {
                    ig_md.b = v;
                }
                table forward {
                    actions = { set_port; }
                    default_action = set_port(3);
                }
                table tag {
                    actions = { mark; }
                    const default_action = mark(7);
                    size = 1;
                }
                Register<bit<8>, bit<8>>(256) marks;
                RegisterAction<bit<8>, bit<8>, bit<8>>(marks) keep = {
                    void apply(inout bit<8> value) {
                        value = ig_md.b;
                    }
                };
                Register<bit<32>, bit<8>>(256) hits;
                RegisterAction<bit<32>, bit<8>, bit<32>>(hits) note = {
                    void apply(inout bit<32> value) {
                        value = ig_md.d;
                    }
                };
                apply {
                    ig_md.a = hdr.ethernet.dst_addr[7:0];
                    ig_md.d = 1;
                    forward.apply();
                    if (tag.apply().hit) {
                        ig_md.d = 99;
                    }
                    keep.execute(ig_md.a);
                    note.execute(ig_md.a);
                }
            """;

    /**
     * Keyless tables (no key: every packet misses, so the default action runs): forward's
     * default sends to port 3 until the control plane sets it to port 5 (table_set_default);
     * tag's const default marks 7 and its .hit branch never runs; neither takes match memory
     * (bf-p4c lays a 0-bit match out with no match data, table_layout.cpp
     * setup_layout_option_no_match); an entry cannot be added to one.
     */
    @Test
    void keylessTablesRunTheirDefaultActionOnEveryPacket() {
        StageProgram p = compile(program("", KEYLESS));
        P4Twins.Run asDeclared = run(p, frame(0, 0x020000000001L, 0x0800), frame(1, 0x020000000001L, 0x86DD));
        assertEquals(List.of(3L, 3L), ports(asDeclared));
        assertArrayEquals(new long[] {7, 7}, Arrays.copyOf(asDeclared.engine().state().snapshot(0, "marks"), 2));
        assertArrayEquals(new long[] {1, 1}, Arrays.copyOf(asDeclared.engine().state().snapshot(0, "hits"), 2), "never a hit");
        List<P4Twins.Arrival> arrivals = List.of(new P4Twins.Arrival(0, 0, P4Twins.record(frame(2, 0x020000000001L, 0x0800))));
        P4Twins.Run changed = P4Twins.run(p, e -> e.state().table("forward").setDefault(1, 5), arrivals);
        assertEquals(List.of(5L), ports(changed));
        UserError entry = assertThrows(UserError.class, () -> changed.engine().state().addExact("forward", new long[0], 1, 4));
        assertEquals("table forward has no key: it holds no entries, only its default action (table_set_default)", entry.getMessage());
        ResourceReport resources = ResourceChecker.check(p, P4Twins.TOFINO1);
        for (String table : List.of("forward", "tag")) {
            TableUsage u = resources.tables().stream().filter(t -> t.name().equals(table)).findFirst().orElseThrow();
            assertEquals("keyless", u.kind());
            assertEquals(0, u.srams() + u.tcams(), table + " takes no match memory");
        }
    }

    @Test
    void aKeylessTableWithEntriesIsRefused() {
        String text = program("", """
                    action set_port(PortId_t port) {
                        ig_tm_md.ucast_egress_port = port;
                    }
                    table forward {
                        actions = { set_port; }
                        const entries = {
                            0 : set_port(1);
                        }
                    }
                    apply {
                        forward.apply();
                    }
                """);
        assertRefused(text, "const entries", "table forward has no key, so it cannot have entries");
    }

    /**
     * Locals of header and struct type: a copy of the Ethernet header keeps its validity (and
     * an untouched header local is invalid), also when a sub-control copies it into its out
     * parameter; a struct filled member by member and copied whole;
     * the copy's members, concatenated, land in a register cell per frame.
     */
    @Test
    void headerAndStructLocalsCopyMembersAndValidity() {
        StageProgram p = compile(program("""
                struct pair_t {
                    bit<8> x;
                    bit<8> y;
                }
                control Save(in ethernet_h src, out ethernet_h dst) {
                    apply {
                        dst = src;
                    }
                }
                """, """
                    Save() save;
                    ethernet_h saved;
                    ethernet_h other;
                    ethernet_h blank;
                    pair_t first;
                    Register<bit<16>, bit<8>>(256) pairs;
                    RegisterAction<bit<16>, bit<8>, bit<16>>(pairs) keep = {
                        void apply(inout bit<16> value) {
                            value = ig_md.c;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.dst_addr[7:0];
                        saved = hdr.ethernet;
                        save.apply(hdr.ethernet, other);
                        first.x = saved.src_addr[7:0];
                        first.y = saved.dst_addr[15:8];
                        pair_t second = first;
                        ig_md.c = second.x ++ second.y;
                        keep.execute(ig_md.a);
                        if (saved.isValid() && other.isValid() && other.ether_type == 0x0800 && !blank.isValid()) {
                            ig_tm_md.ucast_egress_port = 2;
                        } else {
                            ig_tm_md.ucast_egress_port = 7;
                        }
                    }
                """));
        byte[][] frames = new byte[4][];
        long[] expected = new long[frames.length];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = frame((0x40L + i) << 8 | i, 0x020000000010L + i, 0x0800);
            expected[i] = (0x10L + i) << 8 | (0x40 + i);
        }
        P4Twins.Run r = run(p, frames);
        assertEquals(List.of(2L, 2L, 2L, 2L), ports(r));
        assertArrayEquals(expected, Arrays.copyOf(r.engine().state().snapshot(0, "pairs"), frames.length));
    }

    /** A header assigned from a header of another type: refused where written. */
    @Test
    void aHeaderLocalAssignedAnotherTypeIsRefused() {
        String text = program("""
                header tag_h {
                    bit<8> kind;
                }
                """, """
                    tag_h tag;
                    apply {
                        tag = hdr.ethernet;
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """);
        assertRefused(text, "tag = hdr.ethernet;", "this assignment of a header or struct is not supported by the lowering (a header"
                + " or struct of the same type, a local or a header of the headers struct, is)");
    }

    /**
     * exit in a sub-control ends the whole ingress control (P4_16 12.5; p4c's RemoveExits):
     * IPv6 frames leave the Guard control by exit on port 4, and the caller's later statement
     * (IPv4 to port 5) does not run for them; the rest go on through both.
     */
    @Test
    void exitInASubControlEndsTheWholeControl() {
        StageProgram p = compile(program("""
                control Guard(inout header_t h, inout ingress_intrinsic_metadata_for_tm_t tm) {
                    apply {
                        if (h.ethernet.ether_type == 0x86DD) {
                            tm.ucast_egress_port = 4;
                            exit;
                        }
                        tm.ucast_egress_port = 3;
                    }
                }
                """, """
                    Guard() guard;
                    apply {
                        guard.apply(hdr, ig_tm_md);
                        if (hdr.ethernet.ether_type != 0x88B5) {
                            ig_tm_md.ucast_egress_port = 5;
                        }
                    }
                """));
        assertEquals(List.of(5L, 4L, 3L, 4L, 5L),
                ports(run(p, frame(0x0800), frame(0x86DD), frame(0x88B5), frame(0x86DD), frame(0x0806))));
    }

    /**
     * Const entries of a ternary table: masks, _ and the first matching entry winning (P4_16
     * 14.2.1.4), with no control plane: 0x0800 exactly to port 2, any 0x86xx to port 3, an odd
     * last destination byte to port 4 (after those), and anything else to port 5 by the last
     * entry's _.
     */
    @Test
    void ternaryConstEntriesMatchInTheirOrder() {
        StageProgram p = compile(program("", """
                    action set_port(PortId_t port) {
                        ig_tm_md.ucast_egress_port = port;
                    }
                    table classify {
                        key = {
                            hdr.ethernet.ether_type : ternary;
                            hdr.ethernet.dst_addr : ternary;
                        }
                        actions = { set_port; }
                        const entries = {
                            (0x0800, _) : set_port(2);
                            (0x8600 &&& 0xFF00, _) : set_port(3);
                            (_, 1 &&& 1) : set_port(4);
                            _ : set_port(5);
                        }
                    }
                    apply {
                        classify.apply();
                    }
                """));
        assertEquals(List.of(2L, 2L, 3L, 3L, 4L, 5L, 4L),
                ports(run(p, frame(2, 1, 0x0800), frame(3, 1, 0x0800), frame(2, 1, 0x86DD), frame(3, 1, 0x8600),
                        frame(3, 1, 0x0806), frame(2, 1, 0x0806), frame(0xFF, 1, 0x88B5))));
    }

    /**
     * A DirectRegister no table's registers property names has no cells: refused where it is
     * declared (P4DirectRegisterTest runs one that a table names).
     */
    @Test
    void aDirectRegisterOfNoTableIsRefused() {
        String direct = program("", """
                    DirectRegister<bit<32>>() seen;
                    apply {
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """);
        assertRefused(direct, "DirectRegister<bit<32>>() seen;",
                "DirectRegister seen is attached to no table (name it in a table's registers property)");
    }

    /**
     * int<W>, two's complement: the frame's last destination byte as an int<8>, plus 8s100
     * (wrapping at 8 bits), then signed comparisons with constants pick the port: below -100 to
     * port 3, below 0 to 4, at most 20 to 5, above 20 to 6.
     */
    @Test
    void signedArithmeticAndComparisonsFollowTwosComplement() {
        StageProgram p = compile(program("", """
                    apply {
                        ig_md.s = (int<8>) hdr.ethernet.dst_addr[7:0];
                        ig_md.s = ig_md.s + 8s100;
                        if (ig_md.s < -100) {
                            ig_tm_md.ucast_egress_port = 3;
                        } else if (ig_md.s < 0) {
                            ig_tm_md.ucast_egress_port = 4;
                        } else if (20 >= ig_md.s) {
                            ig_tm_md.ucast_egress_port = 5;
                        } else {
                            ig_tm_md.ucast_egress_port = 6;
                        }
                    }
                """));
        // bytes:            -100+100=0, 27+100=127, 28+100=-128, -1+100=99, -128+100=-28, -80+100=20, -79+100=21, 100+100=-56
        int[] bytes = {0x9C, 27, 28, 0xFF, 0x80, 0xB0, 0xB1, 100};
        byte[][] frames = new byte[bytes.length][];
        for (int i = 0; i < bytes.length; i++) {
            frames[i] = frame(bytes[i], 0x020000000001L, 0x0800);
        }
        assertEquals(List.of(5L, 6L, 3L, 6L, 4L, 5L, 6L, 4L), ports(run(p, frames)));
    }

    /**
     * int<W>'s >> is arithmetic (the sign copied in) and TNA's min and max of int<W> order by
     * the signed value: per frame, s = the source address's last byte as an int<8>, then
     * s >> 2, min(s, -3) and max(s, -3) packed into a register cell.
     */
    @Test
    void arithmeticShiftAndSignedMinMaxOnPackets() {
        StageProgram p = compile(program("", """
                    int<8> half;
                    int<8> low;
                    int<8> high;
                    bit<8> h;
                    bit<16> pair;
                    Register<bit<32>, bit<8>>(256) results;
                    RegisterAction<bit<32>, bit<8>, bit<32>>(results) keep = {
                        void apply(inout bit<32> value) {
                            value = ig_md.d;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.dst_addr[7:0];
                        ig_md.s = (int<8>) hdr.ethernet.src_addr[7:0];
                        half = ig_md.s >> 2;
                        low = min(ig_md.s, -3);
                        high = max(ig_md.s, -3);
                        h = (bit<8>) half;
                        pair = (bit<8>) low ++ (bit<8>) high;
                        ig_md.d = (bit<16>) h ++ pair;
                        keep.execute(ig_md.a);
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """));
        int[] values = {0, 1, -1, -3, -4, 127, -128, 100, -100};
        byte[][] frames = new byte[values.length][];
        long[] expected = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            int v = values[i];
            frames[i] = frame(i, 0x020000000000L | (v & 0xFF), 0x0800);
            expected[i] = (long) ((v >> 2) & 0xFF) << 16 | (long) (Math.min(v, -3) & 0xFF) << 8 | (Math.max(v, -3) & 0xFF);
        }
        assertEquals(0xE7_9C_FDL, expected[8], "the reference, by hand: -100 >> 2 = -25, min -100, max -3");
        P4Twins.Run r = run(p, frames);
        assertArrayEquals(expected, Arrays.copyOf(r.engine().state().snapshot(0, "results"), values.length));
    }

    /**
     * Sign extension: an int<8> (the source address's last byte) widened to int<16> copies its
     * sign bit into the new bits; the cell holds the 16-bit pattern.
     */
    @Test
    void signExtensionCopiesTheSignBit() {
        StageProgram p = compile(program("", """
                    int<16> wide;
                    Register<bit<16>, bit<8>>(256) widened;
                    RegisterAction<bit<16>, bit<8>, bit<16>>(widened) keep = {
                        void apply(inout bit<16> value) {
                            value = ig_md.c;
                        }
                    };
                    apply {
                        ig_md.a = hdr.ethernet.dst_addr[7:0];
                        ig_md.s = (int<8>) hdr.ethernet.src_addr[7:0];
                        wide = (int<16>) ig_md.s;
                        ig_md.c = (bit<16>) wide;
                        keep.execute(ig_md.a);
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """));
        int[] values = {0, 1, 127, -1, -128, -3};
        byte[][] frames = new byte[values.length][];
        long[] expected = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            frames[i] = frame(i, 0x020000000000L | (values[i] & 0xFF), 0x0800);
            expected[i] = values[i] & 0xFFFF;
        }
        assertArrayEquals(expected, Arrays.copyOf(run(p, frames).engine().state().snapshot(0, "widened"), values.length));
    }

    /** What int<W> lowering leaves out, each refused where written: sign extension inside an expression, two signed values ordered. */
    @Test
    void signExtensionInAnExpressionAndOrderingTwoSignedValuesAreRefused() {
        String extend = program("", """
                    int<16> wide;
                    apply {
                        wide = (int<16>) ig_md.s + 16s1;
                        ig_tm_md.ucast_egress_port = 2;
                    }
                """);
        assertRefused(extend, "(int<16>) ig_md.s", "sign extension of an int<8> to 16 bits is not supported by the lowering yet"
                + " inside an expression (dest = (int<W>) x is)");
        String order = program("", """
                    int<8> other;
                    apply {
                        if (ig_md.s < other) {
                            ig_tm_md.ucast_egress_port = 2;
                        }
                    }
                """);
        assertRefused(order, "< other", "ordering comparison < of two int<W> values is not supported by the lowering yet"
                + " (an int<W> value and a constant is)");
    }
}

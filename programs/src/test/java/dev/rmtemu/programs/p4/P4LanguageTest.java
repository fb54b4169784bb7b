package dev.rmtemu.programs.p4;

import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * P4 language constructs of issue 32 on packets: each small TNA program is lowered, placed on
 * tofino1 and replayed; the departures (ports) and registers show what it did. Each construct
 * that stays refused in some form has that form's {@code FILE:LINE:COL} message checked.
 */
class P4LanguageTest {
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
        return ProgramCompiler.compile(P4Programs.text(FILE, text, PreprocessorOptions.defaults()).require(), P4Twins.TOFINO1)
                .requireAccepted().program();
    }

    /** The one error of {@code text}: {@code FILE:LINE:COL: message}, the position that of {@code at}'s first occurrence. */
    static void assertRefused(String text, String at, String message) {
        int offset = text.indexOf(at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        List<String> errors = P4Programs.text(FILE, text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), errors);
    }

    /** An Ethernet frame of {@code etherType}, 64 bytes, its last payload bytes {@code tail}. */
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

    static P4Twins.Run run(StageProgram p, byte[]... frames) {
        List<P4Twins.Arrival> arrivals = new ArrayList<>();
        for (int i = 0; i < frames.length; i++) {
            arrivals.add(new P4Twins.Arrival(i * 200L, 0, P4Twins.record(frames[i])));
        }
        return P4Twins.run(p, e -> { }, arrivals);
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
}

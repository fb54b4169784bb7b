package dev.rmtemu.bench;

import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The P4 front end on a generated TNA program of {@link #LINES}+ lines (headers, a parser, a
 * control of tables and actions, #include &lt;tna.p4&gt; and macros): preprocess, parse, build
 * the AST and resolve names ({@link P4Front#text}), in milliseconds per program; and the whole
 * compile of a {@link #LINES}-line TNA program the lowering accepts ({@link #generateTna}: an
 * ingress of tables, actions and gateways): front end, lowering to the IR, and the compiler's
 * passes with table placement on tofino1. Issue 32 asks for a 1,000-line program compiled in
 * under 2 s.
 * Run: {@code java -jar bench/target/benchmarks.jar P4Front -f 1 -wi 3 -i 5}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class P4FrontBenchmark extends ForkedJvm {
    /** The program's own lines, without the library it includes. */
    static final int LINES = 1_000;

    private String program;
    private String tnaProgram;
    private final TargetProfile tofino1 = TargetProfiles.builtIn("tofino1");

    @Setup(Level.Trial)
    public void setUp() {
        program = generate(LINES);
        P4Front.Result r = P4Front.text("bench.p4", program, PreprocessorOptions.defaults());
        if (!r.ok()) {
            throw new IllegalStateException("the generated program has errors: " + r.errors());
        }
        tnaProgram = generateTna(LINES);
        compileAndPlace();
    }

    @Benchmark
    public Object preprocessParseAndBuild() {
        return P4Front.text("bench.p4", program, PreprocessorOptions.defaults()).program();
    }

    /** Front end, lowering and the compiler's passes (placement included); refuses unless the program fits. */
    @Benchmark
    public Object compileAndPlace() {
        return ProgramCompiler.compile(P4Programs.text("bench_tna.p4", tnaProgram, PreprocessorOptions.defaults()).require(),
                tofino1).requireAccepted().program();
    }

    private static final int HEADERS = 10;

    /** The parser's states s0..s9, each extracting its header and going on to the next while f0 looks like 0x08xx. */
    private static void headerStates(StringBuilder sb) {
        for (int h = 0; h < HEADERS; h++) {
            sb.append("    state s").append(h).append(" {\n        pkt.extract(hdr.h").append(h).append(");\n")
                    .append("        transition select(hdr.h").append(h).append(".f0) {\n")
                    .append("            0x0800 &&& 0xff00 : ").append(h + 1 < HEADERS ? "s" + (h + 1) : "accept").append(";\n")
                    .append("            default : accept;\n        }\n    }\n");
        }
        sb.append("}\n");
    }

    /** The includes, ten headers of ten 16-bit fields and the open {@code struct headers_t} holding them. */
    private static StringBuilder headerDeclarations() {
        StringBuilder sb = new StringBuilder("#include <core.p4>\n#include <tna.p4>\n#define FIELD(n) bit<16> f##n;\n");
        for (int h = 0; h < HEADERS; h++) {
            sb.append("header h").append(h).append("_t {\n");
            for (int f = 0; f < 10; f++) {
                sb.append("    FIELD(").append(f).append(")\n");
            }
            sb.append("}\n");
        }
        sb.append("struct headers_t {\n");
        for (int h = 0; h < HEADERS; h++) {
            sb.append("    h").append(h).append("_t h").append(h).append(";\n");
        }
        return sb;
    }

    /**
     * A whole TNA program of at least {@code lines} lines that the lowering accepts and tofino1
     * fits: ten headers of ten 16-bit fields and a parser chain through them, then pairs of an
     * action and an exact table (keyed on one header's f9, writing another field of it, so the
     * tables are independent and spread over the stages), each applied behind an isValid gateway.
     */
    static String generateTna(int lines) {
        int headers = HEADERS;
        StringBuilder sb = headerDeclarations();
        sb.append("}\nstruct metadata_t {}\nstruct empty_t {}\n");
        sb.append("parser IgParser(packet_in pkt, out headers_t hdr, out metadata_t md, out ingress_intrinsic_metadata_t ig) {\n");
        sb.append("    state start {\n        pkt.extract(ig);\n        pkt.advance(PORT_METADATA_SIZE);\n        transition s0;\n    }\n");
        headerStates(sb);
        String tail = """
                control IgDeparser(packet_out pkt, inout headers_t hdr, in metadata_t md,
                                   in ingress_intrinsic_metadata_for_deparser_t dprsr) {
                    apply {
                        pkt.emit(hdr);
                    }
                }
                parser EgParser(packet_in pkt, out empty_t hdr, out empty_t md, out egress_intrinsic_metadata_t eg) {
                    state start {
                        transition accept;
                    }
                }
                control Eg(inout empty_t hdr, inout empty_t md, in egress_intrinsic_metadata_t eg,
                           in egress_intrinsic_metadata_from_parser_t prsr, inout egress_intrinsic_metadata_for_deparser_t dprsr,
                           inout egress_intrinsic_metadata_for_output_port_t oport) {
                    apply {}
                }
                control EgDeparser(packet_out pkt, inout empty_t hdr, in empty_t md, in egress_intrinsic_metadata_for_deparser_t dprsr) {
                    apply {}
                }
                Pipeline(IgParser(), Ig(), IgDeparser(), EgParser(), Eg(), EgDeparser()) pipe;
                Switch(pipe) main;
                """;
        sb.append("control Ig(inout headers_t hdr, inout metadata_t md, in ingress_intrinsic_metadata_t ig,\n")
                .append("           in ingress_intrinsic_metadata_from_parser_t prsr,\n")
                .append("           inout ingress_intrinsic_metadata_for_deparser_t dprsr,\n")
                .append("           inout ingress_intrinsic_metadata_for_tm_t tm) {\n");
        StringBuilder apply = new StringBuilder("    apply {\n        tm.ucast_egress_port = 1;\n");
        int t = 0;
        while (sb.toString().lines().count() + apply.toString().lines().count() + tail.lines().count() + 2 < lines) {
            int h = t % headers;
            int f = (t / headers) % 9;
            sb.append("    action a").append(t).append("(bit<16> v) {\n")
                    .append("        hdr.h").append(h).append(".f").append(f).append(" = v;\n    }\n")
                    .append("    table t").append(t).append(" {\n")
                    .append("        key = { hdr.h").append(h).append(".f9 : exact; }\n")
                    .append("        actions = { a").append(t).append("; NoAction; }\n")
                    .append("        size = 1024;\n        default_action = NoAction();\n    }\n");
            apply.append("        if (hdr.h").append(h).append(".isValid()) {\n            t").append(t).append(".apply();\n        }\n");
            t++;
        }
        sb.append(apply).append("    }\n}\n").append(tail);
        return sb.toString();
    }

    /** A TNA program of at least {@code lines} lines: headers of ten fields, then tables of ten lines each until long enough. */
    static String generate(int lines) {
        int headers = HEADERS;
        StringBuilder sb = headerDeclarations();
        sb.append("}\nstruct metadata_t { bit<16> m; }\n");
        sb.append("parser P(packet_in pkt, out headers_t hdr, out metadata_t md, out ingress_intrinsic_metadata_t ig) {\n");
        sb.append("    state start { pkt.extract(ig); pkt.advance(PORT_METADATA_SIZE); transition s0; }\n");
        headerStates(sb);
        sb.append("control C(inout headers_t hdr, inout metadata_t md, in ingress_intrinsic_metadata_t ig,\n")
                .append("          inout ingress_intrinsic_metadata_for_tm_t tm) {\n");
        int t = 0;
        StringBuilder apply = new StringBuilder("    apply {\n");
        while (sb.toString().lines().count() + apply.toString().lines().count() + 3 < lines) {
            int h = t % headers;
            sb.append("    action a").append(t).append("(bit<16> v, PortId_t p) {\n")
                    .append("        hdr.h").append(h).append(".f").append(t % 10).append(" = v + (bit<16>) md.m << 2;\n")
                    .append("        tm.ucast_egress_port = p;\n    }\n")
                    .append("    table t").append(t).append(" {\n")
                    .append("        key = { hdr.h").append(h).append(".f1 : exact; md.m : ternary; }\n")
                    .append("        actions = { a").append(t).append("; NoAction; }\n")
                    .append("        size = 1024;\n        default_action = NoAction();\n    }\n");
            apply.append("        if (hdr.h").append(h).append(".isValid()) { t").append(t).append(".apply(); }\n");
            t++;
        }
        sb.append(apply).append("    }\n}\n");
        return sb.toString();
    }
}

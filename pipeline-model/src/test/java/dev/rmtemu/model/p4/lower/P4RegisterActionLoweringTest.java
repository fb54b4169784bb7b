package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The legal twins of the register-action and hash refusals: a pair register
 * ({@code struct {lo; hi}}), a body of two conditions (an else-if) reading two PHV fields,
 * {@code rv} of the hi word, and a CUSTOM CRC hash, lowered and run on cells; a register
 * action's output read through the field it was just assigned to.
 */
class P4RegisterActionLoweringTest {
    private static String base() {
        try (InputStream in = P4RegisterActionLoweringTest.class.getResourceAsStream("base.p4")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** HashPipe's merge: c0 hit adds; c1 (resident smaller) replaces; rv the resident count on a miss. */
    private static final String MERGE = """
                Register<pair_t, bit<16>>(65536) flow_count;
                RegisterAction<pair_t, bit<16>, bit<32>>(flow_count) increment = {
                    void apply(inout pair_t value, out bit<32> rv) {
                        if (value.lo == hdr.ipv4.src_addr) {
                            value.hi = value.hi + ig_md.flow_count;
                        } else {
                            rv = value.hi;
                            if (value.hi < ig_md.flow_count) {
                                value.lo = hdr.ipv4.src_addr;
                                value.hi = ig_md.flow_count;
                            }
                        }
                    }
                };
            """;

    private static StageProgram lower(String text) {
        P4Programs.Result r = P4Programs.text("pair.p4", text, PreprocessorOptions.defaults());
        assertEquals(java.util.List.of(), r.errors());
        return r.program();
    }

    private static String withMerge() {
        String src = base().replace("struct empty_t {}", "struct empty_t {}\nstruct pair_t {\n    bit<32> lo;\n    bit<32> hi;\n}");
        int from = src.indexOf("    Register<bit<32>, bit<16>>(65536) flow_count;");
        int to = src.indexOf("    };\n", from) + "    };\n".length();
        return src.substring(0, from) + MERGE + src.substring(to);
    }

    @Test
    void aPairRegisterActionWithTwoConditionsAndTwoInputsRunsAsItsBodySays() {
        StageProgram p = lower(withMerge());
        RegisterAction a = p.control(Gress.INGRESS).registerActions().get(0);
        assertTrue(p.registers().get(0).pair());
        assertEquals(2, a.conditionCount());
        long[] lo = {7, 7, 7, 0};
        long[] hi = {5, 5, 5, 0};
        // inLo is the source address (the first field read), inHi the metadata count
        assertEquals(0, a.execute(lo, hi, 0, 7, 3), "hit: rv not set");
        assertEquals(8, hi[0]);
        assertEquals(5, a.execute(lo, hi, 1, 9, 6), "miss, resident smaller: rv the old count");
        assertEquals(9, lo[1]);
        assertEquals(6, hi[1]);
        assertEquals(5, a.execute(lo, hi, 2, 9, 4), "miss, resident larger: kept");
        assertEquals(7, lo[2]);
        assertEquals(5, hi[2]);
        assertEquals(0, a.execute(lo, hi, 3, 9, 1), "empty slot: filled, evicting count 0");
        assertArrayEquals(new long[] {7, 9, 7, 9}, lo);
    }

    /** CRCPolynomial(0x04C11DB7, reversed, init and xor all ones) is the standard CRC-32. */
    @Test
    void aCustomCrcPolynomialIsTheCrcItNames() {
        StageProgram p = lower(base().replace("    Hash<bit<16>>(HashAlgorithm_t.CRC32) flow_hash;",
                "    CRCPolynomial<bit<32>>(0x04C11DB7, true, false, false, 0xFFFFFFFF, 0xFFFFFFFF) ieee;\n"
                        + "    Hash<bit<16>>(HashAlgorithm_t.CUSTOM, ieee) flow_hash;"));
        HashUnit h = p.hashes().get(0);
        byte[] data = "123456789".getBytes(StandardCharsets.US_ASCII);
        long state = h.algorithm().init();
        for (byte b : data) {
            state = h.algorithm().update(state, b & 0xFF);
        }
        CRC32 crc = new CRC32();
        crc.update(data);
        assertEquals(crc.getValue(), h.algorithm().finish(state));
        assertEquals(16, h.outputBits());
    }

    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    /** The base program with {@code reads} after its {@code flow_count = increment.execute(...)}. */
    private static String withReads(String reads) {
        return base().replace("    bit<32> flow_count;\n", "    bit<32> flow_count;\n    bit<32> flipped;\n    bit<8> top_byte;\n"
                        + "    bit<8> second_byte;\n")
                .replace("        ig_tm_md.ucast_egress_port = 1;\n", reads + "        ig_tm_md.ucast_egress_port = 1;\n");
    }

    private static Map<Gress, Integer> latency(StageProgram p) {
        return ResourceChecker.check(ProgramCompiler.compile(p, TOFINO1).requireAccepted().program(), TOFINO1)
                .pipelineLatencyCycles();
    }

    /**
     * P4 reads a field's new value after {@code f = ra.execute(i)}: an assignment that reads
     * {@code f} reads the stateful ALU's output, which feeds the stage's instructions, so it
     * stays in the ALU's stage (one ALU operation each: a slice or a cast to the destination's
     * width needs no mask). A gateway on {@code f} reads the PHV, in the next stage (bf-p4c
     * mau/table_dependency_graph.cpp: a gateway's match dependency on the ALU's output).
     */
    @Test
    void anAssignmentReadingARegisterOutputJustAssignedStaysInTheStatefulAlusStage() {
        Map<Gress, Integer> alone = latency(lower(base()));
        StageProgram reads = lower(withReads("        ig_md.flipped = ig_md.flow_count ^ 0x80000000;\n"
                + "        ig_md.top_byte = ig_md.flow_count[31:24];\n"
                + "        ig_md.second_byte = (bit<8>) (ig_md.flow_count >> 16);\n"));
        assertEquals(alone, latency(reads));
        StageProgram gateway = lower(withReads("        if (ig_md.flow_count == 3) {\n            ig_md.top_byte = 1;\n        }\n"));
        assertTrue(latency(gateway).get(Gress.INGRESS) > alone.get(Gress.INGRESS),
                alone + " vs " + latency(gateway));
    }
}

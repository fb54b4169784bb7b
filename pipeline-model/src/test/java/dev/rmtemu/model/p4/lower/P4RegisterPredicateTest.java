package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.source.Diagnostic;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.RegisterAction;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rv = this.predicate(cmplo, cmphi)} in a RegisterAction: the stateful ALU outputs its
 * predicate (TNA's RegisterAction.predicate, "the 4-bit predicate value"; bf-p4c
 * mau/stateful_alu.cpp, CreateSaluInstruction). LDS's carry detector is the legal case: fed
 * -add, the ALU subtracts it (lo + add) and outputs the predicate when -add != 0 and
 * lo >= -add, i.e. when lo + add carries out of 32 bits. Refused: a predicate whose cmplo is
 * not the ALU's first comparison (the predicate's bits are c0 and c1 in that order), and an
 * rv set from the predicate on one path and from a word on another (one output word).
 */
class P4RegisterPredicateTest {
    private static final String FILE = "base.p4";
    private static final String INCREMENT = "            value = value + 1;\n            rv = value;\n";
    private static final String CARRY = """
                        if (value >= ig_md.flow_count) {
                            if (ig_md.flow_count != 0) {
                                rv = this.predicate(value >= ig_md.flow_count, ig_md.flow_count != 0);
                            }
                        }
                        value = value - ig_md.flow_count;
            """;

    private static String base() {
        try (InputStream in = P4RegisterPredicateTest.class.getResourceAsStream(FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String with(String body) {
        String src = base();
        assertTrue(src.contains(INCREMENT));
        return src.replace(INCREMENT, body);
    }

    /** The one error of {@code text}, which must point at the first {@code at}. */
    private static void assertRefused(String text, String at, String message) {
        int offset = text.indexOf(at);
        assertTrue(offset >= 0, at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), r.errors().stream().map(Diagnostic::line).toList());
    }

    @Test
    void thePredicateOfACarryIsTheOutputOnlyWhenTheAdditionCarries() {
        P4Programs.Result r = P4Programs.text(FILE, with(CARRY), PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        StageProgram p = r.program();
        RegisterAction a = p.control(Gress.INGRESS).registerActions().get(0);
        assertEquals(2, a.conditionCount());
        long add = 0x20;
        long negated = (1L << 32) - add;
        long[] lo = {0xFFFF_FFF0L, 0x10, 0x1234};
        // lo + 0x20 carries: the predicate of both conditions (index 3 in rmtemu), the low word wraps
        assertEquals(3, a.execute(lo, null, 0, negated, 0));
        assertEquals(0x10, lo[0]);
        // no carry: rv 0, the sum
        assertEquals(0, a.execute(lo, null, 1, negated, 0));
        assertEquals(0x30, lo[1]);
        // adding 0 (fed 0) never carries and leaves the cell
        assertEquals(0, a.execute(lo, null, 2, 0, 0));
        assertEquals(0x1234, lo[2]);
    }

    @Test
    void aPredicateWhoseCmploIsTheSecondComparison() {
        String text = with(CARRY.replace("this.predicate(value >= ig_md.flow_count, ig_md.flow_count != 0)",
                "this.predicate(ig_md.flow_count != 0, value >= ig_md.flow_count)"));
        assertRefused(text, "ig_md.flow_count != 0, value", "RegisterAction increment: predicate's cmplo must be the ALU's"
                + " condition c0, the first comparison the body tests");
    }

    @Test
    void anRvFromTheOldWordAndFromThePredicate() {
        String text = with("""
                        if (value >= ig_md.flow_count) {
                            if (ig_md.flow_count != 0) {
                                rv = this.predicate(value >= ig_md.flow_count, ig_md.flow_count != 0);
                            }
                            value = value - ig_md.flow_count;
                        } else {
                            rv = value;
                        }
            """);
        assertRefused(text, "rv = value;", "RegisterAction increment: rv is set from PREDICATE and OLD_LO;"
                + " a stateful ALU has one output word");
    }
}

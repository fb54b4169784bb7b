package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ingress parser's {@code select(ig_intr_md.resubmit_flag)} 1 branch: TNA's boilerplate
 * TofinoIngressParser (base.p4) has {@code state parse_resubmit { transition reject; }}, so on
 * Tofino every resubmitted packet is a parser error; the lowered graph says so. A branch that
 * continues ({@code transition accept}) parses the frame as the first pass does.
 */
class P4ResubmitBranchTest {
    private static final String FILE = "base.p4";
    private static final String REJECTING = "    state parse_resubmit {\n        transition reject;\n    }\n";

    private static String base() {
        try (InputStream in = P4ResubmitBranchTest.class.getResourceAsStream(FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean resubmittedRejected(String text) {
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors().stream().map(Diagnostic::line).toList());
        return r.program().parser().graph().resubmittedRejected();
    }

    @Test
    void aResubmitBranchThatRejectsRejectsResubmittedPacketsOneThatAcceptsDoesNot() {
        String base = base();
        assertEquals(true, base.contains(REJECTING), "base.p4 keeps TNA's boilerplate resubmit branch");
        assertEquals(true, resubmittedRejected(base));
        assertEquals(false, resubmittedRejected(base.replace(REJECTING,
                "    state parse_resubmit {\n        pkt.advance(64);\n        transition accept;\n    }\n")));
    }
}

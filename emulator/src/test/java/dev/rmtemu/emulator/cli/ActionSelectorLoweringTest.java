package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.extern.SelectorMode;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TNA's ActionProfile, ActionSelector and a table's {@code implementation} in the P4 lowering
 * ({@code p4/ecmp_selector.p4}): what the selector lowers to, and each refused form as one
 * {@code FILE:LINE:COL} line where it is written, beside its legal twin (the file itself).
 */
class ActionSelectorLoweringTest {
    private static final String FILE = "ecmp_selector.p4";

    private static String source() {
        try (InputStream in = ActionSelectorLoweringTest.class.getResourceAsStream("p4/" + FILE)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertRefused(String from, String to, String at, String message) {
        String src = source();
        assertTrue(src.contains(from), from);
        String text = src.replace(from, to);
        int offset = text.indexOf(at);
        assertTrue(offset >= 0, at);
        int line = 1 + (int) text.substring(0, offset).chars().filter(ch -> ch == '\n').count();
        int column = offset - text.lastIndexOf('\n', offset - 1);
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(FILE + ":" + line + ":" + column + ": " + message), r.errors().stream().map(Diagnostic::line).toList());
    }

    @Test
    void theSelectorLowersWithItsHashModeSizesAndSelectorKey() {
        P4Programs.Result r = P4Programs.text(FILE, source(), PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        ActionProfile p = r.program().actionProfile("ecmp_sel");
        assertEquals(List.of("ecmp_ap", 16, "ecmp"), List.of(p.name(), p.size(), p.table()));
        ActionProfile.Selector s = p.selector();
        assertEquals(List.of("ecmp_sel", 16, SelectorMode.FAIR, 8, 4, List.of("ipv4.src_addr", "udp.src_port")),
                List.of(s.name(), s.hashBits(), s.mode(), s.maxGroupSize(), s.numGroups(),
                        s.key().stream().map(f -> f.name()).toList()));
        // the selector fields are not the table's match key
        assertEquals(List.of("ipv4.dst_addr"), r.program().control(dev.rmtemu.model.phv.Gress.INGRESS).tables().get(0).key()
                .stream().map(f -> f.name()).toList());
    }

    @Test
    void aPlainActionProfileLowersWithoutASelector() {
        String text = source().replace("        implementation = ecmp_sel;", "        implementation = ecmp_ap;")
                .replace("            hdr.ipv4.src_addr : selector;\n            hdr.udp.src_port : selector;\n", "")
                .replace("    ActionSelector(ecmp_ap, sel_hash, SelectorMode_t.FAIR, 8, 4) ecmp_sel;\n", "");
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        assertNull(r.program().actionProfile("ecmp_ap").selector());
    }

    @Test
    void selectorKeysWithoutAnActionSelector() {
        String text = source().replace("        implementation = ecmp_sel;\n", "")
                .replace("    ActionProfile(16) ecmp_ap;\n    ActionSelector(ecmp_ap, sel_hash, SelectorMode_t.FAIR, 8, 4) ecmp_sel;\n", "");
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        int line = 1 + (int) text.substring(0, text.indexOf("    table ecmp")).chars().filter(ch -> ch == '\n').count();
        assertEquals(List.of(FILE + ":" + line + ":5: table ecmp has key fields of match kind selector but no ActionSelector"
                + " (implementation = ...)"), r.errors().stream().map(Diagnostic::line).toList());
    }

    @Test
    void theDeprecatedSizeFormOfActionSelector() {
        assertRefused("ActionProfile(16) ecmp_ap;\n    ActionSelector(ecmp_ap, sel_hash, SelectorMode_t.FAIR, 8, 4) ecmp_sel;",
                "ActionSelector(16, sel_hash, SelectorMode_t.FAIR) ecmp_sel;", "ActionSelector(16",
                "ActionSelector ecmp_sel needs ActionSelector(action_profile, hash, SelectorMode_t.MODE, max_group_size,"
                        + " num_groups)");
    }

    @Test
    void aGroupLargerThanTofinosSelector() {
        assertRefused("SelectorMode_t.FAIR, 8, 4)", "SelectorMode_t.FAIR, 119041, 4)", "ActionSelector(ecmp_ap",
                "ActionSelector ecmp_sel: max_group_size 119041 outside 1..119040 (Tofino's largest group) or num_groups 4 < 1");
    }

    @Test
    void selectorKeysOnAPlainActionProfile() {
        String text = source().replace("        implementation = ecmp_sel;\n", "        implementation = ecmp_ap;\n")
                .replace("    ActionSelector(ecmp_ap, sel_hash, SelectorMode_t.FAIR, 8, 4) ecmp_sel;\n", "");
        P4Programs.Result r = P4Programs.text(FILE, text, PreprocessorOptions.defaults());
        int at = text.indexOf("implementation = ecmp_ap");
        int line = 1 + (int) text.substring(0, at).chars().filter(ch -> ch == '\n').count();
        assertEquals(List.of(FILE + ":" + line + ":9: table ecmp has selector key fields, but its implementation ecmp_ap is an"
                + " ActionProfile (an ActionSelector hashes them)"), r.errors().stream().map(Diagnostic::line).toList());
    }

    /** @symmetric pairs are lowered on a Hash read with get (P4SymmetricHashTest); on a selector's Hash they are refused, not ignored. */
    @Test
    void symmetricPairsOnASelectorsHash() {
        String annotation = "@symmetric(\"hdr.ipv4.src_addr\", \"hdr.ipv4.dst_addr\")";
        assertRefused("    Hash<bit<16>>(HashAlgorithm_t.CRC16) sel_hash;", "    " + annotation + " Hash<bit<16>>(HashAlgorithm_t.CRC16) sel_hash;",
                annotation, "Hash sel_hash of an ActionSelector: @symmetric is not supported by the lowering there"
                        + " (it is on a Hash read with get)");
    }
}

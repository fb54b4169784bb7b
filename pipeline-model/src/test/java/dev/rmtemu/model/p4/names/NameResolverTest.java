package dev.rmtemu.model.p4.names;

import dev.rmtemu.model.p4.P4Front;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.p4.source.Diagnostic;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Name resolution: each class of error with its FILE:LINE:COL message and the closest name, and the legal twin of each. */
class NameResolverTest {
    private static final String HEAD = "#include <core.p4>\n#include <tna.p4>\n";

    /** Errors of a program that includes core.p4 and tna.p4; its own lines start at 3. */
    private static List<String> errors(String text) {
        return P4Front.text("n.p4", HEAD + text, PreprocessorOptions.defaults()).errors().stream().map(Diagnostic::line).toList();
    }

    private static final String CONTROL = "control C(inout ingress_intrinsic_metadata_for_tm_t tm) {\n"
            + "    action fwd(PortId_t port) { tm.ucast_egress_port = port; }\n"
            + "    table forward {\n"
            + "        key = { tm.qid : exact; }\n"
            + "        actions = { fwd; NoAction; }\n"
            + "        default_action = NoAction();\n"
            + "    }\n"
            + "    apply { forward.apply(); }\n"
            + "}\n";

    @Test
    void aWellFormedControlHasNoErrors() {
        assertEquals(List.of(), errors(CONTROL));
    }

    @Test
    void undeclaredNameWithTheClosestOne() {
        assertEquals(List.of("n.p4:10:13: undeclared name 'froward' (did you mean 'forward'?)"),
                errors(CONTROL.replace("apply { forward.apply(); }", "apply { froward.apply(); }")));
    }

    @Test
    void undeclaredTypeWithTheClosestOne() {
        assertEquals(List.of("n.p4:4:16: undeclared type 'PortID_t' (did you mean 'PortId_t'?)"),
                errors(CONTROL.replace("fwd(PortId_t port)", "fwd(PortID_t port)")));
    }

    @Test
    void aTableListsOnlyActions() {
        assertEquals(List.of("n.p4:7:36: 'tm' is not an action (it is declared at n.p4:3:11)"),
                errors(CONTROL.replace("actions = { fwd; NoAction; }", "actions = { fwd; NoAction; tm; }")));
    }

    @Test
    void unknownMatchKind() {
        assertEquals(List.of("n.p4:6:17: undeclared match kind 'exatc' (did you mean 'exact'?)"),
                errors(CONTROL.replace("tm.qid : exact;", "tm.qid : exatc;")));
    }

    @Test
    void duplicateDeclarationsInOneScope() {
        assertEquals(List.of("n.p4:5:5: duplicate declaration of 'fwd' (first declared at n.p4:4:5)"),
                errors(CONTROL.replace("    table forward", "    action fwd() {}\n    table forward")));
    }

    @Test
    void duplicateFieldsParametersAndStates() {
        assertEquals(List.of(
                        "n.p4:3:34: duplicate field 'a' (first at n.p4:3:14)",
                        "n.p4:4:24: duplicate declaration of 'x' (first declared at n.p4:4:14)",
                        "n.p4:7:5: duplicate state 'start' (first at n.p4:6:5)"),
                errors("header h_t { bit<8> a; bit<8> b; bit<8> a; }\n"
                        + "action twice(bit<8> x, in bit<8> x) {}\n"
                        + "parser P(packet_in pkt) {\n"
                        + "    state start { transition accept; }\n"
                        + "    state start { transition reject; }\n"
                        + "}\n"));
    }

    @Test
    void transitionToAStateThatIsNotThere() {
        assertEquals(List.of("n.p4:5:75: no state 'parse_ipv5' in parser P (did you mean 'parse_ipv4'?)"),
                errors("header h_t { bit<8> a; }\n"
                        + "parser P(packet_in pkt, out h_t h) {\n"
                        + "    state start { pkt.extract(h); transition select(h.a) { 4: parse_ipv4; 5: parse_ipv5; } }\n"
                        + "    state parse_ipv4 { transition accept; }\n"
                        + "}\n"));
    }

    @Test
    void declaredBeforeUse() {
        assertEquals(List.of("n.p4:3:18: undeclared name 'DEFINED_BELOW'"),
                errors("const bit<8> A = DEFINED_BELOW;\nconst bit<8> DEFINED_BELOW = 1;\n"));
    }

    @Test
    void undeclaredErrorMember() {
        assertEquals(List.of("n.p4:3:55: no error 'error.PacketTooShrt' is declared (did you mean 'PacketTooShort'?)"),
                errors("parser P(packet_in pkt) { state start { verify(false, error.PacketTooShrt); transition accept; } }\n"));
    }

    @Test
    void overloadedExternFunctionsAreNotDuplicates() {
        assertEquals(List.of(), errors("extern void f(in bit<8> a);\nextern void f(in bit<8> a, in bit<8> b);\n"));
    }
}

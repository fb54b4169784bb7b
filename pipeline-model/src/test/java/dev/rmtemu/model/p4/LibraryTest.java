package dev.rmtemu.model.p4;

import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.Program;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rmtemu's own core.p4 and tna.p4: they parse and resolve cleanly, declare what TNA's
 * documentation names, and the intrinsic headers have the hardware's widths.
 */
class LibraryTest {
    private static Program library() {
        P4Front.Result r = P4Front.text("lib.p4", "#include <core.p4>\n#include <tna.p4>\n", PreprocessorOptions.defaults());
        assertEquals(List.of(), r.errors());
        return r.program();
    }

    @Test
    void declaresTheCoreLibraryAndTnasDocumentedInterface() {
        List<String> names = library().declarations().stream().map(Declaration::name).toList();
        for (String n : List.of("packet_in", "packet_out", "verify", "NoAction",
                "PortId_t", "MulticastGroupId_t", "QueueId_t", "MirrorId_t",
                "ingress_intrinsic_metadata_t", "ingress_intrinsic_metadata_from_parser_t", "ingress_intrinsic_metadata_for_deparser_t",
                "ingress_intrinsic_metadata_for_tm_t", "egress_intrinsic_metadata_t", "egress_intrinsic_metadata_from_parser_t",
                "egress_intrinsic_metadata_for_deparser_t", "egress_intrinsic_metadata_for_output_port_t",
                "Register", "RegisterParam", "RegisterAction", "DirectRegister", "DirectRegisterAction", "Hash", "HashAlgorithm_t",
                "CRCPolynomial", "Random", "Checksum", "Counter", "DirectCounter", "Meter", "DirectMeter", "Digest", "Mirror",
                "Resubmit", "ActionProfile", "ActionSelector", "Lpf", "Wred", "ParserCounter", "Alpm", "Atcam", "port_metadata_unpack",
                "PORT_METADATA_SIZE", "IngressParserT", "IngressT", "IngressDeparserT", "EgressParserT", "EgressT", "EgressDeparserT",
                "Pipeline", "Switch")) {
            assertTrue(names.contains(n), n + " missing from the library");
        }
        List<String> matchKinds = library().declarations().stream().filter(d -> d instanceof Declaration.MatchKinds)
                .flatMap(d -> ((Declaration.MatchKinds) d).members().stream()).map(i -> i.name()).toList();
        assertEquals(List.of("exact", "ternary", "lpm", "range", "selector", "atcam_partition_index"), matchKinds);
    }

    /** Bits of a header whose fields are bit<N> or PortId_t (9) or QueueId_t (5). */
    private static int bits(Declaration.StructLike h) {
        Map<String, Integer> typedefs = Map.of("PortId_t", 9, "QueueId_t", 5);
        int sum = 0;
        for (Declaration.Field f : h.fields()) {
            if (f.type() instanceof TypeRef.Base b) {
                sum += ((Expression.IntegerLiteral) b.width()).value().intValueExact();
            } else {
                sum += typedefs.get(((TypeRef.Named) f.type()).name());
            }
        }
        return sum;
    }

    @Test
    void intrinsicHeadersHaveTheHardwaresWidths() {
        Map<String, Declaration.StructLike> headers = library().declarations().stream()
                .filter(d -> d instanceof Declaration.StructLike s && s.kind() == Declaration.StructLike.Kind.HEADER)
                .map(d -> (Declaration.StructLike) d).collect(Collectors.toMap(Declaration::name, d -> d));
        // what the ingress parser receives before the port metadata: 64 bits
        assertEquals(64, bits(headers.get("ingress_intrinsic_metadata_t")));
        // egress intrinsic metadata: 27 bytes on Tofino 1, each field padded to its byte boundary
        assertEquals(216, bits(headers.get("egress_intrinsic_metadata_t")));
    }
}

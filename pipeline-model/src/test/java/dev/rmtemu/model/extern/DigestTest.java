package dev.rmtemu.model.extern;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Learning digests in the IR: digest_type is TNA's 3-bit DigestType_t (tofino1_base.p4), so
 * types 1..7 select a digest and 0 none; one digest per type; fields named as T's members.
 */
class DigestTest {
    private static ProgramBuilder builder() {
        return ProgramBuilder.create("learn", "digests");
    }

    @Test
    void aDigestIsDeclaredWithItsTypeAndFieldNamesAndTheDigestTypeIntrinsic() {
        ProgramBuilder b = builder();
        Field mac = b.bridged("src", 48);
        Field port = b.intrinsic(Intrinsic.INGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(b.intrinsic(Intrinsic.DIGEST_TYPE), 7));
        Digest d = b.digest("learn", 7, List.of("src_mac", "port"), List.of(mac, port));
        StageProgram p = b.build();
        assertEquals(List.of(d), p.digests());
        assertEquals("learn[type 7: src_mac, port]", d.toString());
        assertNotNull(p.intrinsic(Intrinsic.DIGEST_TYPE));
    }

    @Test
    void typeEightAndASecondDigestOfOneTypeAreRefused() {
        ProgramBuilder b = builder();
        Field mac = b.bridged("src", 48);
        IllegalArgumentException eight = assertThrows(IllegalArgumentException.class,
                () -> b.digest("a", 8, List.of("m"), List.of(mac)));
        assertEquals("digest a: digest_type 8 outside 1..7", eight.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> b.digest("a", 0, List.of("m"), List.of(mac)));
        assertEquals("digest a: digest_type 0 outside 1..7", zero.getMessage());
        b.digest("a", 1, List.of("m"), List.of(mac));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> b.digest("b", 1, List.of("m"), List.of(mac)));
        assertEquals("digest b: digest_type 1 already selects digest a", twice.getMessage());
        IllegalArgumentException names = assertThrows(IllegalArgumentException.class,
                () -> b.digest("c", 2, List.of("m", "m"), List.of(mac, mac)));
        assertEquals("digest c: two fields share a name", names.getMessage());
    }
}

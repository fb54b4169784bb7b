package dev.rmtemu.model.compiler;

import dev.rmtemu.model.check.ResourceChecker;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * PHV allocation with liveness: metadata whose lives do not overlap share a
 * container (p4c's metadata overlay); one read in the stage that first writes
 * another may share too (VLIW: the stage reads the old value, the write lands at
 * its end); a field read before it is written is live from the parser and shares
 * nothing.
 */
class PhvLivenessTest {

    @Test
    void aChainOfTemporariesSharesOneContainer() {
        ProgramBuilder b = ProgramBuilder.create("chain", "t");
        Field src = b.header("ipv4.src_addr");
        Field a = b.metadata(Gress.INGRESS, "meta.a", 32);
        Field m = b.metadata(Gress.INGRESS, "meta.b", 32);
        Field c = b.metadata(Gress.INGRESS, "meta.c", 16);
        Field early = b.metadata(Gress.INGRESS, "meta.read_first", 32);
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(x -> x.set(a, read(src)).set(early, add(read(early), constant(1))));
        b.stage(Gress.INGRESS, 1).body(x -> x.set(m, add(read(a), constant(1))));
        b.stage(Gress.INGRESS, 2).body(x -> x.set(c, add(read(m), constant(1))));
        b.stage(Gress.INGRESS, 3).body(x -> x.set(port, read(c)).set(early, read(early)));
        StageProgram p = b.build();

        // meta.a lives 0..1, meta.b 1..2, meta.c 2..3: one 32-bit set; meta.read_first is read at stage 0 before any write
        assertEquals(List.of(new PhvLiveness.Overlay(Gress.INGRESS, List.of("meta.a", "meta.b", "meta.c"), 32)),
                PhvLiveness.overlays(p));
        long without = ResourceChecker.check(p, TargetProfiles.builtIn("tofino1")).phvRequestedBits();
        long with = ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino1")).resources().phvRequestedBits();
        assertEquals(32 + 32 + 16 - 32, without - with);
    }

    @Test
    void overlappingLivesDoNotShare() {
        ProgramBuilder b = ProgramBuilder.create("overlap", "t");
        Field src = b.header("ipv4.src_addr");
        Field a = b.metadata(Gress.INGRESS, "meta.a", 32);
        Field m = b.metadata(Gress.INGRESS, "meta.b", 32);
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(x -> x.set(a, read(src)).set(m, read(src)));
        b.stage(Gress.INGRESS, 1).body(x -> x.set(port, add(read(a), read(m))));
        assertEquals(List.of(), PhvLiveness.overlays(b.build()));
    }
}

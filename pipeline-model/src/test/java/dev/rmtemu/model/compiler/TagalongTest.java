package dev.rmtemu.model.compiler;

import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rmtemu.model.ir.Ir.add;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tagalong containers (bf-p4c specs/phv_spec.cpp, Tofino 1's TPHV: 32 x 8, 48 x 16,
 * 32 x 32 b) carry fields from the parser to the deparser but cannot feed the ALUs.
 * Worked numbers: ingress may use 48 of the 8-bit, 80 of the 16-bit and 48 of the
 * 32-bit ordinary containers (the other gress's 16 of each reserved) = 3,200 bits. 95
 * 32-bit metadata fields written by a stage take 3,040 bits, the four intrinsics
 * (9 + 9 + 3 + 9 b) another container or more; ten carried 32-bit header fields no
 * stage touches (320 bits) do not fit beside them, but fit the 32 tagalong 32-bit
 * containers. Read by a stage, the same ten must be in ordinary containers: refused.
 */
class TagalongTest {
    private static final int WRITTEN = 95;
    private static final int CARRIED = 10;

    private static StageProgram program(boolean stagesReadTheCarriedFields) {
        ProgramBuilder b = ProgramBuilder.create("bridge", "t");
        Field src = b.header("ipv4.src_addr");
        List<Field> carried = new ArrayList<>();
        for (int i = 0; i < CARRIED; i++) {
            carried.add(b.bridged("bridge.word" + i, 32));
        }
        List<Field> written = new ArrayList<>();
        for (int i = 0; i < WRITTEN; i++) {
            written.add(b.metadata(Gress.INGRESS, "meta.m" + i, 32));
        }
        Field port = b.intrinsic(Intrinsic.UCAST_EGRESS_PORT);
        b.stage(Gress.INGRESS, 0).body(code -> {
            for (Field f : written) {
                code.set(f, read(src));
            }
        });
        // stage 1 reads every metadata field, so no two lives end before another begins (no overlay)
        b.stage(Gress.INGRESS, 1).body(code -> {
            code.set(port, 1);
            readAll(code, written, stagesReadTheCarriedFields ? carried : List.of());
        });
        return b.build();
    }

    private static void readAll(Block code, List<Field> written, List<Field> carried) {
        List<Field> all = new ArrayList<>(written);
        all.addAll(carried);
        for (int i = 0; i < all.size(); i++) {
            Field f = all.get(i);
            // f = f + 1: each field read (and written once) in the last stage
            code.set(f, add(read(f), constant(1)));
        }
    }

    @Test
    void carriedFieldsNoStageTouchesRideInTagalongContainers() {
        Compilation c = ProgramCompiler.compile(program(false), TargetProfiles.builtIn("tofino1"));
        assertEquals(List.of(), c.lines());
        long tagalong32 = c.resources().phv().stream().filter(g -> g.tagalong() && g.widthBits() == 32)
                .mapToLong(g -> g.used()).sum();
        assertEquals(CARRIED, tagalong32);
        // the same program on a tofino1 without tagalong containers does not fit
        Compilation without = ProgramCompiler.compile(program(false), withoutTagalong());
        assertTrue(without.lines().stream().anyMatch(l -> l.contains("PHV: field") && l.contains("does not fit")),
                () -> String.join("\n", without.lines()));
    }

    private static dev.rmtemu.model.target.TargetProfile withoutTagalong() {
        try (var in = dev.rmtemu.model.target.TargetProfiles.class.getResourceAsStream("tofino1.json")) {
            String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replaceAll(",\\s*\\{ \"widthBits\": \\d+, \"count\": \\d+, \"tagalong\": true \\}", "");
            assertTrue(!json.contains("tagalong"), json);
            return TargetProfiles.parse(json, "tofino1-without-tagalong.json");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theSameFieldsReadByAStageAreRefused() {
        Compilation c = ProgramCompiler.compile(program(true), TargetProfiles.builtIn("tofino1"));
        assertTrue(c.lines().stream().anyMatch(l -> l.contains("PHV: field") && l.contains("does not fit")), () -> String.join("\n", c.lines()));
        assertTrue(c.resources().phv().stream().filter(g -> g.tagalong()).allMatch(g -> g.used() == 0));
    }
}

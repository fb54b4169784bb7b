package dev.rmtemu.model.compiler;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.BiConsumer;

import static dev.rmtemu.model.ir.Ir.color;
import static dev.rmtemu.model.ir.Ir.constant;
import static dev.rmtemu.model.ir.Ir.eq;
import static dev.rmtemu.model.ir.Ir.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Counters and meters of a control are placed with what uses them: a direct one with its
 * table, an indirect one with the run that counts or meters; two users put it in one stage
 * (one stats or meter ALU and its RAMs, as a register array); a meter's colour is read in the
 * action that runs the meter (the meter ALU's output, like a register action's).
 */
class ControlExternsTest {
    private static final TargetProfile TOFINO1 = TargetProfiles.builtIn("tofino1");

    private static StageProgram program(BiConsumer<ProgramBuilder, ProgramBuilder.ControlBuilder> body) {
        ProgramBuilder b = ProgramBuilder.create("ctl", "control externs");
        body.accept(b, b.control(Gress.INGRESS));
        return b.build();
    }

    @Test
    void directAndIndirectCountersGoWithTheirUsers() {
        StageProgram p = ProgramCompiler.compile(program((b, c) -> {
            Field k = b.bridged("k", 16);
            Field m = b.metadata(Gress.INGRESS, "m", 16);
            MatchTable t = c.table("t", MatchKind.EXACT, 16, 0, k);
            Counter hits = c.directCounter("hits", CounterType.PACKETS, 32, t);
            Counter after = c.counter("after", CounterType.BYTES, 32, 16);
            c.apply(code -> {
                code.apply(t).on(1, a -> a.count(hits).set(m, 1));
                code.when(eq(read(m), constant(1)), x -> x.count(after, constant(3))); // matches m: next stage
            });
        }), TOFINO1).requireAccepted().program();
        assertEquals(List.of(0, 1), List.of(p.counter("hits").stage(), p.counter("after").stage()));
        assertEquals("t", p.counter("hits").table().name());
        assertEquals(0, p.counter("hits").table().stage());
    }

    @Test
    void aMetersColourReadOutsideItsActionIsRefusedInItItIsPlaced() {
        StageProgram refused = program((b, c) -> {
            Field k = b.bridged("k", 16);
            Field colour = b.metadata(Gress.INGRESS, "colour", 8);
            Meter m = c.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 4);
            c.apply(code -> {
                code.meter(m, constant(0));
                code.when(eq(read(k), constant(1)), x -> x.set(colour, color(m)));
            });
        });
        UserError e = assertThrows(UserError.class, () -> ProgramCompiler.compile(refused, TOFINO1).requireAccepted());
        assertEquals("program ctl: ingress action set(colour): reads the colour of meter police outside the action that runs"
                + " it; assign the colour to a field and read the field", e.getMessage());

        StageProgram legal = ProgramCompiler.compile(program((b, c) -> {
            b.bridged("k", 16);
            Field colour = b.metadata(Gress.INGRESS, "colour", 8);
            Meter m = c.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 4);
            c.apply(code -> code.meter(m, constant(0)).set(colour, color(m)));
        }), TOFINO1).requireAccepted().program();
        assertEquals(0, legal.meter("police").stage());
    }

    @Test
    void anUnusedMeterIsRefused() {
        StageProgram p = program((b, c) -> {
            Field k = b.bridged("k", 16);
            Field m = b.metadata(Gress.INGRESS, "m", 16);
            c.meter("idle", MeterType.PACKETS, Meter.Algorithm.TRTCM, 4);
            c.apply(code -> code.set(m, read(k)));
        });
        UserError e = assertThrows(UserError.class, () -> ProgramCompiler.compile(p, TOFINO1).requireAccepted());
        assertEquals("program ctl: the ingress control declares meter idle but its apply body never uses it", e.getMessage());
    }
}

package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterType;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterColor;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.Intrinsic;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counters and meters through both back ends: exact packet and byte counts (each frame with
 * its 4-byte CRC, Counter.CRC_BYTES), a direct counter counting only the entry that hit,
 * handles that stay with a ternary entry when a higher-priority one moves it, meter colours
 * written to the PHV, and the generated code equal to the interpreter on random traces.
 *
 * <p>The CRC: TNA (p4c backends/tofino/bf-p4c/p4include/tofino1_base.p4) declares
 * {@code Counter.count(index, @optional adjust_byte_count)}, "value to be subtracted from
 * counter value", and does not state the byte count itself; Tofino counts the frame with its
 * 4-byte FCS (the ingress byte counters of stratum/fabric-tna issue #116 differ from the
 * frame by 4 bytes), while traces carry frames without it.
 */
class ExternRuntimeTest {
    /** A program: per-port byte counter, an exact table with a direct packets-and-bytes counter, a meter. */
    private static final class P {
        final StageProgram program;
        final Field port;
        final Field dst;
        final Field color;
        final Field pre;

        P(MatchKind kind) {
            ProgramBuilder b = ProgramBuilder.create("externs", "counters and meters");
            port = b.intrinsic(Intrinsic.INGRESS_PORT);
            dst = b.bridged("dst", 16);
            pre = b.bridged("pre", 2);
            color = b.metadata(Gress.INGRESS, "color", 8);
            ProgramBuilder.StageBuilder s = b.stage(Gress.INGRESS, 0);
            Counter perPort = s.counter("port_bytes", CounterType.BYTES, 32, 512);
            MatchTable fwd = s.table("fwd", kind, 16, 0, dst);
            Counter hits = s.directCounter("fwd_hits", CounterType.PACKETS_AND_BYTES, 64, fwd);
            Meter m = s.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 4);
            s.body(body -> {
                body.count(perPort, Ir.read(port));
                body.apply(fwd).on(1, a -> a.count(hits)).on(2, a -> { }).miss(a -> a.count(perPort, Ir.constant(511)));
                body.meter(m, Ir.constant(1), Ir.read(pre));
                body.set(color, Ir.color(m));
            });
            program = b.build();
        }
    }

    private static void send(PassExecutor x, Phv phv, P p, int port, int dst, int pre, int wire, long ns, long n) {
        phv.clear();
        phv.load(p.port, port);
        phv.load(p.dst, dst);
        phv.load(p.pre, pre);
        phv.stamp(wire, ns);
        x.run(phv, 0, Gress.INGRESS, n);
    }

    @Test
    void countsPacketsAndBytesWithTheCrcOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P(MatchKind.EXACT);
            Compilation c = ProgramCompiler.compile(p.program, TargetProfiles.builtIn("tofino1"));
            assertTrue(c.accepted(), () -> String.valueOf(c.lines()));
            PipelineState s = new PipelineState(p.program, 1);
            assertEquals(0, s.addExact("fwd", new long[] {7}, 1, 0));
            assertEquals(1, s.addExact("fwd", new long[] {9}, 2, 0));
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            send(x, phv, p, 3, 7, 0, 60, 0, 0);    // hit, action 1: counted 64 B
            send(x, phv, p, 3, 7, 0, 1514, 10, 1); // 1518 B
            send(x, phv, p, 5, 9, 0, 100, 20, 2);  // hit, action 2 does not count
            send(x, phv, p, 5, 1, 0, 200, 30, 3);  // miss: cell 511 too
            assertArrayEquals(new long[] {0, 64 + 1518}, s.readCounter("port_bytes", 3), backend.name());
            assertArrayEquals(new long[] {0, 104 + 204}, s.readCounter("port_bytes", 5), backend.name());
            assertArrayEquals(new long[] {0, 204}, s.readCounter("port_bytes", 511), backend.name());
            assertArrayEquals(new long[] {2, 64 + 1518}, s.readCounter("fwd_hits", 0), backend.name());
            assertArrayEquals(new long[] {0, 0}, s.readCounter("fwd_hits", 1), backend.name());
            s.resetCounter("fwd_hits");
            assertArrayEquals(new long[] {0, 0}, s.readCounter("fwd_hits", 0), backend.name());
        }
    }

    @Test
    void aDirectCounterStaysWithItsTernaryEntryWhenAnotherMovesIt() {
        for (Backend backend : Backend.values()) {
            P p = new P(MatchKind.TERNARY);
            PipelineState s = new PipelineState(p.program, 1);
            s.addTernary("fwd", new long[] {7}, new long[] {0xFFFF}, 10, 1, 0); // handle 0
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            send(x, phv, p, 1, 7, 0, 96, 0, 0);
            // a higher-priority entry takes position 0; the first entry keeps handle 0 and its count
            s.addTernary("fwd", new long[] {8}, new long[] {0xFFFF}, 1, 1, 0); // handle 1
            send(x, phv, p, 1, 7, 0, 96, 0, 1);
            send(x, phv, p, 1, 8, 0, 46, 0, 2);
            assertArrayEquals(new long[] {2, 200}, s.readCounter("fwd_hits", 0), backend.name());
            assertArrayEquals(new long[] {1, 50}, s.readCounter("fwd_hits", 1), backend.name());
        }
    }

    /**
     * A miss that runs the control plane's default action counts in the direct counter's miss
     * cell (index 16, the table's size), on exact and ternary tables and both back ends: Tofino
     * supplies a miss's stats address from the logical table's miss-value register
     * (mau_stats_adr_miss_value), which the driver points at the default entry's own cell.
     */
    @Test
    void aControlPlaneDefaultActionCountsInTheMissCellOnBothBackends() {
        for (MatchKind kind : new MatchKind[] {MatchKind.EXACT, MatchKind.TERNARY}) {
            for (Backend backend : Backend.values()) {
                P p = new P(kind);
                PipelineState s = new PipelineState(p.program, 1);
                if (kind == MatchKind.EXACT) {
                    s.addExact("fwd", new long[] {7}, 1, 0);
                } else {
                    s.addTernary("fwd", new long[] {7}, new long[] {0xFFFF}, 1, 1, 0);
                }
                s.table("fwd").setDefault(1, 0);
                PassExecutor x = new PassExecutor(s, true, backend);
                Phv phv = new Phv(p.program.fields().size());
                send(x, phv, p, 1, 7, 0, 96, 0, 0);  // hit: cell 0
                send(x, phv, p, 1, 8, 0, 46, 0, 1);  // misses: the miss cell
                send(x, phv, p, 1, 9, 0, 196, 0, 2);
                String at = kind + " " + backend;
                assertEquals(17, s.externs(0, Gress.INGRESS).counter(p.program.counter("fwd_hits")).size(), at);
                assertArrayEquals(new long[] {1, 100}, s.readCounter("fwd_hits", 0), at);
                assertArrayEquals(new long[] {2, 50 + 200}, s.readCounter("fwd_hits", 16), at);
                assertArrayEquals(new long[] {0, 0}, s.readCounter("fwd_hits", 1), at);
                assertArrayEquals(new long[] {0, 0}, s.readCounter("port_bytes", 511), at + ": the program's miss block did not run");
            }
        }
    }

    @Test
    void meterColoursReachThePhvOnBothBackends() {
        for (Backend backend : Backend.values()) {
            P p = new P(MatchKind.EXACT);
            PipelineState s = new PipelineState(p.program, 1);
            s.setMeterRates("police", 1, 1_000_000, 200, 2_000_000, 300);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.program.fields().size());
            long[] colors = new long[4];
            int[] wire = {96, 146, 96, 146};      // 100, 150, 100, 150 counted bytes
            long[] ns = {0, 0, 0, 50_000};
            for (int i = 0; i < 4; i++) {
                send(x, phv, p, 1, 1, MeterColor.GREEN, wire[i], ns[i], i);
                phv.commitStage();
                colors[i] = phv.get(p.color);
            }
            assertArrayEquals(new long[] {MeterColor.GREEN, MeterColor.YELLOW, MeterColor.RED, MeterColor.GREEN}, colors,
                    backend.name());
            // colour-aware: a RED pre-colour stays RED though tokens are there (a day later, full buckets)
            send(x, phv, p, 1, 1, MeterColor.RED, 10, 86_400_000_000_000L, 9);
            phv.commitStage();
            assertEquals(MeterColor.RED, phv.get(p.color), backend.name());
        }
    }

    @Test
    void anIndexOutsideTheCounterIsAViolationOnBothBackendsAndItsTwinIsRefusedByTheCompiler() {
        ProgramBuilder b = ProgramBuilder.create("narrow", "a counter smaller than its index");
        Field dst = b.bridged("dst", 16);
        ProgramBuilder.StageBuilder st = b.stage(Gress.INGRESS, 0);
        Counter c = st.counter("c", CounterType.PACKETS, 32, 16);
        st.body(body -> body.count(c, Ir.read(dst)));
        StageProgram program = b.build();
        Compilation refused = ProgramCompiler.compile(program, TargetProfiles.builtIn("tofino1"));
        assertTrue(String.valueOf(refused.lines()).contains("counter c: index dst can reach 65535 but it has 16 cells"),
                () -> String.valueOf(refused.lines()));
        for (Backend backend : Backend.values()) {
            PipelineState s = new PipelineState(program, 1);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(program.fields().size());
            phv.load(dst, 15);
            x.run(phv, 0, Gress.INGRESS, 0);
            phv.load(dst, 16);
            PipelineViolation v = assertThrows(PipelineViolation.class, () -> x.run(phv, 0, Gress.INGRESS, 1));
            assertEquals("violation: packet 1, ingress stage 0: 'c' indexed out of range (index 16, size 16)", v.getMessage(),
                    backend.name());
            assertArrayEquals(new long[] {1, 0}, s.readCounter("c", 15));
        }
        PipelineState s = new PipelineState(program, 1);
        assertEquals("counter c: index 16 outside 0..15",
                assertThrows(UserError.class, () -> s.readCounter("c", 16)).getMessage());
    }

    @Test
    void generatedCodeEqualsTheInterpreterOnRandomTraces() {
        SplittableRandom rnd = new SplittableRandom(33);
        P p = new P(MatchKind.TERNARY);
        PipelineState si = new PipelineState(p.program, 1);
        PipelineState sc = new PipelineState(p.program, 1);
        for (int k = 0; k < 12; k++) {
            int prio = rnd.nextInt(20);
            si.addTernary("fwd", new long[] {k}, new long[] {0xFFFF}, prio, 1 + k % 2, 0);
            sc.addTernary("fwd", new long[] {k}, new long[] {0xFFFF}, prio, 1 + k % 2, 0);
        }
        si.setMeterRates("police", 1, 125_000, 3000, 250_000, 6000);
        sc.setMeterRates("police", 1, 125_000, 3000, 250_000, 6000);
        PassExecutor xi = new PassExecutor(si, true, Backend.INTERPRETER);
        PassExecutor xc = new PassExecutor(sc, true, Backend.COMPILED);
        Phv pi = new Phv(p.program.fields().size());
        Phv pc = new Phv(p.program.fields().size());
        long ns = 0;
        for (int i = 0; i < 5000; i++) {
            ns += rnd.nextInt(20_000);
            int port = rnd.nextInt(512);
            int dst = rnd.nextInt(16);
            int pre = new int[] {0, 1, 3}[rnd.nextInt(3)];
            int wire = 60 + rnd.nextInt(1455);
            send(xi, pi, p, port, dst, pre, wire, ns, i);
            send(xc, pc, p, port, dst, pre, wire, ns, i);
            pi.commitStage();
            pc.commitStage();
            assertEquals(pi.get(p.color), pc.get(p.color), "packet " + i);
        }
        for (int k = 0; k < 512; k++) {
            assertArrayEquals(si.readCounter("port_bytes", k), sc.readCounter("port_bytes", k), "port " + k);
        }
        for (int k = 0; k < 12; k++) {
            assertArrayEquals(si.readCounter("fwd_hits", k), sc.readCounter("fwd_hits", k), "entry " + k);
        }
    }

    @Test
    void aGatewayOnAMetersColourInItsOwnStageIsRefusedTheNextStageMayBranchOnIt() {
        // as for register and hash outputs (StageDependencyPass): the colour reaches the PHV when the stage ends
        ProgramBuilder b = ProgramBuilder.create("same", "branches on the colour in the meter's stage");
        Field drop = b.intrinsic(Intrinsic.DROP_CTL);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        Meter m = s0.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 1);
        s0.body(code -> code.meter(m, Ir.constant(0))
                .when(Ir.eq(Ir.color(m), Ir.constant(MeterColor.RED)), red -> red.set(drop, 1)));
        Compilation refused = ProgramCompiler.compile(b.build(), TargetProfiles.builtIn("tofino1"));
        assertTrue(String.valueOf(refused.lines()).contains("branches on the colour of meter police run in the same stage"),
                () -> String.valueOf(refused.lines()));

        ProgramBuilder t = ProgramBuilder.create("next", "branches on the colour one stage later");
        Field drop2 = t.intrinsic(Intrinsic.DROP_CTL);
        Field c = t.metadata(Gress.INGRESS, "meta.color", 8);
        ProgramBuilder.StageBuilder t0 = t.stage(Gress.INGRESS, 0);
        Meter m2 = t0.meter("police", MeterType.BYTES, Meter.Algorithm.TRTCM, 1);
        t0.body(code -> code.meter(m2, Ir.constant(0)).set(c, Ir.color(m2)));
        t.stage(Gress.INGRESS, 1).body(code -> code.when(Ir.eq(Ir.read(c), Ir.constant(MeterColor.RED)),
                red -> red.set(drop2, 1)));
        Compilation accepted = ProgramCompiler.compile(t.build(), TargetProfiles.builtIn("tofino1"));
        assertTrue(accepted.accepted(), () -> String.valueOf(accepted.lines()));
    }

    /**
     * A direct counter outside its table's actions is refused; its twin in the table's own miss
     * block counts at the miss cell (index 16, the table's size) on both back ends, as Tofino
     * addresses a miss through the logical table's miss-value register.
     */
    @Test
    void aDirectCounterOutsideItsTableIsRefusedInTheMissBlockItCountsAtTheMissCell() {
        ProgramBuilder b = ProgramBuilder.create("outside", "counts a direct counter outside its table");
        Field k = b.bridged("k", 16);
        ProgramBuilder.StageBuilder s0 = b.stage(Gress.INGRESS, 0);
        MatchTable t = s0.table("t", MatchKind.EXACT, 16, 0, k);
        Counter hits = s0.directCounter("hits", CounterType.PACKETS, 32, t);
        s0.body(code -> {
            code.apply(t).on(1, a -> a.count(hits));
            code.count(hits);
        });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("ingress stage 0: direct counter hits is used outside an action of table t (a direct cell is the entry"
                + " that hit, or the miss entry's)", e.getMessage());

        for (Backend backend : Backend.values()) {
            ProgramBuilder twin = ProgramBuilder.create("miss", "counts a direct counter on a miss");
            Field key = twin.bridged("k", 16);
            ProgramBuilder.StageBuilder st = twin.stage(Gress.INGRESS, 0);
            MatchTable tt = st.table("t", MatchKind.EXACT, 16, 0, key);
            Counter c = st.directCounter("hits", CounterType.PACKETS, 32, tt);
            st.body(code -> code.apply(tt).on(1, a -> a.count(c)).miss(miss -> miss.count(c)));
            StageProgram p = twin.build();
            PipelineState s = new PipelineState(p, 1);
            s.addExact("t", new long[] {5}, 1, 0);
            PassExecutor x = new PassExecutor(s, true, backend);
            Phv phv = new Phv(p.fields().size());
            for (int i = 0; i < 3; i++) {
                phv.clear();
                phv.load(key, i == 0 ? 5 : 6);
                phv.stamp(60, 0);
                x.run(phv, 0, Gress.INGRESS, i);
            }
            assertArrayEquals(new long[] {1, 0}, s.readCounter("hits", 0), backend.name());
            assertArrayEquals(new long[] {2, 0}, s.readCounter("hits", 16), backend.name());
        }
    }
}

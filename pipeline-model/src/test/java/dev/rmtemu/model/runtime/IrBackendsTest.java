package dev.rmtemu.model.runtime;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.compiler.Compilation;
import dev.rmtemu.model.compiler.ProgramCompiler;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Block;
import dev.rmtemu.model.ir.Condition;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Ir;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.AluOp;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.Operand;
import dev.rmtemu.model.register.Predicate;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.target.TargetProfiles;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two back ends of the IR agree: on random programs (every statement and
 * operator kind, gateways, tables with action data, register actions, hashes)
 * and random packets, the generated class leaves the same PHV, the same
 * header-written mark and the same register contents as the interpreter.
 */
class IrBackendsTest {
    private static final int PROGRAMS = 60;
    private static final int PACKETS = 400;
    private static final int STAGES = 4;
    private static final int CELLS = 1024;
    private static final VliwOp[] OPS = VliwOp.values();
    private static final int[] WIDTHS = {1, 7, 8, 16, 31, 32, 48, 63, 64};

    @Test
    void compiledCodeEqualsTheInterpreterOnRandomProgramsAndPackets() {
        SplittableRandom rnd = new SplittableRandom(17);
        for (int n = 0; n < PROGRAMS; n++) {
            Generated g = generate(rnd, n);
            Compilation c = ProgramCompiler.compile(g.program, TargetProfiles.builtIn("unconstrained"));
            assertTrue(c.accepted(), () -> "generated program " + g.program.name() + " refused: " + c.lines());
            PipelineState si = new PipelineState(g.program, 1);
            PipelineState sc = new PipelineState(g.program, 1);
            for (MatchTable t : g.program.tables()) {
                for (int k = 0; k < 6; k++) {
                    int action = 1 + (k % 3);
                    si.addExact(t.name(), new long[] {k}, action, 100 + k);
                    sc.addExact(t.name(), new long[] {k}, action, 100 + k);
                }
            }
            PassExecutor interpreter = new PassExecutor(si, true, Backend.INTERPRETER);
            PassExecutor compiled = new PassExecutor(sc, true, Backend.COMPILED);
            Phv pi = new Phv(g.program.fields().size());
            Phv pc = new Phv(g.program.fields().size());
            for (int i = 0; i < PACKETS; i++) {
                pi.clear();
                pc.clear();
                for (Field f : g.headers) {
                    long v = rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(8);
                    pi.load(f, v);
                    pc.load(f, v);
                }
                interpreter.run(pi, 0, Gress.INGRESS, i);
                compiled.run(pc, 0, Gress.INGRESS, i);
                int packet = i;
                assertArrayEquals(pi.values(), pc.values(), () -> g.program.name() + " packet " + packet);
                assertEquals(pi.headerWritten(), pc.headerWritten(), g.program.name() + " packet " + packet);
            }
            for (RegisterArray r : g.program.registers()) {
                assertArrayEquals(si.snapshot(0, r.name()), sc.snapshot(0, r.name()), g.program.name() + " " + r.name());
                if (r.pair()) {
                    assertArrayEquals(si.snapshotHi(0, r.name()), sc.snapshotHi(0, r.name()), g.program.name() + " " + r.name());
                }
            }
        }
    }

    /**
     * A table of constant entries (P4's const entries) is installed with the switch state:
     * both back ends look up the byte mod 5 it holds without a control plane, a key it does
     * not hold misses, and the compiler accepts it on tofino1 where '%' by 5 is refused.
     */
    @Test
    void constantTableEntriesAreInstalledWithTheStateAndLookedUpByBothBackEnds() {
        ProgramBuilder b = ProgramBuilder.create("const_table", "byte mod 5 from a table of constants");
        Field port = b.overlay("l4.src_port", "tcp.src_port", "udp.src_port");
        Field low = b.metadata(Gress.INGRESS, "meta.low", 8);
        Field rest = b.metadata(Gress.INGRESS, "meta.rest", 8);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(low, Ir.read(port)));
        List<MatchTable.ConstEntry> entries = new ArrayList<>();
        for (int v = 0; v < 200; v++) {
            entries.add(new MatchTable.ConstEntry(new long[] {v}, 1, v % 5));
        }
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        MatchTable mod5 = s1.constTable("mod5", 8, entries, low);
        s1.body(code -> code.apply(mod5).on(1, hit -> hit.set(rest, Ir.actionData(mod5))).miss(miss -> miss.set(rest, 255)));
        StageProgram p = b.build();
        assertTrue(ProgramCompiler.compile(p, TargetProfiles.builtIn("tofino1")).accepted());
        assertEquals(200, p.table("mod5").constEntries().size());
        for (Backend backend : Backend.values()) {
            PipelineState state = new PipelineState(p, 1);
            assertEquals(200, state.table("mod5").count(), backend.name());
            PassExecutor exec = new PassExecutor(state, true, backend);
            Phv phv = new Phv(p.fields().size());
            for (int v : new int[] {0, 7, 199, 200, 0x1234}) {
                phv.clear();
                phv.load(port, v);
                exec.run(phv, 0, Gress.INGRESS, v);
                long expected = (v & 0xFF) < 200 ? (v & 0xFF) % 5 : 255;
                assertEquals(expected, phv.values()[rest.slot()], backend + " port " + v);
            }
        }
    }

    /**
     * Const tables narrow enough to be indexed by their key (8 bits) and too
     * wide for it (16-bit key, hashed): a key listed twice takes its later entry, as the
     * installed table does; both back ends agree on every key; the control plane cannot
     * add to either (P4_16: const entries are fixed at compile time).
     */
    @Test
    void narrowAndWideConstTablesLookUpTheSameOnBothBackEndsAndRefuseTheControlPlane() {
        ProgramBuilder b = ProgramBuilder.create("const_tables", "const tables, direct and hashed");
        Field port = b.overlay("l4.src_port", "tcp.src_port", "udp.src_port");
        Field low = b.metadata(Gress.INGRESS, "meta.low", 8);
        Field a = b.metadata(Gress.INGRESS, "meta.a", 16);
        Field w = b.metadata(Gress.INGRESS, "meta.w", 16);
        b.stage(Gress.INGRESS, 0).body(code -> code.set(low, Ir.read(port)));
        List<MatchTable.ConstEntry> narrow = List.of(new MatchTable.ConstEntry(new long[] {3}, 1, 30),
                new MatchTable.ConstEntry(new long[] {9}, 2, 90), new MatchTable.ConstEntry(new long[] {3}, 2, 31));
        List<MatchTable.ConstEntry> wide = List.of(new MatchTable.ConstEntry(new long[] {0x1234}, 1, 7),
                new MatchTable.ConstEntry(new long[] {0xFF03}, 2, 8));
        ProgramBuilder.StageBuilder s1 = b.stage(Gress.INGRESS, 1);
        MatchTable byLow = s1.constTable("by_low", 16, narrow, low);
        MatchTable byPort = s1.constTable("by_port", 16, wide, port);
        s1.body(code -> {
            code.apply(byLow).on(1, x -> x.set(a, Ir.actionData(byLow)))
                    .on(2, x -> x.set(a, Ir.add(Ir.actionData(byLow), Ir.constant(1000)))).miss(x -> x.set(a, 0xFFFF));
            code.apply(byPort).on(1, x -> x.set(w, Ir.actionData(byPort)))
                    .on(2, x -> x.set(w, Ir.add(Ir.actionData(byPort), Ir.constant(100)))).miss(x -> x.set(w, 0xFFFF));
        });
        StageProgram p = b.build();
        long[][] expected = {{0x0003, 1031, 0xFFFF}, {0x0009, 1090, 0xFFFF}, {0x1234, 0xFFFF, 7}, {0xFF03, 1031, 108}, {0x0004, 0xFFFF, 0xFFFF}};
        for (Backend backend : Backend.values()) {
            PipelineState state = new PipelineState(p, 1);
            PassExecutor exec = new PassExecutor(state, true, backend);
            Phv phv = new Phv(p.fields().size());
            for (long[] e : expected) {
                phv.clear();
                phv.load(port, e[0]);
                exec.run(phv, 0, Gress.INGRESS, e[0]);
                assertEquals(e[1], phv.values()[a.slot()], backend + " by_low, port " + e[0]);
                assertEquals(e[2], phv.values()[w.slot()], backend + " by_port, port " + e[0]);
            }
            UserError refused = assertThrows(UserError.class, () -> state.addExact("by_low", new long[] {4}, 1, 1));
            assertEquals("table by_low has const entries: the control plane cannot change it", refused.getMessage());
            assertThrows(UserError.class, () -> state.addExact("by_port", new long[] {4}, 1, 1));
        }
    }

    private record Generated(StageProgram program, List<Field> headers) {
    }

    private static Generated generate(SplittableRandom rnd, int n) {
        ProgramBuilder b = ProgramBuilder.create("random" + n, "random IR program");
        List<Field> headers = List.of(
                b.header("ipv4.src_addr"),
                b.header("ipv4.dst_addr"),
                b.overlay("l4.src_port", "tcp.src_port", "udp.src_port"));
        List<Field> meta = new ArrayList<>();
        int[] widths = {8, 16, 32, 64, 12, 32, 48, 1};
        for (int i = 0; i < widths.length; i++) {
            meta.add(b.metadata(Gress.INGRESS, "meta.m" + i, widths[i]));
        }
        List<Field> all = new ArrayList<>(headers);
        all.addAll(meta);
        for (int s = 0; s < STAGES; s++) {
            ProgramBuilder.StageBuilder st = b.stage(Gress.INGRESS, s);
            HashUnit h = st.hash("h" + s, HashAlgorithm.byName(rnd.nextBoolean() ? "crc32" : "crc16"), 10,
                    all.get(rnd.nextInt(all.size())), all.get(rnd.nextInt(all.size())));
            boolean pair = rnd.nextBoolean();
            RegisterArray r = st.register("r" + s, 32, pair, CELLS);
            RegisterAction ra = st.action(randomAction(rnd, r, pair));
            MatchTable t = rnd.nextBoolean() ? st.table("t" + s, MatchKind.EXACT, 16, 16, headers.get(rnd.nextInt(3))) : null;
            st.body(code -> stageBody(rnd, code, all, meta, headers, h, ra, t));
        }
        return new Generated(b.build(), headers);
    }

    private static RegisterAction randomAction(SplittableRandom rnd, RegisterArray r, boolean pair) {
        RegisterAction.Builder a = RegisterAction.on(r, "a_" + r.name());
        if (rnd.nextBoolean()) {
            a.condition(Operand.REG_LO, CmpOp.values()[rnd.nextInt(6)], Operand.IN_LO);
            a.updateLo(Predicate.C0, AluOp.ADD, Operand.REG_LO, Operand.IN_LO);
            a.updateLo(Predicate.NOT_C0, AluOp.SET, Operand.IN_LO, Operand.constant(0));
        } else {
            a.updateLo(AluOp.ADD, Operand.REG_LO, Operand.constant(1 + rnd.nextInt(5)));
        }
        if (pair) {
            a.updateHi(AluOp.ADD, Operand.REG_HI, Operand.IN_HI);
            return a.output(RegisterAction.OutputSource.OLD_HI).build();
        }
        return a.output(rnd.nextBoolean() ? RegisterAction.OutputSource.NEW_LO : RegisterAction.OutputSource.OLD_LO).build();
    }

    /** One stage: destinations drawn without repetition, so no container is written twice on a path. */
    private static void stageBody(SplittableRandom rnd, Block code, List<Field> all, List<Field> meta, List<Field> headers,
                                  HashUnit h, RegisterAction ra, MatchTable t) {
        List<Field> dests = new ArrayList<>(meta);
        dests.add(headers.get(rnd.nextInt(headers.size())));
        Collections.shuffle(dests, new java.util.Random(rnd.nextLong()));
        int next = 0;
        boolean executed = false;
        boolean applied = false;
        if (rnd.nextInt(4) != 0) {
            code.execute(ra, Ir.hash(h), Ir.read(all.get(rnd.nextInt(all.size()))), Ir.read(all.get(rnd.nextInt(all.size()))));
            executed = true;
        }
        int statements = 1 + rnd.nextInt(3);
        for (int i = 0; i < statements && next < dests.size() - 3; i++) {
            boolean regOut = executed;
            switch (rnd.nextInt(3)) {
                case 0 -> code.set(dests.get(next++), randomValue(rnd, all, h, regOut ? ra : null));
                case 1 -> {
                    Field a = dests.get(next++);
                    Field e = dests.get(next++);
                    Condition c = new Condition(atom(rnd, all, null, null), CmpOp.values()[rnd.nextInt(6)], atom(rnd, all, null, null));
                    code.when(c, then -> then.set(a, randomValue(rnd, all, h, regOut ? ra : null)),
                            otherwise -> otherwise.set(e, randomValue(rnd, all, h, null)));
                }
                default -> {
                    if (t == null || applied) {
                        code.set(dests.get(next++), randomValue(rnd, all, h, null));
                    } else {
                        applied = true;
                        Field a = dests.get(next++);
                        Field m = dests.get(next++);
                        code.apply(t)
                                .on(1, x -> x.set(a, Ir.actionData(t)))
                                .on(2, x -> x.set(a, Ir.add(Ir.actionData(t), Ir.read(all.get(0)))))
                                .miss(x -> x.set(m, randomValue(rnd, all, h, null)));
                    }
                }
            }
        }
    }

    private static Expr randomValue(SplittableRandom rnd, List<Field> all, HashUnit h, RegisterAction out) {
        Expr a = atom(rnd, all, h, out);
        if (rnd.nextInt(4) == 0) {
            // a bare constant must fit the narrowest destination (the compiler refuses one that does not)
            return a instanceof Expr.Const c ? Ir.constant(c.value() & 1) : a;
        }
        VliwOp op = OPS[rnd.nextInt(OPS.length)];
        Expr right = switch (op) {
            case SHL, SHR, SHRS -> Ir.constant(rnd.nextInt(70));
            case MUL, DIV, MOD -> rnd.nextBoolean() ? Ir.constant(1L << rnd.nextInt(20)) : Ir.constant(1 + rnd.nextInt(50_000));
            default -> atom(rnd, all, h, out);
        };
        if ((op == VliwOp.SHL || op == VliwOp.SHR || op == VliwOp.SHRS) && ((Expr.Const) right).value() > 63) {
            right = Ir.constant(63);
        }
        if (op.widthAware()) {
            // saturating arithmetic and concatenation at a width, the edges (1, 63, 64) among them
            return Ir.op(op, a, right, WIDTHS[rnd.nextInt(WIDTHS.length)]);
        }
        return Ir.op(op, a, right);
    }

    private static Expr atom(SplittableRandom rnd, List<Field> all, HashUnit h, RegisterAction out) {
        int k = rnd.nextInt(out != null ? 4 : h != null ? 3 : 2);
        return switch (k) {
            case 0 -> Ir.read(all.get(rnd.nextInt(all.size())));
            case 1 -> Ir.constant(rnd.nextBoolean() ? rnd.nextInt(256) : rnd.nextLong());
            case 2 -> Ir.hash(h);
            default -> Ir.output(out);
        };
    }
}

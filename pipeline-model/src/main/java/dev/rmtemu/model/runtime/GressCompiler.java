package dev.rmtemu.model.runtime;

import java.lang.invoke.MethodType;
import java.util.Locale;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.CounterCells;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterCells;
import dev.rmtemu.model.extern.MeterType;
import dev.rmtemu.model.hash.CrcKernel;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.ir.Expr;
import dev.rmtemu.model.ir.Stmt;
import dev.rmtemu.model.ir.VliwOp;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.program.StageDecl;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.register.CmpOp;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.register.RegisterKernel;
import dev.rmtemu.model.table.MatchKind;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableState;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.WeakHashMap;

/**
 * Compiles one gress of an IR program into a {@link GressCode} hidden class
 * (ASM). Semantics are the interpreter's ({@code IrInterpreter}); a test holds
 * the two equal on random programs and traces. The class is made once per
 * (program, gress) and shared, since it holds no state.
 */
public final class GressCompiler {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final String SUPER = Type.getInternalName(GressCode.class);
    private static final String NAME = "dev/rmtemu/model/runtime/GressCode$Generated";
    private static final String RUN = "([JL" + Type.getInternalName(Phv.class) + ";[[J[[J[L"
            + Type.getInternalName(TableState.class) + ";L" + Type.getInternalName(ExternFile.class) + ";J)V";

    // arguments of run
    private static final int PHV = 1;
    private static final int P = 2;
    private static final int LO = 3;
    private static final int HI = 4;
    private static final int TABLES = 5;
    private static final int EXTERNS = 6;
    private static final int PACKET = 7;
    private static final int FIRST_LOCAL = 9;

    private static final Map<StageProgram, GressCode[]> CACHE = new WeakHashMap<>();

    private GressCompiler() {
    }

    /** The generated code of a gress (made on first use, then shared). */
    public static GressCode of(StageProgram program, Gress g) {
        synchronized (CACHE) {
            GressCode[] codes = CACHE.computeIfAbsent(program, p -> new GressCode[Gress.values().length]);
            if (codes[g.ordinal()] == null) {
                codes[g.ordinal()] = compile(program, g);
            }
            return codes[g.ordinal()];
        }
    }

    static GressCode compile(StageProgram program, Gress g) {
        Emitter e = new Emitter(g);
        e.program = program;
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, NAME, null, SUPER, null);
        MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, SUPER, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        // one private method per stage: each is small enough for the JIT to compile with its own
        // inlining budget (one method for a whole gress ran out of it, leaving kernels as calls)
        List<String> stageMethods = new ArrayList<>();
        for (StageDecl d : program.stages(g)) {
            String name = "stage" + d.number();
            MethodVisitor sm = cw.visitMethod(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL, name, RUN, null, null);
            sm.visitCode();
            e.m = sm;
            e.stage(d);
            sm.visitInsn(Opcodes.RETURN);
            sm.visitMaxs(0, 0);
            sm.visitEnd();
            stageMethods.add(name);
        }
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "run", RUN, null, null);
        m.visitCode();
        for (String name : stageMethods) {
            for (int arg = 0; arg <= EXTERNS; arg++) {
                m.visitVarInsn(Opcodes.ALOAD, arg);
            }
            m.visitVarInsn(Opcodes.LLOAD, PACKET);
            m.visitMethodInsn(Opcodes.INVOKESPECIAL, NAME, name, RUN, false);
        }
        m.visitInsn(Opcodes.RETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
        e.constants(cw);
        cw.visitEnd();
        try {
            Class<?> k = LOOKUP.defineHiddenClassWithClassData(cw.toByteArray(), List.copyOf(e.constants), true).lookupClass();
            return (GressCode) LOOKUP.findConstructor(k, MethodType.methodType(void.class)).invoke();
        } catch (Throwable t) {
            throw new IllegalStateException("generating the " + g.label() + " code of " + program.name() + " failed", t);
        }
    }

    /** Emits the stages of one gress into {@code run}. */
    private static final class Emitter {
        private final Gress gress;
        private final List<Object> constants = new ArrayList<>();
        private final List<String> constantTypes = new ArrayList<>();
        private final Map<Object, Integer> constantIndex = new IdentityHashMap<>();
        MethodVisitor m;
        private int nextLocal = FIRST_LOCAL;
        // per stage
        private StageDecl stage;
        private final Map<Field, Integer> written = new IdentityHashMap<>();
        /** Local set when the stage wrote a header field (-1: the stage writes none). */
        private int headerFlag = -1;
        private final Map<RegisterAction, Integer> outputs = new IdentityHashMap<>();
        private final Map<MatchTable, Integer> actionData = new IdentityHashMap<>();
        /** Per table with a direct counter or meter: the int local holding the handle of the entry that hit. */
        private final Map<MatchTable, Integer> handles = new IdentityHashMap<>();
        private final Map<Meter, Integer> colors = new IdentityHashMap<>();
        /** The program (which tables are indirect: their action profile answers the action). */
        StageProgram program;

        Emitter(Gress gress) {
            this.gress = gress;
        }

        private int longLocal() {
            int l = nextLocal;
            nextLocal += 2;
            return l;
        }

        private int local() {
            return nextLocal++;
        }

        void stage(StageDecl d) {
            stage = d;
            nextLocal = FIRST_LOCAL;
            headerFlag = -1;
            written.clear();
            outputs.clear();
            actionData.clear();
            handles.clear();
            colors.clear();
            // fields the stage writes, in slot order: loaded at entry, stored back at the end
            TreeMap<Integer, Field> bySlot = new TreeMap<>();
            Stmt.walk(d.body(), s -> s.accept(new Stmt.Visitor<Void>() {
                @Override
                public Void count(Stmt.Count x) {
                    return null;
                }

                @Override
                public Void meter(Stmt.ExecuteMeter x) {
                    return null;
                }

                @Override
                public Void assign(Stmt.Assign a) {
                    bySlot.put(a.dest().slot(), a.dest());
                    return null;
                }

                @Override
                public Void execute(Stmt.Execute x) {
                    return null;
                }

                @Override
                public Void gateway(Stmt.If i) {
                    return null;
                }

                @Override
                public Void apply(Stmt.Apply a) {
                    return null;
                }
            }));
            for (Field f : bySlot.values()) {
                int l = longLocal();
                written.put(f, l);
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                ldcInt(f.slot());
                m.visitInsn(Opcodes.LALOAD);
                m.visitVarInsn(Opcodes.LSTORE, l);
            }
            for (RegisterAction a : d.registerActions()) {
                int l = longLocal();
                outputs.put(a, l);
                m.visitInsn(Opcodes.LCONST_0);
                m.visitVarInsn(Opcodes.LSTORE, l);
            }
            for (MatchTable t : d.tables()) {
                int l = longLocal();
                actionData.put(t, l);
                m.visitInsn(Opcodes.LCONST_0);
                m.visitVarInsn(Opcodes.LSTORE, l);
            }
            for (Meter mt : d.meters()) {
                int l = longLocal();
                colors.put(mt, l);
                m.visitInsn(Opcodes.LCONST_0);
                m.visitVarInsn(Opcodes.LSTORE, l);
                if (mt.direct()) {
                    directHandle(mt.table());
                }
            }
            for (Counter c : d.counters()) {
                if (c.direct()) {
                    directHandle(c.table());
                }
            }
            for (RegisterArray r : d.registers()) {
                if (r.direct()) {
                    directHandle(r.table());
                }
            }
            if (bySlot.values().stream().anyMatch(Field::reachesFrame)) {
                headerFlag = local();
                m.visitInsn(Opcodes.ICONST_0);
                m.visitVarInsn(Opcodes.ISTORE, headerFlag);
            }
            block(d.body());
            for (Field f : bySlot.values()) {
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                ldcInt(f.slot());
                m.visitVarInsn(Opcodes.LLOAD, written.get(f));
                m.visitInsn(Opcodes.LASTORE);
            }
            if (headerFlag >= 0) {
                // the deparser's mark, once per stage, when an assignment to a header field ran
                Label none = new Label();
                m.visitVarInsn(Opcodes.ILOAD, headerFlag);
                m.visitJumpInsn(Opcodes.IFEQ, none);
                m.visitVarInsn(Opcodes.ALOAD, P);
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, Type.getInternalName(Phv.class), "markHeaderWritten", "()V", false);
                m.visitLabel(none);
            }
        }

        /** A local for the handle of the entry of {@code t} that hit (once per table). */
        private void directHandle(MatchTable t) {
            if (!handles.containsKey(t)) {
                int l = local();
                handles.put(t, l);
                m.visitInsn(Opcodes.ICONST_0);
                m.visitVarInsn(Opcodes.ISTORE, l);
            }
        }

        /** Emits each kind of statement. */
        private final Stmt.Visitor<Void> statements = new Stmt.Visitor<>() {
            @Override
            public Void count(Stmt.Count c) {
                Emitter.this.count(c);
                return null;
            }

            @Override
            public Void meter(Stmt.ExecuteMeter x) {
                Emitter.this.meter(x);
                return null;
            }

            @Override
            public Void assign(Stmt.Assign a) {
                Emitter.this.assign(a);
                return null;
            }

            @Override
            public Void execute(Stmt.Execute x) {
                Emitter.this.execute(x);
                return null;
            }

            @Override
            public Void gateway(Stmt.If i) {
                Emitter.this.gateway(i);
                return null;
            }

            @Override
            public Void apply(Stmt.Apply a) {
                Emitter.this.apply(a);
                return null;
            }
        };

        private void block(List<Stmt> stmts) {
            for (Stmt s : stmts) {
                s.accept(statements);
            }
        }

        private void assign(Stmt.Assign a) {
            Field f = a.dest();
            value(a.value());
            if (f.mask() != -1L) {
                m.visitLdcInsn(f.mask());
                m.visitInsn(Opcodes.LAND);
            }
            m.visitVarInsn(Opcodes.LSTORE, written.get(f));
            if (f.reachesFrame()) {
                m.visitInsn(Opcodes.ICONST_1);
                m.visitVarInsn(Opcodes.ISTORE, headerFlag);
            }
        }

        private void execute(Stmt.Execute x) {
            RegisterAction a = x.action();
            int id = a.array().id();
            int size = a.array().size();
            int index = longLocal();
            if (a.array().direct()) {
                // a direct register's cell is the entry that hit (or the miss cell), never out of range
                m.visitVarInsn(Opcodes.ILOAD, handles.get(a.array().table()));
                m.visitInsn(Opcodes.I2L);
            } else {
                value(x.index());
            }
            m.visitVarInsn(Opcodes.LSTORE, index);
            // an index outside the array is a violation (the compiler proves most indexes in range)
            Label ok = new Label();
            m.visitVarInsn(Opcodes.LLOAD, index);
            m.visitLdcInsn(Long.MIN_VALUE);
            m.visitInsn(Opcodes.LADD);
            m.visitLdcInsn((long) size + Long.MIN_VALUE); // unsigned index < size, as a signed compare
            m.visitInsn(Opcodes.LCMP);
            m.visitJumpInsn(Opcodes.IFLT, ok);
            m.visitVarInsn(Opcodes.LLOAD, PACKET);
            ldcInt(gress.ordinal());
            ldcInt(stage.number());
            m.visitLdcInsn(a.array().name());
            m.visitVarInsn(Opcodes.LLOAD, index);
            ldcInt(size);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "indexOutOfRange",
                    "(JIILjava/lang/String;JI)L" + Type.getInternalName(PipelineViolation.class) + ";", false);
            m.visitInsn(Opcodes.ATHROW);
            m.visitLabel(ok);
            String owner;
            if (a.kernel() != null) {
                constant(a.kernel(), RegisterKernel.class);
                owner = Type.getInternalName(RegisterKernel.class);
            } else {
                constant(a, RegisterAction.class);
                owner = Type.getInternalName(RegisterAction.class);
            }
            m.visitVarInsn(Opcodes.ALOAD, LO);
            ldcInt(id);
            m.visitInsn(Opcodes.AALOAD);
            m.visitVarInsn(Opcodes.ALOAD, HI);
            ldcInt(id);
            m.visitInsn(Opcodes.AALOAD);
            m.visitVarInsn(Opcodes.LLOAD, index);
            m.visitInsn(Opcodes.L2I);
            value(x.inLo());
            value(x.inHi());
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, "execute", "([J[JIJJ)J", false);
            m.visitVarInsn(Opcodes.LSTORE, outputs.get(a));
        }

        /** Leaves a counter or meter cell's index on the stack as an int: its index, checked, or the hit's handle. */
        private void cell(MatchTable direct, Expr index, String name, int size) {
            if (direct != null) {
                m.visitVarInsn(Opcodes.ILOAD, handles.get(direct));
                return;
            }
            int l = longLocal();
            value(index);
            m.visitVarInsn(Opcodes.LSTORE, l);
            rangeCheck(l, name, size);
            m.visitVarInsn(Opcodes.LLOAD, l);
            m.visitInsn(Opcodes.L2I);
        }

        /** Throws the index violation unless the long in {@code local} is below {@code size} (unsigned). */
        private void rangeCheck(int local, String name, int size) {
            Label ok = new Label();
            m.visitVarInsn(Opcodes.LLOAD, local);
            m.visitLdcInsn(Long.MIN_VALUE);
            m.visitInsn(Opcodes.LADD);
            m.visitLdcInsn((long) size + Long.MIN_VALUE);
            m.visitInsn(Opcodes.LCMP);
            m.visitJumpInsn(Opcodes.IFLT, ok);
            m.visitVarInsn(Opcodes.LLOAD, PACKET);
            ldcInt(gress.ordinal());
            ldcInt(stage.number());
            m.visitLdcInsn(name);
            m.visitVarInsn(Opcodes.LLOAD, local);
            ldcInt(size);
            m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "indexOutOfRange",
                    "(JIILjava/lang/String;JI)L" + Type.getInternalName(PipelineViolation.class) + ";", false);
            m.visitInsn(Opcodes.ATHROW);
            m.visitLabel(ok);
        }

        /** Pushes the bytes the packet counts for (frame and CRC) less {@code adjust}. */
        private void countedBytes(Expr adjust) {
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, Type.getInternalName(Phv.class), "countedBytes", "()J", false);
            Long a = adjust.constantValue();
            if (a == null || a != 0) {
                value(adjust);
                m.visitInsn(Opcodes.LSUB);
            }
        }

        private void count(Stmt.Count x) {
            Counter c = x.counter();
            String cells = Type.getInternalName(CounterCells.class);
            m.visitVarInsn(Opcodes.ALOAD, EXTERNS);
            ldcInt(c.id());
            m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "counter",
                    "(L" + Type.getInternalName(ExternFile.class) + ";I)L" + cells + ";", false);
            cell(c.table(), x.index(), c.name(), c.size());
            countedBytes(x.adjust());
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, cells, "count", "(IJ)V", false);
        }

        private void meter(Stmt.ExecuteMeter x) {
            Meter mt = x.meter();
            String cells = Type.getInternalName(MeterCells.class);
            m.visitVarInsn(Opcodes.ALOAD, EXTERNS);
            ldcInt(mt.id());
            m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "meter",
                    "(L" + Type.getInternalName(ExternFile.class) + ";I)L" + cells + ";", false);
            cell(mt.table(), x.index(), mt.name(), mt.size());
            value(x.color());
            if (mt.type() == MeterType.PACKETS) {
                m.visitInsn(Opcodes.LCONST_1);
            } else {
                countedBytes(x.adjust());
            }
            m.visitVarInsn(Opcodes.ALOAD, P);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, Type.getInternalName(Phv.class), "nowNs", "()J", false);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, cells, "execute", "(IJJJ)J", false);
            m.visitVarInsn(Opcodes.LSTORE, colors.get(mt));
        }

        private void gateway(Stmt.If i) {
            Label otherwise = new Label();
            Label end = new Label();
            // unsigned order as a signed LCMP of both values with the sign bit flipped
            boolean ordered = i.condition().op() != CmpOp.EQ && i.condition().op() != CmpOp.NE;
            value(i.condition().left());
            if (ordered) {
                m.visitLdcInsn(Long.MIN_VALUE);
                m.visitInsn(Opcodes.LADD);
            }
            value(i.condition().right());
            if (ordered) {
                m.visitLdcInsn(Long.MIN_VALUE);
                m.visitInsn(Opcodes.LADD);
            }
            m.visitInsn(Opcodes.LCMP);
            int jumpWhenFalse = switch (i.condition().op()) {
                case EQ -> Opcodes.IFNE;
                case NE -> Opcodes.IFEQ;
                case LT -> Opcodes.IFGE;
                case LE -> Opcodes.IFGT;
                case GT -> Opcodes.IFLE;
                case GE -> Opcodes.IFLT;
            };
            m.visitJumpInsn(jumpWhenFalse, otherwise);
            block(i.then());
            m.visitJumpInsn(Opcodes.GOTO, end);
            m.visitLabel(otherwise);
            block(i.otherwise());
            m.visitLabel(end);
        }

        private void apply(Stmt.Apply ap) {
            MatchTable t = ap.table();
            String ts = Type.getInternalName(TableState.class);
            String mt = Type.getInternalName(MatchTable.class);
            int state = local();
            int entry = local();
            m.visitVarInsn(Opcodes.ALOAD, TABLES);
            ldcInt(t.id());
            m.visitInsn(Opcodes.AALOAD);
            m.visitVarInsn(Opcodes.ASTORE, state);
            m.visitVarInsn(Opcodes.ALOAD, state);
            if (t.keyBits() <= 2 * Long.SIZE) {
                packKey(t, true);
                packKey(t, false);
            } else {
                constant(t, MatchTable.class);
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, mt, "keyHi", "([J)J", false);
                constant(t, MatchTable.class);
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, mt, "keyLo", "([J)J", false);
            }
            // an exact table answers with its hash slot, which also holds the action and its data
            boolean indirect = program.implementationOf(t.name()) != null;
            boolean exact = t.kind() == MatchKind.EXACT && !indirect;
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, exact ? "lookupExactSlot" : "lookup", "(JJ)I", false);
            m.visitVarInsn(Opcodes.ISTORE, entry);
            Label miss = new Label();
            Label end = new Label();
            m.visitVarInsn(Opcodes.ILOAD, entry);
            m.visitJumpInsn(Opcodes.IFLT, miss);
            if (indirect) {
                indirectHit(t, state, entry, miss, end, ap);
                return;
            }
            m.visitVarInsn(Opcodes.ALOAD, state);
            m.visitVarInsn(Opcodes.ILOAD, entry);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, exact ? "slotActionData" : "actionData", "(I)J", false);
            m.visitVarInsn(Opcodes.LSTORE, actionData.get(t));
            Integer handle = handles.get(t);
            if (handle != null) {
                m.visitVarInsn(Opcodes.ALOAD, state);
                m.visitVarInsn(Opcodes.ILOAD, entry);
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, exact ? "slotHandle" : "handle", "(I)I", false);
                m.visitVarInsn(Opcodes.ISTORE, handle);
            }
            m.visitVarInsn(Opcodes.ALOAD, state);
            m.visitVarInsn(Opcodes.ILOAD, entry);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, exact ? "slotActionId" : "actionId", "(I)I", false);
            actionSwitch(ap, end);
            missBranch(t, handle, ap, miss, end);
        }

        /**
         * The hit of an indirect table (an action profile's): the member its entry or its group
         * gives for this packet ({@code TableState.member}, -1 for an empty group: the miss), then
         * that member's action data and action as a direct table's entry would give them.
         */
        private void indirectHit(MatchTable t, int state, int entry, Label miss, Label end, Stmt.Apply ap) {
            String ts = Type.getInternalName(TableState.class);
            int member = local();
            m.visitVarInsn(Opcodes.ALOAD, state);
            m.visitVarInsn(Opcodes.ILOAD, entry);
            m.visitVarInsn(Opcodes.ALOAD, PHV);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, "member", "(I[J)I", false);
            m.visitVarInsn(Opcodes.ISTORE, member);
            m.visitVarInsn(Opcodes.ILOAD, member);
            m.visitJumpInsn(Opcodes.IFLT, miss);
            m.visitVarInsn(Opcodes.ALOAD, state);
            m.visitVarInsn(Opcodes.ILOAD, member);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, "memberActionData", "(I)J", false);
            m.visitVarInsn(Opcodes.LSTORE, actionData.get(t));
            Integer handle = handles.get(t);
            if (handle != null) {
                m.visitVarInsn(Opcodes.ALOAD, state);
                m.visitVarInsn(Opcodes.ILOAD, entry);
                m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, "handle", "(I)I", false);
                m.visitVarInsn(Opcodes.ISTORE, handle);
            }
            m.visitVarInsn(Opcodes.ALOAD, state);
            m.visitVarInsn(Opcodes.ILOAD, member);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, ts, "memberActionId", "(I)I", false);
            actionSwitch(ap, end);
            missBranch(t, handle, ap, miss, end);
        }

        /** A table's miss: a direct counter or meter's miss cell as the handle (Counter#cells), the miss block, then the end. */
        private void missBranch(MatchTable t, Integer handle, Stmt.Apply ap, Label miss, Label end) {
            m.visitLabel(miss);
            if (handle != null) {
                ldcInt(t.size());
                m.visitVarInsn(Opcodes.ISTORE, handle);
            }
            block(ap.miss());
            m.visitLabel(end);
        }

        /** Jumps on the action id on the stack to each action's block; an id without a block goes to {@code end}. */
        private void actionSwitch(Stmt.Apply ap, Label end) {
            int[] keys = new int[ap.actions().size()];
            Label[] labels = new Label[keys.length];
            int j = 0;
            for (Integer k : ap.actions().keySet()) {
                keys[j] = k;
                labels[j++] = new Label();
            }
            m.visitLookupSwitchInsn(end, keys, labels);
            j = 0;
            for (List<Stmt> b : ap.actions().values()) {
                m.visitLabel(labels[j++]);
                block(b);
                m.visitJumpInsn(Opcodes.GOTO, end);
            }
        }

        /**
         * Leaves one word of the table's packed key on the stack, as {@link MatchTable#keyHi} /
         * {@link MatchTable#keyLo} compute it (fields concatenated, the first most significant),
         * with every field's bit position known here: shifts and ORs, no loop over the key.
         */
        private void packKey(MatchTable t, boolean high) {
            m.visitInsn(Opcodes.LCONST_0);
            int position = t.keyBits();
            for (Field f : t.key()) {
                position -= f.width();
                int p = position;
                boolean inWord = high ? p + f.width() > Long.SIZE : p < Long.SIZE;
                if (!inWord) {
                    continue;
                }
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                ldcInt(f.slot());
                m.visitInsn(Opcodes.LALOAD);
                if (f.mask() != -1L) {
                    m.visitLdcInsn(f.mask());
                    m.visitInsn(Opcodes.LAND);
                }
                int shift = high ? (p >= Long.SIZE ? p - Long.SIZE : Long.SIZE - p) : p;
                if (shift != 0) {
                    ldcInt(shift);
                    m.visitInsn(high && p < Long.SIZE ? Opcodes.LUSHR : Opcodes.LSHL);
                }
                m.visitInsn(Opcodes.LOR);
            }
        }

        /** Leaves the value of {@code e} (a long) on the stack. */
        private void value(Expr e) {
            e.accept(values);
        }

        /** Leaves each kind of value on the stack. */
        private final Expr.Visitor<Void> values = new Expr.Visitor<>() {
            @Override
            public Void read(Expr.Read r) {
                m.visitVarInsn(Opcodes.ALOAD, PHV);
                ldcInt(r.field().slot());
                m.visitInsn(Opcodes.LALOAD);
                return null;
            }

            @Override
            public Void constant(Expr.Const c) {
                m.visitLdcInsn(c.value());
                return null;
            }

            @Override
            public Void hashOut(Expr.HashOut h) {
                HashUnit u = h.unit();
                if (u.kernel() != null) {
                    Emitter.this.constant(u.kernel(), CrcKernel.class);
                    m.visitVarInsn(Opcodes.ALOAD, PHV);
                    m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, Type.getInternalName(CrcKernel.class), "hash", "([J)J", false);
                } else {
                    Emitter.this.constant(u, HashUnit.class);
                    m.visitVarInsn(Opcodes.ALOAD, PHV);
                    m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, Type.getInternalName(HashUnit.class), "compute", "([J)J", false);
                }
                return null;
            }

            @Override
            public Void regOut(Expr.RegOut r) {
                m.visitVarInsn(Opcodes.LLOAD, outputs.get(r.action()));
                return null;
            }

            @Override
            public Void actionData(Expr.ActionData d) {
                m.visitVarInsn(Opcodes.LLOAD, actionData.get(d.table()));
                return null;
            }

            @Override
            public Void binary(Expr.Binary b) {
                Emitter.this.binary(b);
                return null;
            }

            @Override
            public Void meterOut(Expr.MeterOut o) {
                m.visitVarInsn(Opcodes.LLOAD, colors.get(o.meter()));
                return null;
            }
        };

        private void binary(Expr.Binary b) {
            VliwOp op = b.op();
            Long c = b.right().constantValue();
            value(b.left());
            boolean pow2 = c != null && c > 0 && Long.bitCount(c) == 1;
            if (op == VliwOp.MOD && pow2) {
                m.visitLdcInsn(c - 1);
                m.visitInsn(Opcodes.LAND);
                return;
            }
            if (op == VliwOp.DIV && pow2 || (op == VliwOp.SHR || op == VliwOp.SHL) && c != null && c >= 0 && c < 64) {
                ldcInt(op == VliwOp.DIV ? Long.numberOfTrailingZeros(c) : (int) (long) c);
                m.visitInsn(op == VliwOp.SHL ? Opcodes.LSHL : Opcodes.LUSHR);
                return;
            }
            value(b.right());
            if (op.widthAware()) {
                // GressCode's saddu, ssubu, sadds, ssubs, concat: (a, b, width)
                ldcInt(b.width());
                m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, op.name().toLowerCase(Locale.ROOT), "(JJI)J", false);
                return;
            }
            switch (op) {
                case ADD -> m.visitInsn(Opcodes.LADD);
                case SUB -> m.visitInsn(Opcodes.LSUB);
                case AND -> m.visitInsn(Opcodes.LAND);
                case OR -> m.visitInsn(Opcodes.LOR);
                case XOR -> m.visitInsn(Opcodes.LXOR);
                case MUL -> m.visitInsn(Opcodes.LMUL);
                default -> m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, op.name().toLowerCase(Locale.ROOT),
                        "(JJ)J", false);
            }
        }

        private void ldcInt(int v) {
            m.visitLdcInsn(v);
        }

        /** Pushes a program object held in a static final field of the generated class. */
        private void constant(Object o, Class<?> type) {
            Integer k = constantIndex.get(o);
            if (k == null) {
                k = constants.size();
                constants.add(o);
                constantTypes.add(Type.getDescriptor(type));
                constantIndex.put(o, k);
            }
            m.visitFieldInsn(Opcodes.GETSTATIC, NAME, "c" + k, constantTypes.get(k));
        }

        /** Declares the constant fields and fills them from the class data in the static initialiser. */
        void constants(ClassWriter cw) {
            MethodVisitor s = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
            s.visitCode();
            s.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup",
                    "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
            s.visitVarInsn(Opcodes.ASTORE, 0);
            for (int i = 0; i < constants.size(); i++) {
                String desc = constantTypes.get(i);
                cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, "c" + i, desc, null, null).visitEnd();
                s.visitVarInsn(Opcodes.ALOAD, 0);
                s.visitLdcInsn("_");
                s.visitLdcInsn(Type.getType(desc));
                s.visitLdcInsn(i);
                s.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "classDataAt",
                        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)Ljava/lang/Object;", false);
                s.visitTypeInsn(Opcodes.CHECKCAST, Type.getType(desc).getInternalName());
                s.visitFieldInsn(Opcodes.PUTSTATIC, NAME, "c" + i, desc);
            }
            s.visitInsn(Opcodes.RETURN);
            s.visitMaxs(0, 0);
            s.visitEnd();
        }
    }
}

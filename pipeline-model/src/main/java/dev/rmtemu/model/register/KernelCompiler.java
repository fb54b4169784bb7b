package dev.rmtemu.model.register;

import dev.rmtemu.model.codegen.GeneratedClasses;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Turns a {@link CompiledAction} into a {@link RegisterKernel} class of its own
 * (a hidden class, unloaded with its action): operands, ops, constants, truth
 * tables and the output choice become bytecode constants, so a packet runs a
 * few compares and predicated stores instead of switching over int codes.
 * Semantics are those documented on {@link RegisterAction} ({@code
 * CompiledActionTest} compares with the declarative form on random actions).
 */
final class KernelCompiler {
    private static final String SUPER = "dev/rmtemu/model/register/RegisterKernel";
    private static final String NAME = "dev/rmtemu/model/register/RegisterKernel$Generated";
    private static final String DESCRIPTOR = "([J[JIJJ)J";

    // locals of execute(long[] lo, long[] hi, int index, long inLo, long inHi)
    private static final int LO = 1;
    private static final int HI = 2;
    private static final int INDEX = 3;
    private static final int IN_LO = 4;
    private static final int IN_HI = 6;
    private static final int OLD_LO = 8;
    private static final int OLD_HI = 10;
    private static final int BIT = 12;
    private static final int NEW_LO = 13;
    private static final int NEW_HI = 15;
    private static final int P = 17;

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private KernelCompiler() {
    }

    static RegisterKernel compile(CompiledAction c) {
        ClassWriter cw = GeneratedClasses.begin(NAME, SUPER, "()V");
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "execute", DESCRIPTOR, null, null);
        m.visitCode();
        new Body(c, m).emit();
        m.visitMaxs(0, 0);
        m.visitEnd();
        return (RegisterKernel) GeneratedClasses.instantiate(LOOKUP, cw, MethodType.methodType(void.class));
    }

    /** The code of one action's execute method. */
    private static final class Body {
        private final CompiledAction c;
        private final MethodVisitor m;

        Body(CompiledAction c, MethodVisitor m) {
            this.c = c;
            this.m = m;
        }

        void emit() {
            // oldLo = lo[index]; oldHi = hi == null ? 0 : hi[index] (only when something reads it)
            m.visitVarInsn(Opcodes.ALOAD, LO);
            m.visitVarInsn(Opcodes.ILOAD, INDEX);
            m.visitInsn(Opcodes.LALOAD);
            m.visitVarInsn(Opcodes.LSTORE, OLD_LO);
            if (readsHi()) {
                Label none = new Label();
                Label done = new Label();
                m.visitVarInsn(Opcodes.ALOAD, HI);
                m.visitJumpInsn(Opcodes.IFNULL, none);
                m.visitVarInsn(Opcodes.ALOAD, HI);
                m.visitVarInsn(Opcodes.ILOAD, INDEX);
                m.visitInsn(Opcodes.LALOAD);
                m.visitJumpInsn(Opcodes.GOTO, done);
                m.visitLabel(none);
                m.visitInsn(Opcodes.LCONST_0);
                m.visitLabel(done);
                m.visitVarInsn(Opcodes.LSTORE, OLD_HI);
            }
            // the ALU inputs are taken at the word width
            maskLocal(IN_LO);
            maskLocal(IN_HI);
            // p: bit i set when condition i holds; bit = 1 << p selects a truth-table column
            pushInt(0);
            m.visitVarInsn(Opcodes.ISTORE, P);
            for (int i = 0; i < c.conditions; i++) {
                Label skip = new Label();
                // unsigned order as a signed LCMP with both sign bits flipped (Long.compareUnsigned
                // is a call the JIT declines to inline here); equality needs no flip
                boolean ordered = c.condOp[i] != CompiledAction.EQ && c.condOp[i] != CompiledAction.NE;
                pushOperand(c.condA[i], c.condAConst[i]);
                flipSign(ordered);
                pushOperand(c.condB[i], c.condBConst[i]);
                flipSign(ordered);
                m.visitInsn(Opcodes.LCMP);
                m.visitJumpInsn(falseJump(c.condOp[i]), skip);
                m.visitVarInsn(Opcodes.ILOAD, P);
                pushInt(1 << i);
                m.visitInsn(Opcodes.IOR);
                m.visitVarInsn(Opcodes.ISTORE, P);
                m.visitLabel(skip);
            }
            pushInt(1);
            m.visitVarInsn(Opcodes.ILOAD, P);
            m.visitInsn(Opcodes.ISHL);
            m.visitVarInsn(Opcodes.ISTORE, BIT);
            word(0, c.loBranches, OLD_LO, NEW_LO);
            if (readsHi()) {
                word(c.loBranches, c.loBranches + c.hiBranches, OLD_HI, NEW_HI);
            }
            m.visitVarInsn(Opcodes.ALOAD, LO);
            m.visitVarInsn(Opcodes.ILOAD, INDEX);
            m.visitVarInsn(Opcodes.LLOAD, NEW_LO);
            m.visitInsn(Opcodes.LASTORE);
            if (c.hiBranches > 0) { // without a hi branch the hi word keeps its value: no store
                Label none = new Label();
                m.visitVarInsn(Opcodes.ALOAD, HI);
                m.visitJumpInsn(Opcodes.IFNULL, none);
                m.visitVarInsn(Opcodes.ALOAD, HI);
                m.visitVarInsn(Opcodes.ILOAD, INDEX);
                m.visitVarInsn(Opcodes.LLOAD, NEW_HI);
                m.visitInsn(Opcodes.LASTORE);
                m.visitLabel(none);
            }
            output();
        }

        private boolean readsHi() {
            if (c.hiBranches > 0 || c.output == CompiledAction.OUT_OLD_HI || c.output == CompiledAction.OUT_NEW_HI) {
                return true;
            }
            for (int i = 0; i < c.conditions; i++) {
                if (c.condA[i] == CompiledAction.REG_HI || c.condB[i] == CompiledAction.REG_HI) {
                    return true;
                }
            }
            for (int i = 0; i < c.loBranches + c.hiBranches; i++) {
                if (c.a[i] == CompiledAction.REG_HI || c.b[i] == CompiledAction.REG_HI) {
                    return true;
                }
            }
            return false;
        }

        /** new = the first branch whose predicate holds, else old. */
        private void word(int from, int to, int oldLocal, int newLocal) {
            Label done = new Label();
            m.visitVarInsn(Opcodes.LLOAD, oldLocal);
            m.visitVarInsn(Opcodes.LSTORE, newLocal);
            for (int i = from; i < to; i++) {
                Label next = new Label();
                testBit(c.truth[i], next);
                alu(i);
                m.visitVarInsn(Opcodes.LSTORE, newLocal);
                m.visitJumpInsn(Opcodes.GOTO, done);
                m.visitLabel(next);
            }
            m.visitLabel(done);
        }

        /** Jumps to {@code unless} when the truth table has no bit for this packet's condition outcome. */
        private void testBit(int truth, Label unless) {
            m.visitVarInsn(Opcodes.ILOAD, BIT);
            pushInt(truth);
            m.visitInsn(Opcodes.IAND);
            m.visitJumpInsn(Opcodes.IFEQ, unless);
        }

        private void alu(int i) {
            pushOperand(c.a[i], c.aConst[i]);
            int op = c.op[i];
            if (op != CompiledAction.SET) {
                pushOperand(c.b[i], c.bConst[i]);
            }
            switch (op) {
                case CompiledAction.SET -> { }
                case CompiledAction.ADD -> m.visitInsn(Opcodes.LADD);
                case CompiledAction.SUB -> m.visitInsn(Opcodes.LSUB);
                case CompiledAction.AND -> m.visitInsn(Opcodes.LAND);
                case CompiledAction.OR -> m.visitInsn(Opcodes.LOR);
                case CompiledAction.XOR -> m.visitInsn(Opcodes.LXOR);
                case CompiledAction.MIN -> m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "minUnsigned", "(JJ)J", false);
                default -> m.visitMethodInsn(Opcodes.INVOKESTATIC, SUPER, "maxUnsigned", "(JJ)J", false);
            }
            pushMask();
        }

        private void output() {
            Label emit = new Label();
            m.visitVarInsn(Opcodes.ILOAD, BIT);
            pushInt(c.outputTruth);
            m.visitInsn(Opcodes.IAND);
            m.visitJumpInsn(Opcodes.IFNE, emit);
            m.visitInsn(Opcodes.LCONST_0);
            m.visitInsn(Opcodes.LRETURN);
            m.visitLabel(emit);
            switch (c.output) {
                case CompiledAction.OUT_OLD_LO -> m.visitVarInsn(Opcodes.LLOAD, OLD_LO);
                case CompiledAction.OUT_OLD_HI -> m.visitVarInsn(Opcodes.LLOAD, OLD_HI);
                case CompiledAction.OUT_NEW_LO -> m.visitVarInsn(Opcodes.LLOAD, NEW_LO);
                case CompiledAction.OUT_NEW_HI -> m.visitVarInsn(Opcodes.LLOAD, NEW_HI);
                case CompiledAction.OUT_PREDICATE -> {
                    m.visitVarInsn(Opcodes.ILOAD, P);
                    m.visitInsn(Opcodes.I2L);
                }
                default -> m.visitInsn(Opcodes.LCONST_0);
            }
            m.visitInsn(Opcodes.LRETURN);
        }

        private void pushOperand(int kind, long constant) {
            switch (kind) {
                case CompiledAction.REG_LO -> m.visitVarInsn(Opcodes.LLOAD, OLD_LO);
                case CompiledAction.REG_HI -> m.visitVarInsn(Opcodes.LLOAD, OLD_HI);
                case CompiledAction.IN_LO -> m.visitVarInsn(Opcodes.LLOAD, IN_LO);
                case CompiledAction.IN_HI -> m.visitVarInsn(Opcodes.LLOAD, IN_HI);
                case CompiledAction.PARAM -> { // read at run time: the control plane sets it between packets
                    m.visitVarInsn(Opcodes.ALOAD, LO);
                    pushInt(c.paramBase + (int) constant);
                    m.visitInsn(Opcodes.LALOAD);
                    pushMask();
                }
                default -> m.visitLdcInsn(constant & c.mask);
            }
        }

        private void flipSign(boolean ordered) {
            if (ordered) {
                m.visitLdcInsn(Long.MIN_VALUE);
                m.visitInsn(Opcodes.LADD);
            }
        }

        /** Jump taken when comparison {@code op} of the LCMP result is false. */
        private static int falseJump(int op) {
            return switch (op) {
                case CompiledAction.EQ -> Opcodes.IFNE;
                case CompiledAction.NE -> Opcodes.IFEQ;
                case CompiledAction.LT -> Opcodes.IFGE;
                case CompiledAction.LE -> Opcodes.IFGT;
                case CompiledAction.GT -> Opcodes.IFLE;
                default -> Opcodes.IFLT;
            };
        }

        private void maskLocal(int local) {
            if (c.mask != -1L) {
                m.visitVarInsn(Opcodes.LLOAD, local);
                pushMask();
                m.visitVarInsn(Opcodes.LSTORE, local);
            }
        }

        private void pushMask() {
            if (c.mask != -1L) {
                m.visitLdcInsn(c.mask);
                m.visitInsn(Opcodes.LAND);
            }
        }

        private void pushInt(int v) {
            m.visitLdcInsn(v);
        }
    }
}

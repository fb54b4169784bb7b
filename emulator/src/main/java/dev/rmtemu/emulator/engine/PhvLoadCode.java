package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.codegen.GeneratedClasses;
import dev.rmtemu.model.codegen.SharedHiddenClasses;
import dev.rmtemu.model.parse.ParseResult;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * {@link FrameParser}'s copy of an accepted parse into the PHV as straight-line code, one
 * hidden class generated with ASM per load plan: every PHV slot, header, result word, shift
 * and mask is a constant, so a packet costs one validity test and one masked word per field
 * instead of the walk of the plan's arrays. A value field takes its first alternative whose
 * header is valid (an overlay), 0 when none is; a validity bit is 1 or 0.
 * {@link #interpreted} is the plan walked as data, the definition the generated code is tested
 * against ({@code PhvLoadCodeTest}). Subclasses are generated only.
 */
public abstract class PhvLoadCode {
    private static final String SUPER = "dev/rmtemu/emulator/engine/PhvLoadCode";
    private static final String NAME = "dev/rmtemu/emulator/engine/PhvLoadCode$Generated";
    private static final String RESULT = "dev/rmtemu/model/parse/ParseResult";
    private static final String CTOR = "()V";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    /**
     * Bytecode bytes of the load above which the plan stays interpreted: HotSpot compiles no
     * method longer than 8,000 bytes (HugeMethodLimit), and interpreted bytecode would be slower
     * than the loop over the plan. About 25 bytes a field: some 300 fields fit.
     */
    static final int MAX_METHOD_BYTES = 8_000;

    protected PhvLoadCode() {
    }

    /** Loads the fields of the accepted parse {@code r} into {@code phv}. */
    public abstract void load(ParseResult r, long[] phv);

    /** The load plan of {@link FrameParser}'s arrays, as data (see the class comment). */
    record Plan(int[] slots, int[] first, int[] headers, int[] resultWord, int[] shifts, long[] masks,
                int[] validSlots, int[] validHeaders) {
    }

    /** The plan walked as data: what the generated code does, field by field. */
    static void interpreted(Plan p, ParseResult r, long[] phv) {
        for (int i = 0; i < p.slots.length; i++) {
            long v = 0;
            for (int a = p.first[i], end = p.first[i + 1]; a < end; a++) {
                if (r.isValid(p.headers[a])) {
                    v = (r.wordAt(p.resultWord[a]) >>> p.shifts[a]) & p.masks[a];
                    break;
                }
            }
            phv[p.slots[i]] = v;
        }
        for (int i = 0; i < p.validSlots.length; i++) {
            phv[p.validSlots[i]] = r.isValid(p.validHeaders[i]) ? 1 : 0;
        }
    }

    /** The plan as generated code, or as {@link #interpreted} when its method would be too long to compile. */
    static PhvLoadCode of(Plan p) {
        ClassWriter cw = GeneratedClasses.begin(NAME, SUPER, CTOR);
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "load", "(L" + RESULT + ";[J)V", null, null);
        m.visitCode();
        for (int i = 0; i < p.slots.length; i++) {
            valueField(m, p, i);
        }
        for (int i = 0; i < p.validSlots.length; i++) {
            // phv[slot] = r.isValid(h) ? 1 : 0
            m.visitVarInsn(Opcodes.ALOAD, 2);
            m.visitLdcInsn(p.validSlots[i]);
            isValid(m, p.validHeaders[i]);
            m.visitInsn(Opcodes.I2L);
            m.visitInsn(Opcodes.LASTORE);
        }
        m.visitInsn(Opcodes.RETURN);
        Label end = new Label();
        m.visitLabel(end);
        m.visitMaxs(0, 0);
        m.visitEnd();
        cw.visitEnd();
        if (end.getOffset() > MAX_METHOD_BYTES) {
            return new PhvLoadCode() {
                @Override
                public void load(ParseResult r, long[] phv) {
                    interpreted(p, r, phv);
                }
            };
        }
        try {
            return (PhvLoadCode) CLASSES.constructorFor(cw.toByteArray()).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("generating a PHV load failed", e);
        }
    }

    /** phv[slot] = the first valid alternative's bits, or 0. */
    private static void valueField(MethodVisitor m, Plan p, int i) {
        m.visitVarInsn(Opcodes.ALOAD, 2);
        m.visitLdcInsn(p.slots[i]);
        Label store = new Label();
        for (int a = p.first[i], endAlt = p.first[i + 1]; a < endAlt; a++) {
            Label next = new Label();
            isValid(m, p.headers[a]);
            m.visitJumpInsn(Opcodes.IFEQ, next);
            m.visitVarInsn(Opcodes.ALOAD, 1);
            m.visitLdcInsn(p.resultWord[a]);
            m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, RESULT, "wordAt", "(I)J", false);
            if (p.shifts[a] != 0) {
                m.visitLdcInsn(p.shifts[a]);
                m.visitInsn(Opcodes.LUSHR);
            }
            if (p.masks[a] != -1L) {
                m.visitLdcInsn(p.masks[a]);
                m.visitInsn(Opcodes.LAND);
            }
            m.visitJumpInsn(Opcodes.GOTO, store);
            m.visitLabel(next);
        }
        m.visitInsn(Opcodes.LCONST_0);
        m.visitLabel(store);
        m.visitInsn(Opcodes.LASTORE);
    }

    private static void isValid(MethodVisitor m, int header) {
        m.visitVarInsn(Opcodes.ALOAD, 1);
        m.visitLdcInsn(header);
        m.visitMethodInsn(Opcodes.INVOKEVIRTUAL, RESULT, "isValid", "(I)Z", false);
    }

    private static final int CACHED_CLASSES = 32;
    /** Classes shared by switches running the same plan (see {@link SharedHiddenClasses}). */
    private static final SharedHiddenClasses CLASSES =
            new SharedHiddenClasses(LOOKUP, MethodType.methodType(void.class), CACHED_CLASSES);
}

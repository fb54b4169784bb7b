package dev.rmtemu.model.hash;

import dev.rmtemu.model.codegen.GeneratedClasses;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A hash unit's CRC as straight-line code: for its fixed input layout, one
 * class (a hidden class, generated with ASM) loads each input field from the
 * PHV once and XORs one table lookup per byte with constant offsets and
 * shifts, the way the unit's XOR tree is wired in hardware. Same value as
 * {@link PositionalCrc#hash(long[], int[])} ({@code PositionalCrcTest} checks both
 * against the byte-wise CRC). Subclasses are generated only.
 *
 * <p>The tables are a static final field of the generated class (its class data), not an
 * instance field: the JIT then treats the array and its length as constants, so the
 * lookups ({@code (byte & 0xff) + constant}, always below the length) need no bounds checks
 * and no reload of the table per call.
 */
public abstract class CrcKernel {
    private static final String SUPER = "dev/rmtemu/model/hash/CrcKernel";
    private static final String NAME = "dev/rmtemu/model/hash/CrcKernel$Generated";
    /** The generated class's static field holding the positional CRC's tables (256 entries per byte position, in feed order). */
    private static final String TABLE = "TABLE";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    protected CrcKernel() {
    }

    /** The CRC of the layout's fields read from {@code phv}, masked to the unit's output bits. */
    public abstract long hash(long[] phv);

    /**
     * Generates the kernel of {@code crc} over fields read from {@code slots} (field i
     * from {@code phv[slots[i]]}, XORed with {@code phv[partnerSlots[i]]} where that is not -1),
     * keeping the bits of {@code outputMask}.
     */
    static CrcKernel compile(PositionalCrc crc, int[] slots, int[] partnerSlots, long outputMask) {
        ClassWriter cw = GeneratedClasses.begin(NAME, SUPER, "()V");
        // static final int[] TABLE = MethodHandles.classData(lookup(), "_", int[].class)
        cw.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_FINAL, TABLE, "[I", null, null).visitEnd();
        MethodVisitor s = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
        s.visitCode();
        s.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup",
                "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
        s.visitLdcInsn("_");
        s.visitLdcInsn(Type.getType(int[].class));
        s.visitMethodInsn(Opcodes.INVOKESTATIC, "java/lang/invoke/MethodHandles", "classData",
                "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;", false);
        s.visitTypeInsn(Opcodes.CHECKCAST, "[I");
        s.visitFieldInsn(Opcodes.PUTSTATIC, NAME, TABLE, "[I");
        s.visitInsn(Opcodes.RETURN);
        s.visitMaxs(0, 0);
        s.visitEnd();
        emitHash(cw, crc, slots, partnerSlots, outputMask);
        return (CrcKernel) GeneratedClasses.instantiateWithData(LOOKUP, cw, crc.tables(), MethodType.methodType(void.class));
    }

    private static void emitHash(ClassWriter cw, PositionalCrc crc, int[] slots, int[] partnerSlots, long outputMask) {
        // locals: 0 this, 1 phv, 2 table, 3-4 the current field's value
        final int phv = 1;
        final int table = 2;
        final int value = 3;
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "hash", "([J)J", null, null);
        m.visitCode();
        m.visitFieldInsn(Opcodes.GETSTATIC, NAME, TABLE, "[I");
        m.visitVarInsn(Opcodes.ASTORE, table);
        boolean first = true;
        int position = 0;
        for (int i = 0; i < slots.length; i++) {
            m.visitVarInsn(Opcodes.ALOAD, phv);
            m.visitLdcInsn(slots[i]);
            m.visitInsn(Opcodes.LALOAD);
            if (partnerSlots[i] >= 0) {
                m.visitVarInsn(Opcodes.ALOAD, phv);
                m.visitLdcInsn(partnerSlots[i]);
                m.visitInsn(Opcodes.LALOAD);
                m.visitInsn(Opcodes.LXOR);
            }
            m.visitVarInsn(Opcodes.LSTORE, value);
            // bytes are fed most significant first: position p holds byte (n - 1 - j) of the field
            for (int j = crc.fieldBytes(i) - 1; j >= 0; j--, position++) {
                m.visitVarInsn(Opcodes.ALOAD, table);
                m.visitVarInsn(Opcodes.LLOAD, value);
                if (j > 0) {
                    m.visitLdcInsn(8 * j);
                    m.visitInsn(Opcodes.LUSHR);
                }
                m.visitInsn(Opcodes.L2I);
                m.visitLdcInsn(0xff);
                m.visitInsn(Opcodes.IAND);
                if (position > 0) {
                    m.visitLdcInsn(position << 8);
                    m.visitInsn(Opcodes.IADD);
                }
                m.visitInsn(Opcodes.IALOAD);
                if (!first) {
                    m.visitInsn(Opcodes.IXOR);
                }
                first = false;
            }
        }
        // finish: (shares ^ zero) & 0xFFFFFFFF, then the unit's output bits
        m.visitLdcInsn(crc.zero());
        m.visitInsn(Opcodes.IXOR);
        m.visitInsn(Opcodes.I2L);
        m.visitLdcInsn(0xFFFFFFFFL & outputMask);
        m.visitInsn(Opcodes.LAND);
        m.visitInsn(Opcodes.LRETURN);
        m.visitMaxs(0, 0);
        m.visitEnd();
    }
}

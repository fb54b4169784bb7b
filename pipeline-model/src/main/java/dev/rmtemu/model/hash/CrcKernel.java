package dev.rmtemu.model.hash;

import dev.rmtemu.model.codegen.GeneratedClasses;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A hash unit's CRC as straight-line code: for its fixed input layout, one
 * class (a hidden class, generated with ASM) loads each input field from the
 * PHV once and XORs one table lookup per byte with constant offsets and
 * shifts, the way the unit's XOR tree is wired in hardware. Same value as
 * {@link PositionalCrc#hash(long[], int[])} ({@code PositionalCrcTest} checks both
 * against the byte-wise CRC). Subclasses are generated only.
 */
public abstract class CrcKernel {
    private static final String SUPER = "dev/rmtemu/model/hash/CrcKernel";
    private static final String NAME = "dev/rmtemu/model/hash/CrcKernel$Generated";
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    /** The positional CRC's lookup tables (256 entries per byte position, in feed order). */
    protected final int[] table;

    protected CrcKernel(int[] table) {
        this.table = table;
    }

    /** The CRC of the layout's fields read from {@code phv}, masked to the unit's output bits. */
    public abstract long hash(long[] phv);

    /**
     * Generates the kernel of {@code crc} over fields read from {@code slots} (field i
     * from {@code phv[slots[i]]}, XORed with {@code phv[partnerSlots[i]]} where that is not -1),
     * keeping the bits of {@code outputMask}.
     */
    static CrcKernel compile(PositionalCrc crc, int[] slots, int[] partnerSlots, long outputMask) {
        ClassWriter cw = GeneratedClasses.begin(NAME, SUPER, "([I)V");
        emitHash(cw, crc, slots, partnerSlots, outputMask);
        return (CrcKernel) GeneratedClasses.instantiate(LOOKUP, cw,
                MethodType.methodType(void.class, int[].class), (Object) crc.tables());
    }

    private static void emitHash(ClassWriter cw, PositionalCrc crc, int[] slots, int[] partnerSlots, long outputMask) {
        // locals: 0 this, 1 phv, 2 table, 3-4 the current field's value
        final int phv = 1;
        final int table = 2;
        final int value = 3;
        MethodVisitor m = cw.visitMethod(Opcodes.ACC_PUBLIC, "hash", "([J)J", null, null);
        m.visitCode();
        m.visitVarInsn(Opcodes.ALOAD, 0);
        m.visitFieldInsn(Opcodes.GETFIELD, SUPER, "table", "[I");
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

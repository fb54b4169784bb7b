package dev.rmtemu.model.codegen;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * What every class rmtemu generates at program build time shares: a final
 * class extending an abstract base, whose constructor passes its arguments to
 * the base's, defined as a hidden class (unloaded with the object that holds
 * it) and instantiated once. The per-packet code itself is the caller's.
 */
public final class GeneratedClasses {
    private GeneratedClasses() {
    }

    /**
     * Starts class {@code name} extending {@code superName}, with a constructor of
     * {@code constructorDescriptor} that calls the base constructor with the same arguments.
     */
    public static ClassWriter begin(String name, String superName, String constructorDescriptor) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, superName, null);
        MethodVisitor init = cw.visitMethod(0, "<init>", constructorDescriptor, null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        int local = 1;
        for (Type t : Type.getArgumentTypes(constructorDescriptor)) {
            init.visitVarInsn(t.getOpcode(Opcodes.ILOAD), local);
            local += t.getSize();
        }
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", constructorDescriptor, false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        return cw;
    }

    /**
     * Defines the finished class as a hidden class in {@code lookup}'s package and
     * returns a new instance built with {@code args}.
     */
    public static Object instantiate(MethodHandles.Lookup lookup, ClassWriter cw, MethodType constructor,
                                     Object... args) {
        return instantiateWithData(lookup, cw, null, constructor, args);
    }

    /**
     * As {@link #instantiate}, the class defined with {@code classData} (null: none), which its
     * static initialiser reads with {@link MethodHandles#classData} into static final fields the
     * JIT treats as constants.
     */
    public static Object instantiateWithData(MethodHandles.Lookup lookup, ClassWriter cw, Object classData,
                                             MethodType constructor, Object... args) {
        cw.visitEnd();
        try {
            byte[] bytes = cw.toByteArray();
            Class<?> k = (classData == null ? lookup.defineHiddenClass(bytes, true)
                    : lookup.defineHiddenClassWithClassData(bytes, classData, true)).lookupClass();
            return lookup.findConstructor(k, constructor).invokeWithArguments(args);
        } catch (Throwable e) {
            throw new IllegalStateException("generating a class in " + lookup.lookupClass().getPackageName()
                    + " failed", e);
        }
    }
}

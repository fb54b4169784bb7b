package dev.rmtemu.model.codegen;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hidden classes generated from a plan, kept by their bytecode: the switches of a network mostly
 * run the same program, and one class for all of them is one JIT compilation and one
 * monomorphic call site instead of one per switch. Bounded (least recently used out), so classes
 * of programs no longer used unload.
 */
public final class SharedHiddenClasses {
    private final MethodHandles.Lookup lookup;
    private final MethodType constructor;
    private final Map<ByteBuffer, MethodHandle> classes;

    /**
     * @param lookup      where the classes are defined (their package)
     * @param constructor the generated classes' constructor type
     * @param capacity    how many classes stay cached
     */
    public SharedHiddenClasses(MethodHandles.Lookup lookup, MethodType constructor, int capacity) {
        this.lookup = lookup;
        this.constructor = constructor;
        this.classes = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<ByteBuffer, MethodHandle> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The constructor of the hidden class of {@code bytes}, defined once while it is cached. */
    public MethodHandle constructorFor(byte[] bytes) throws ReflectiveOperationException {
        ByteBuffer key = ByteBuffer.wrap(bytes);
        synchronized (classes) {
            MethodHandle ctor = classes.get(key);
            if (ctor == null) {
                Class<?> k = lookup.defineHiddenClass(bytes, true).lookupClass();
                ctor = lookup.findConstructor(k, constructor);
                classes.put(key, ctor);
            }
            return ctor;
        }
    }
}

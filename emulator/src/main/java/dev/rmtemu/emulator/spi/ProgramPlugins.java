package dev.rmtemu.emulator.spi;

import dev.rmtemu.model.program.ProgramFactory;
import dev.rmtemu.model.p4.lower.P4ProgramSource;
import dev.rmtemu.model.p4.lower.P4Programs;
import dev.rmtemu.model.p4.preprocess.PreprocessorOptions;
import dev.rmtemu.model.program.ProgramRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The programs on the class path as plug-ins, in name order: every {@link ProgramPlugin}
 * registered with {@link ServiceLoader}, and a factory-only plug-in for every
 * {@link ProgramFactory} registered on its own (the pipeline model's examples). Every lookup
 * of a program's parts goes through here.
 */
public final class ProgramPlugins {
    private ProgramPlugins() {
    }

    /**
     * Every plug-in, in program-name order (a plug-in's variants are its own, not listed apart);
     * a program name claimed twice is a bug (refused by {@link #registry()}).
     */
    public static List<ProgramPlugin> registered() {
        TreeMap<String, ProgramPlugin> byName = new TreeMap<>();
        for (ProgramPlugin p : ServiceLoader.load(ProgramPlugin.class)) {
            put(byName, p.name(), p);
        }
        for (ProgramFactory f : new ProgramRegistry().all().values()) {
            put(byName, f.name(), ProgramPlugin.of(f));
        }
        return List.copyOf(byName.values());
    }

    private static void put(TreeMap<String, ProgramPlugin> byName, String name, ProgramPlugin p) {
        ProgramPlugin before = byName.putIfAbsent(name, p);
        if (before != null) {
            throw new IllegalStateException("two programs named " + name + ": " + before.factory().getClass().getName()
                    + " and " + p.factory().getClass().getName());
        }
    }

    /**
     * Every program (the plug-ins' factories and variants, and the model's), for building one by
     * name; a {@code FILE.p4} is compiled with the default preprocessor options (tofino1).
     */
    public static ProgramRegistry registry() {
        return registry(PreprocessorOptions.defaults());
    }

    /** As {@link #registry()}, a {@code FILE.p4} preprocessed with {@code p4} ({@code -I}, {@code -D}, the target). */
    public static ProgramRegistry registry(PreprocessorOptions p4) {
        return registry(p4, P4Programs.DEFAULT_RANDOM_SEED);
    }

    /** As {@link #registry(PreprocessorOptions)}, a {@code FILE.p4}'s Random externs seeded from the run's {@code seed}. */
    public static ProgramRegistry registry(PreprocessorOptions p4, long seed) {
        List<ProgramFactory> factories = new ArrayList<>();
        for (ProgramPlugin p : ServiceLoader.load(ProgramPlugin.class)) {
            factories.add(p.factory());
            factories.addAll(p.variants());
        }
        return new ProgramRegistry(factories, new P4ProgramSource(p4, seed));
    }
}

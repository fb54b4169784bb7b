package dev.rmtemu.model.program;

import dev.rmtemu.model.UserError;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The programs on the class path, by name (sorted). */
public final class ProgramRegistry {
    private final Map<String, ProgramFactory> factories = new TreeMap<>();
    /** Programs given as files of another language ({@code FILE.p4}), or null. */
    private final ProgramSource files;

    /** The factories registered with {@link ServiceLoader} under {@code META-INF/services/dev.rmtemu.model.program.ProgramFactory}. */
    public ProgramRegistry() {
        this(List.of());
    }

    /** Those and {@code more} (a layer above adds the programs of its plug-ins); a name used twice is a bug. */
    public ProgramRegistry(Collection<ProgramFactory> more) {
        this(more, null);
    }

    /** Those, and the programs {@code files} builds from files ({@code FILE.p4}). */
    public ProgramRegistry(Collection<ProgramFactory> more, ProgramSource files) {
        this.files = files;
        for (ProgramFactory f : ServiceLoader.load(ProgramFactory.class)) {
            add(f);
        }
        for (ProgramFactory f : more) {
            add(f);
        }
    }

    private void add(ProgramFactory f) {
        ProgramFactory previous = factories.put(f.name(), f);
        if (previous != null) {
            throw new IllegalStateException("two programs named " + f.name() + ": "
                    + previous.getClass().getName() + " and " + f.getClass().getName());
        }
    }

    public Map<String, ProgramFactory> all() {
        return factories;
    }

    /** A built-in program by name, or a user's program: {@code FILE.java} or {@code JAR!CLASS}. */
    public ProgramFactory get(String name) {
        if (files != null && files.accepts(name)) {
            return files.load(name);
        }
        if (UserPrograms.isUserProgram(name)) {
            return UserPrograms.load(name);
        }
        ProgramFactory f = factories.get(name);
        if (f == null) {
            throw new UserError("unknown program '" + name + "' (available: " + String.join(", ", factories.keySet())
                    + "; or a FILE.java or JAR!CLASS of your own)");
        }
        return f;
    }

    /** Builds a program from "key=value" assignments. */
    public StageProgram build(String name, Map<String, String> params) {
        ProgramFactory f = get(name);
        ProgramParams p = new ProgramParams(f.name(), f.params(), params);
        if (!UserPrograms.isUserProgram(name) && (files == null || !files.accepts(name))) {
            return f.build(p);
        }
        try {
            return f.build(p);
        } catch (UserError e) {
            throw e;
        } catch (RuntimeException e) {
            // a mistake in the user's program (a name used twice, an array of another stage): one line, exit 2
            throw new UserError("program " + name + ": building it failed: " + e.getMessage(), e);
        }
    }
}

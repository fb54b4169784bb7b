package dev.rmtemu.emulator.topology;

import dev.rmtemu.model.UserError;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Resolves the {@code --topology} argument: a file path (.json, .yaml, .yml) or {@code builtin:NAME?k=v&...}. */
public final class TopologySpec {
    private TopologySpec() {
    }

    /** The topology, with every link's impairments checked as a replay would build them. */
    public static Topology parse(String spec) {
        Topology t = load(spec);
        LinkImpairments.check(t);
        return t;
    }

    private static Topology load(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new UserError("empty topology spec (give a file or builtin:NAME)");
        }
        if (spec.startsWith(BuiltinTopologies.PREFIX)) {
            return BuiltinTopologies.build(spec);
        }
        Path path;
        try {
            path = Path.of(spec);
        } catch (InvalidPathException e) {
            throw new UserError(spec + ": not a valid file path (" + e.getReason() + ")", e);
        }
        return TopologyFile.read(path);
    }
}

package dev.rmtemu.model.p4.preprocess;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds an included file: {@code "name"} in the including file's directory, then the -I
 * directories, then rmtemu's built-in library; {@code <name>} in the -I directories, then
 * the library. The library ({@code core.p4}, {@code tna.p4} and what they include) is
 * rmtemu's own declarations, kept as resources beside this class.
 */
final class IncludeResolver {
    /** Where the built-in library's files are, on the class path. */
    static final String LIBRARY = "/dev/rmtemu/model/p4/include/";
    /** How messages name a built-in file. */
    static final String LIBRARY_DISPLAY = "<rmtemu>/";

    /** Why a file could not be read; the message names the file. */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    private final List<Path> includeDirs;

    IncludeResolver(List<Path> includeDirs) {
        this.includeDirs = includeDirs;
    }

    /** The file, or null when no place has it. */
    SourceFile find(String name, boolean quoted, SourceFile includer) throws Unreadable {
        if (name.isEmpty()) {
            return null;
        }
        if (quoted) {
            if (includer.builtIn()) {
                SourceFile b = builtIn(name);
                if (b != null) {
                    return b;
                }
            } else if (includer.directory() != null) {
                SourceFile f = file(resolve(includer.directory(), name));
                if (f != null) {
                    return f;
                }
            }
        }
        for (Path dir : includeDirs) {
            SourceFile f = file(resolve(dir, name));
            if (f != null) {
                return f;
            }
        }
        return builtIn(name);
    }

    /** Where {@code find} looked, for the message when it finds nothing. */
    String searched(boolean quoted, SourceFile includer) {
        List<String> places = new ArrayList<>();
        if (quoted && includer.directory() != null && !includer.builtIn()) {
            places.add(includer.directory().toString());
        }
        for (Path d : includeDirs) {
            places.add(d.toString());
        }
        places.add("rmtemu's built-in library");
        return String.join(", ", places);
    }

    /** {@code dir.resolve(name)}, or null when the name is no path on this system (a NUL character). */
    private static Path resolve(Path dir, String name) {
        try {
            return dir.resolve(name);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    private static SourceFile file(Path p) throws Unreadable {
        if (p == null || !Files.isRegularFile(p)) {
            return null;
        }
        try {
            String identity = p.toRealPath().toString();
            Path dir = p.toAbsolutePath().getParent();
            return new SourceFile(p.normalize().toString(), identity, decode(Files.readAllBytes(p), p.toString()), dir, false);
        } catch (IOException e) {
            throw new Unreadable("cannot read " + p + ": " + e.getMessage());
        }
    }

    static SourceFile builtIn(String name) throws Unreadable {
        if (name.contains("..") || name.startsWith("/") || name.contains("\\") || name.indexOf('\0') >= 0) {
            return null;
        }
        try (InputStream in = IncludeResolver.class.getResourceAsStream(LIBRARY + name)) {
            if (in == null) {
                return null;
            }
            return new SourceFile(LIBRARY_DISPLAY + name, "builtin:" + name, decode(in.readAllBytes(), name), null, true);
        } catch (IOException e) {
            throw new Unreadable("cannot read built-in " + name + ": " + e.getMessage());
        }
    }

    static String decode(byte[] bytes, String name) throws Unreadable {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new Unreadable(name + ": not UTF-8 text");
        }
    }
}

package dev.rmtemu.model.p4.preprocess;

import java.nio.file.Path;

/**
 * A file the preprocessor reads: its text, the name messages give it, the identity that
 * detects a second inclusion, and the directory {@code #include "…"} searches first
 * (null for built-in files and text that is not in a file: their own library instead).
 */
record SourceFile(String displayName, String identity, String text, Path directory, boolean builtIn) {
}

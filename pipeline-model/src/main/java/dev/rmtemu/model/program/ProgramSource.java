package dev.rmtemu.model.program;

/**
 * Programs given by a file in a language a layer above compiles ({@code FILE.p4}): the
 * registry asks it before its built-in names, so every command that takes a program
 * takes such a file.
 */
public interface ProgramSource {
    /** True when {@code spec} is a program this source builds. */
    boolean accepts(String spec);

    /** The program {@code spec} names; a malformed one is a {@link dev.rmtemu.model.UserError}. */
    ProgramFactory load(String spec);
}

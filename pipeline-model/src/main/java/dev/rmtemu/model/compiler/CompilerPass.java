package dev.rmtemu.model.compiler;

/**
 * One rule of the compiler, checked over the whole program before any packet.
 * Passes only read the program; each reports what breaks its rule.
 */
public interface CompilerPass {
    /** Short name, printed in the pass list and after each refusal. */
    String name();

    /** The rule in one line, for the pass list. */
    String rule();

    void run(PassInput in, Refusals out);
}

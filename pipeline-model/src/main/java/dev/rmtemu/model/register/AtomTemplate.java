package dev.rmtemu.model.register;

/**
 * Stateful-ALU templates in the vocabulary of Banzai's atoms (Sivaraman et al.,
 * SIGCOMM 2016), ordered so each contains the expressive power of the ones
 * before it. A register action is classified as the least template that can
 * run it; a target profile lists the templates its stateful ALUs implement.
 */
public enum AtomTemplate {
    /** Output the stored word, no update. */
    READ,
    /** Overwrite the word with an input or constant. */
    WRITE,
    /** Read, add (or another ALU op with the stored word), write back. */
    RAW,
    /** RAW under one condition; otherwise keep. */
    PRAW,
    /** One condition choosing between two updates. */
    IF_ELSE_RAW,
    /** IF_ELSE_RAW whose updates may subtract. */
    SUB,
    /** Two conditions (nested if). */
    NESTED_IF,
    /** Two words (lo/hi) updated together, each from both. */
    PAIR,
    /** Arbitrary Java update code: only on targets that allow it (unconstrained). */
    FREEFORM
}

package dev.rmtemu.model.program;

/**
 * How a stage depends on the one before it, which sets its latency: a match
 * dependency waits for the previous stage's result (full stage latency), an
 * action dependency only for its actions, a concurrent stage overlaps it.
 */
public enum StageDependency { MATCH, ACTION, CONCURRENT }

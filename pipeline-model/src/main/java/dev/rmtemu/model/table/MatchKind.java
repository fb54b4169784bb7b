package dev.rmtemu.model.table;

/** How a table matches its key: exact in SRAM, ternary and LPM in TCAM. */
public enum MatchKind { EXACT, TERNARY, LPM }

package dev.rmtemu.model.table;

/**
 * How a table matches its key: exact in SRAM; ternary, LPM and range in TCAM (a range
 * entry takes several TCAM lines, as Tofino's DirtCAM matches a range nibble by nibble).
 */
public enum MatchKind { EXACT, TERNARY, LPM, RANGE }

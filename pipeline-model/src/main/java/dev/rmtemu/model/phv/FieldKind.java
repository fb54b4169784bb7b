package dev.rmtemu.model.phv;

/** What a PHV field holds. */
public enum FieldKind {
    /** Parsed from (or added to) the packet; present in every gress the program uses. */
    HEADER,
    /** Program scratch space of one gress. */
    METADATA,
    /** Set or read by the pipeline itself (Tofino's intrinsic metadata). */
    INTRINSIC
}

package dev.rmtemu.model.check;

/**
 * One way to lay a table's entries out in SRAM rows, compared as bf-p4c's
 * {@code select_best_option} compares its exact-match layout options (mau/table_layout.cpp): fewer
 * RAMs, then narrower rows, then (at equal capacity) fewer entries a row, then immediate data,
 * then more capacity. Exact-match and ATCAM layouts are chosen by the same order.
 */
interface SramLayoutChoice {
    long rams();

    int width();

    int pack();

    boolean immediate();

    long capacity();

    /** True if this option beats {@code o}. */
    default boolean betterThan(SramLayoutChoice o) {
        if (rams() != o.rams()) {
            return rams() < o.rams();
        }
        if (width() != o.width()) {
            return width() < o.width();
        }
        if (capacity() == o.capacity() && pack() != o.pack()) {
            return pack() < o.pack();
        }
        if (immediate() != o.immediate()) {
            return immediate();
        }
        return capacity() > o.capacity();
    }
}

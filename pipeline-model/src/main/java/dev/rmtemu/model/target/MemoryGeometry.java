package dev.rmtemu.model.target;

/**
 * A per-stage memory made of identical blocks, each {@code depth} words of
 * {@code widthBits} bits (Tofino SRAM: 80 blocks of 1024 x 128 b).
 * {@link #UNLIMITED} in {@code blocks} means no budget (the unconstrained target).
 */
public record MemoryGeometry(int blocks, int depth, int widthBits) {
    public static final int UNLIMITED = Integer.MAX_VALUE;

    public MemoryGeometry {
        if (blocks <= 0 || depth <= 0 || widthBits <= 0) {
            throw new IllegalArgumentException("memory geometry must be positive: " + blocks + " x " + depth + " x " + widthBits);
        }
    }

    public long bitsPerBlock() {
        return (long) depth * widthBits;
    }

    public boolean unlimited() {
        return blocks == UNLIMITED;
    }
}

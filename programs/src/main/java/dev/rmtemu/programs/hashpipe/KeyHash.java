package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.model.hash.HashAlgorithm;

/**
 * One hash function over a key, fed exactly as a hash unit feeds the key's PHV
 * field(s): a 32-bit key as 4 big-endian bytes, a 5-tuple key as the 8 bytes
 * of {@code lo} then the 5 bytes of {@code hi}. Gives the same index the
 * stage program computes.
 */
public final class KeyHash {
    private final HashAlgorithm algorithm;
    private final boolean wide;

    public KeyHash(HashAlgorithm algorithm, KeyKind kind) {
        this.algorithm = algorithm;
        this.wide = kind.wide();
    }

    public long hash(long lo, long hi) {
        HashAlgorithm a = algorithm;
        long s = a.init();
        if (wide) {
            s = FlowKeys.feed(a, s, lo, 8);
            s = FlowKeys.feed(a, s, hi, KeyKind.FIVETUPLE_HI_BITS / 8);
        } else {
            s = FlowKeys.feed(a, s, lo, 4);
        }
        return a.finish(s) & HashPipeConfig.INDEX_HASH_MASK;
    }

    /** The slot of a key in a table of {@code size} slots. */
    public int index(long lo, long hi, int size) {
        return (int) (hash(lo, hi) % size);
    }

    public HashAlgorithm algorithm() {
        return algorithm;
    }
}

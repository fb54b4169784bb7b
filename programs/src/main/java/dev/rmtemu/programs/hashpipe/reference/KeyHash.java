package dev.rmtemu.programs.hashpipe.reference;

import dev.rmtemu.programs.common.FiveTupleHash;
import dev.rmtemu.programs.hashpipe.program.HashPipeConfig;
import dev.rmtemu.programs.hashpipe.program.KeyKind;

import dev.rmtemu.model.arith.Divisor;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.PositionalCrc;

/**
 * One hash function over a key, fed exactly as a hash unit feeds the key's PHV
 * field(s): a 32-bit key as 4 big-endian bytes, a 5-tuple key as the 8 bytes
 * of {@code lo} then the 5 bytes of {@code hi}. Gives the same index the
 * stage program computes.
 */
public final class KeyHash {
    private final HashAlgorithm algorithm;
    private final boolean wide;
    /** The same CRC one lookup per key byte (as the emulator's hash unit computes it); null if not a CRC. */
    private final PositionalCrc fast;
    /** hash mod table size without a 64-bit idiv (as the stage program folds it). */
    private Divisor fold;
    private int foldSize;

    public KeyHash(HashAlgorithm algorithm, KeyKind kind) {
        this.algorithm = algorithm;
        this.wide = kind.wide();
        this.fast = algorithm instanceof Crc crc
                ? (wide ? new PositionalCrc(crc, 8, KeyKind.FIVETUPLE_HI_BITS / 8) : new PositionalCrc(crc, 4)) : null;
    }

    public long hash(long lo, long hi) {
        if (fast != null) {
            return (wide ? fast.hash(lo, hi) : fast.hash(lo)) & HashPipeConfig.INDEX_HASH_MASK;
        }
        HashAlgorithm a = algorithm;
        long s = a.init();
        if (wide) {
            s = FiveTupleHash.feed(a, s, lo, 8);
            s = FiveTupleHash.feed(a, s, hi, KeyKind.FIVETUPLE_HI_BITS / 8);
        } else {
            s = FiveTupleHash.feed(a, s, lo, 4);
        }
        return a.finish(s) & HashPipeConfig.INDEX_HASH_MASK;
    }

    /** The slot of a key in a table of {@code size} slots. */
    public int index(long lo, long hi, int size) {
        if (size != foldSize) {
            fold = new Divisor(size); // tables keep their size: built once
            foldSize = size;
        }
        return (int) fold.remainder(hash(lo, hi));
    }

    public HashAlgorithm algorithm() {
        return algorithm;
    }
}

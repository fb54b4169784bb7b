package dev.rmtemu.model.hash;

import dev.rmtemu.model.UserError;

/**
 * A hash function over a byte string, as a hash unit computes it over the
 * concatenation of its input fields. Implementations are stateless, so one
 * instance serves every packet.
 */
public interface HashAlgorithm {
    /** Starts a computation. */
    long init();

    /** Folds one byte into the running state. */
    long update(long state, int b);

    /** Finishes the computation. */
    long finish(long state);

    /** Bits the finished value has. */
    int width();

    /** A short description for reports, e.g. {@code crc32(poly=0x04c11db7,...)}. */
    String describe();

    default long hash(byte[] data) {
        long s = init();
        for (byte b : data) {
            s = update(s, b & 0xff);
        }
        return finish(s);
    }

    /** The identity "hash": the input bits themselves (low 64 bits kept). */
    static HashAlgorithm identity() {
        return Identity.INSTANCE;
    }

    /** A seeded custom hash: SplitMix64's finaliser folded over the bytes, seed first. */
    static HashAlgorithm seeded(long seed) {
        return new SeededMix(seed);
    }

    /** Looks a hash up by its report name, e.g. {@code crc32}, {@code crc16}, {@code crc32c}, {@code identity}, {@code seeded:7}. */
    static HashAlgorithm byName(String name) {
        if (name.equals("identity")) {
            return identity();
        }
        if (name.startsWith("seeded:")) {
            try {
                return seeded(Long.decode(name.substring("seeded:".length())));
            } catch (NumberFormatException e) {
                throw new UserError("hash '" + name + "': seed is not a number");
            }
        }
        Crc crc = Crc.named(name);
        if (crc == null) {
            throw new UserError("unknown hash '" + name + "' (known: " + String.join(", ", Crc.NAMES)
                    + ", identity, seeded:N)");
        }
        return crc;
    }

    /** Identity over the concatenated input; wider inputs keep their last 64 bits. */
    final class Identity implements HashAlgorithm {
        static final Identity INSTANCE = new Identity();

        @Override
        public long init() {
            return 0;
        }

        @Override
        public long update(long state, int b) {
            return (state << 8) | b;
        }

        @Override
        public long finish(long state) {
            return state;
        }

        @Override
        public int width() {
            return 64;
        }

        @Override
        public String describe() {
            return "identity";
        }
    }

    /**
     * A documented custom hash: the state starts at the seed, each byte is mixed
     * in with SplitMix64's finaliser (Steele et al., OOPSLA 2014).
     */
    final class SeededMix implements HashAlgorithm {
        private final long seed;

        SeededMix(long seed) {
            this.seed = seed;
        }

        @Override
        public long init() {
            return seed;
        }

        @Override
        public long update(long state, int b) {
            long z = state + 0x9E3779B97F4A7C15L + b;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        @Override
        public long finish(long state) {
            return state;
        }

        @Override
        public int width() {
            return 64;
        }

        @Override
        public String describe() {
            return "seeded:" + seed;
        }
    }
}

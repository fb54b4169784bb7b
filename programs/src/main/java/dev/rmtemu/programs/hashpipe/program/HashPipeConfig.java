package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.program.ProgramParams;

import java.util.List;

/**
 * HashPipe's parameters, shared by the stage program, the reference, the
 * collector and the experiment.
 *
 * @param stages           d, the number of HashPipe stages (hash tables)
 * @param countersPerStage slots per stage (the total split equally, remainder unused)
 * @param key              what is counted by
 * @param hashFamily       where stage i's index hash comes from ({@link #HASH_FAMILIES})
 * @param countBytes       count bytes ({@link CountedBytes}: IP length + Ethernet header) instead of packets
 */
public record HashPipeConfig(int stages, int countersPerStage, KeyKind key, String hashFamily, boolean countBytes) {
    /** Paper's headline configuration: d = 6 stages, 4500 counters (~80 KB with 5-tuple keys). */
    public static final int DEFAULT_STAGES = 6;
    public static final int PAPER_COUNTERS = 4500;
    /**
     * The program's default: 1,024 slots in each of the 6 stages. tofino1 has no divider, so a
     * stage's slot count must be a power of two (the paper's 4,500 would be 750 per stage); 1,024
     * is the nearest power of two above 750.
     */
    public static final int DEFAULT_COUNTERS = 6144;
    /** Most stages: a key stage plus d HashPipe stages must fit tofino1's 12 ingress stages. */
    public static final int MAX_STAGES = 11;
    public static final String DEFAULT_KEY = "fingerprint";
    /** The fingerprint of the 5-tuple: the standard CRC-32 a Tofino hash unit computes. */
    public static final String FINGERPRINT_HASH = "crc32";
    /** Index hashes keep 32 bits (within tofino1's 52 hash bits per unit), then mod the stage size. */
    public static final int INDEX_HASH_BITS = 32;
    public static final long INDEX_HASH_MASK = (1L << INDEX_HASH_BITS) - 1;
    /** Count word of 32-bit keys: one 32-bit stateful-ALU word (wraps like the hardware's adder). */
    public static final int COUNT_BITS = 32;
    /**
     * Count bits left beside a 5-tuple in a 128-bit cell (104 + 24), saturating: 16,777,215
     * packets is more than a 10 M-packet interval holds, but not enough bytes, so key=5tuple
     * with count=bytes is refused.
     */
    public static final int FIVETUPLE_COUNT_BITS = 24;

    public static final String FAMILY_CRC32 = "crc32";
    public static final String FAMILY_SEEDED = "seeded";
    public static final List<String> HASH_FAMILIES = List.of(FAMILY_CRC32, FAMILY_SEEDED);
    /**
     * Stage i of the crc32 family is a reflected CRC-32 (init and xorout all ones,
     * as a Tofino hash unit can be configured) with the i-th polynomial here. The
     * first eight are published CRC-32 polynomials: IEEE 802.3, Castagnoli (32C),
     * Koopman (32K), Koopman 32K2, 32Q, 32D, AUTOSAR, XFER. The last three are
     * arbitrary odd constants: any polynomial with an x^0 term defines a CRC that is
     * a bijection on 32-bit keys, which is all an index hash needs.
     */
    public static final long[] CRC32_POLYS = {
        0x04C11DB7L, 0x1EDC6F41L, 0x741B8CD7L, 0x32583499L, 0x814141ABL, 0xA833982BL,
        0xF4ACFB13L, 0x000000AFL, 0x973AFB51L, 0x5A74DEF3L, 0x2B1F3A6DL
    };
    /** Seeds of the seeded family: stage i uses seeded:(SEED_BASE + i). */
    public static final long SEED_BASE = 0x4A5B;

    public HashPipeConfig {
        if (stages < 1 || stages > MAX_STAGES) {
            throw new UserError("hashpipe: stages d=" + stages + " outside 1.." + MAX_STAGES);
        }
        if (countersPerStage < 1) {
            throw new UserError("hashpipe: fewer counters than stages (" + stages + " stages need at least one counter each)");
        }
        if (key.wide() && countBytes) {
            // the count would saturate silently: refused rather than reported wrong
            throw new UserError("hashpipe: key=5tuple with count=bytes: the 128-bit slot keeps " + FIVETUPLE_COUNT_BITS
                    + " count bits beside the 104-bit key, which saturate at " + ((1L << FIVETUPLE_COUNT_BITS) - 1)
                    + " bytes (one elephant of a 20-s backbone chunk sends more); count packets, or key by fingerprint");
        }
        if (!HASH_FAMILIES.contains(hashFamily)) {
            throw new UserError("hashpipe: unknown hash family '" + hashFamily + "' (known: " + HASH_FAMILIES + ")");
        }
    }

    /** Splits {@code totalCounters} equally over {@code stages}. */
    public static HashPipeConfig of(int stages, int totalCounters, KeyKind key, String hashFamily, boolean countBytes) {
        if (stages < 1) {
            throw new UserError("hashpipe: stages d=" + stages + " must be positive");
        }
        return new HashPipeConfig(stages, totalCounters / stages, key, hashFamily, countBytes);
    }

    public static HashPipeConfig defaults() {
        return of(DEFAULT_STAGES, DEFAULT_COUNTERS, KeyKind.FINGERPRINT, FAMILY_CRC32, false);
    }

    /** From the program parameters (see {@link HashPipeProgram#params()}). */
    public static HashPipeConfig from(ProgramParams p) {
        return of(p.intValue("stages"), p.intValue("counters"), KeyKind.byLabel(p.string("key")), p.string("hash"),
                p.string("count").equals("bytes"));
    }

    public int totalCounters() {
        return stages * countersPerStage;
    }

    /** The index hash of HashPipe stage {@code i} (0-based). */
    public HashAlgorithm stageHash(int i) {
        if (hashFamily.equals(FAMILY_SEEDED)) {
            return HashAlgorithm.seeded(SEED_BASE + i);
        }
        return new Crc("crc32_p" + i, 32, CRC32_POLYS[i], 0xFFFFFFFFL, true, true, 0xFFFFFFFFL);
    }

    /** Bits of a count word. */
    public int countBits() {
        return key.wide() ? FIVETUPLE_COUNT_BITS : COUNT_BITS;
    }

    /** Counts saturate (5-tuple cells) instead of wrapping (32-bit hardware adder). */
    public boolean countSaturates() {
        return key.wide();
    }
}

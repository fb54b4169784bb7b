package dev.rmtemu.programs.lossradar.program;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.ProgramParams;

/**
 * LossRadar's parameters (Li et al., CoNEXT 2016) with their defaults as named data.
 *
 * @param hashes     k, the number of hash functions; the cells of a digest are split into k
 *                   equal partitions, one per hash, so the k updates land in k different
 *                   register arrays (one read-modify-write each per pass)
 * @param cells      n_cell, cells per digest (one digest per port and batch), a multiple of k;
 *                   cells / k a power of two on targets without a divider
 * @param ports      n_port, ports each meter covers
 * @param batchShift a batch is 2^batchShift ns of the ingress timestamp (T; 23 gives 8.39 ms,
 *                   the power of two nearest the paper's 10 ms, so the batch ID is a bit slice)
 * @param timeoutNs  a downstream batch closes T + timeout after its first packet
 * @param ttlBit     put the low bit of the (normalised) TTL into the signature (loops)
 * @param synBit     put the TCP SYN flag into the signature (root-cause analysis)
 * @param timestamp  put a 14-bit µs timestamp (carried from UM to DM) into the signature
 * @param ttlNorm    TTL decrements between a UM and its DM; the DM adds them back
 * @param port       egress port the UM switch sends every packet to (the line and tests)
 * @param meters     black-box mode: upstream meter IDs a DM keeps separate digests for (0: off)
 * @param meterId    black-box mode: the ID this switch's UM writes into the shim header
 */
public record LossRadarConfig(int hashes, int cells, int ports, int batchShift, long timeoutNs,
                              boolean ttlBit, boolean synBit, boolean timestamp, int ttlNorm, int port, int meters, int meterId) {
    /** Paper: k = 3 hash functions. */
    public static final int DEFAULT_HASHES = 3;
    /** Hash functions available (four CRC-32 polynomials, {@link SignatureHash}). */
    public static final int MAX_HASHES = SignatureHash.POLYNOMIALS.length;
    public static final int DEFAULT_CELLS = 96;
    public static final int DEFAULT_PORTS = 4;
    /** 2^23 ns = 8.39 ms, the paper's T of about 10 ms. */
    public static final int DEFAULT_BATCH_SHIFT = 23;
    public static final long DEFAULT_TIMEOUT_NS = 1_000_000;
    public static final int DEFAULT_PORT = 1;
    /** Batch ID bits carried in the shim header (a 16-bit ID wraps after 2^16 batches, about 9 minutes at T = 8.39 ms). */
    public static final int BATCH_BITS = 16;
    /** Bits of the µs timestamp in the signature (paper: 14). */
    public static final int TIMESTAMP_BITS = 14;
    /** 32-bit signature words: 5-tuple (104 b) + IP ID (16 b) + TTL bit + SYN fit in four; the timestamp takes a fifth. */
    public static final int BASE_WORDS = 4;
    /** Two batches coexist per meter (the current one and the one being closed). */
    public static final int BATCH_SLOTS = 2;
    /** Meter ID bits in the shim header (black-box mode). */
    public static final int METER_BITS = 8;

    public LossRadarConfig {
        if (hashes < 1 || hashes > MAX_HASHES) {
            throw new UserError("lossradar: hashes=" + hashes + " outside 1.." + MAX_HASHES);
        }
        if (cells < hashes || cells % hashes != 0) {
            throw new UserError("lossradar: cells=" + cells + " must be a positive multiple of hashes=" + hashes);
        }
        if (ports < 1) {
            throw new UserError("lossradar: ports=" + ports + " must be >= 1");
        }
        if (batchShift < 10 || batchShift > 40) {
            throw new UserError("lossradar: batch_shift=" + batchShift + " outside 10..40");
        }
        if (timeoutNs < 0 || timeoutNs >= batchNs(batchShift)) {
            throw new UserError("lossradar: timeout " + timeoutNs + " ns must be below the batch length " + batchNs(batchShift) + " ns");
        }
        if (meters < 0 || meters > 1 << METER_BITS || meterId < 0 || meterId >= 1 << METER_BITS) {
            throw new UserError("lossradar: meters=" + meters + " / meter_id=" + meterId + " outside 0.." + (1 << METER_BITS));
        }
    }

    /** Without black-box meter IDs. */
    public LossRadarConfig(int hashes, int cells, int ports, int batchShift, long timeoutNs,
                           boolean ttlBit, boolean synBit, boolean timestamp, int ttlNorm, int port) {
        this(hashes, cells, ports, batchShift, timeoutNs, ttlBit, synBit, timestamp, ttlNorm, port, 0, 0);
    }

    /** Black-box mode: DMs keep one digest per upstream meter ID below {@code n}; this UM writes {@code id}. */
    public LossRadarConfig withMeters(int n, int id) {
        return new LossRadarConfig(hashes, cells, ports, batchShift, timeoutNs, ttlBit, synBit, timestamp, ttlNorm, port, n, id);
    }

    public boolean blackBox() {
        return meters > 0;
    }

    /** Digests a DM keeps per (batch slot, port): one per upstream meter in black-box mode. */
    public int upstreamDigests() {
        return Math.max(1, meters);
    }

    /**
     * The cells a digest of about {@code cells} gets on a target without a divider: k
     * sub-tables of the largest power of two at most cells / k (at least 1), so a cell
     * index is a mask of hash bits. Experiments size their digests with it.
     */
    public static int powerOfTwoCells(int k, int cells) {
        return k * Integer.highestOneBit(Math.max(1, cells / k));
    }

    public static LossRadarConfig defaults() {
        return new LossRadarConfig(DEFAULT_HASHES, DEFAULT_CELLS, DEFAULT_PORTS, DEFAULT_BATCH_SHIFT, DEFAULT_TIMEOUT_NS,
                false, false, false, 0, DEFAULT_PORT);
    }

    public static LossRadarConfig from(ProgramParams p) {
        return new LossRadarConfig(p.intValue("hashes"), p.intValue("cells"), p.intValue("ports"), p.intValue("batch_shift"),
                p.longValue("timeout_us") * 1000, p.intValue("ttl_bit") != 0, p.intValue("syn_bit") != 0,
                p.intValue("timestamp") != 0, p.intValue("ttl_norm"), p.intValue("port"), p.intValue("meters"), p.intValue("meter_id"));
    }

    private static long batchNs(int shift) {
        return 1L << shift;
    }

    public LossRadarConfig withCells(int n) {
        return new LossRadarConfig(hashes, n, ports, batchShift, timeoutNs, ttlBit, synBit, timestamp, ttlNorm, port, meters, meterId);
    }

    public LossRadarConfig withPorts(int n) {
        return new LossRadarConfig(hashes, cells, n, batchShift, timeoutNs, ttlBit, synBit, timestamp, ttlNorm, port, meters, meterId);
    }

    public LossRadarConfig withHashes(int k, int n) {
        return new LossRadarConfig(k, n, ports, batchShift, timeoutNs, ttlBit, synBit, timestamp, ttlNorm, port, meters, meterId);
    }

    public LossRadarConfig withOptions(boolean ttl, boolean syn, boolean ts) {
        return new LossRadarConfig(hashes, cells, ports, batchShift, timeoutNs, ttl, syn, ts, ttlNorm, port, meters, meterId);
    }

    /** Batch length T in ns. */
    public long batchNs() {
        return batchNs(batchShift);
    }

    /** m, cells per hash partition. */
    public int cellsPerHash() {
        return cells / hashes;
    }

    /** 32-bit words of a signature. */
    public int words() {
        return timestamp ? BASE_WORDS + 1 : BASE_WORDS;
    }

    /** Bytes of one digest as exported: per cell a 32-bit count and the xorSum words. */
    public int digestBytes() {
        return cells * (words() + 1) * Integer.BYTES;
    }
}

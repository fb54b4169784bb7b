package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsHashes;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.gen.SplitMix64;

/**
 * What one packet does to a sketch, computed once from its header (a reusable holder: no
 * allocation per packet): per row whether the row samples it and which cell it updates,
 * the digest it XORs in, and its flow's weight.
 */
public final class LdsPacketKeys {
    final int[] cell;
    final boolean[] sampled;
    long digest;
    long weight;
    private final LdsConfig cfg;
    private final long[] threshold;
    private final long[] flowScratch = new long[LdsConfig.MAX_ROWS];

    public LdsPacketKeys(LdsConfig cfg) {
        this.cfg = cfg;
        this.cell = new int[cfg.rows()];
        this.sampled = new boolean[cfg.rows()];
        this.threshold = new long[cfg.rows()];
        for (int r = 0; r < cfg.rows(); r++) {
            threshold[r] = cfg.sampleThreshold(r);
        }
    }

    /** Hashes the packet's header (what both measurement points do independently). */
    public LdsPacketKeys of(PacketRecord r) {
        long[] flow = flowScratch;
        for (int row = 0; row < cfg.rows(); row++) {
            flow[row] = LdsHashes.flow(LdsHashes.row(row), r);
        }
        return of(flow, LdsHashes.packet(LdsHashes.packet(), r), LdsHashes.packet(LdsHashes.digest(), r),
                LdsHashes.packet(LdsHashes.sample(), r), LdsHashes.flow(LdsHashes.flowClass(), r));
    }

    /** From precomputed hashes (the experiment hashes each flow once). */
    public LdsPacketKeys of(long[] flowHash, long packetHash, long digestHash, long sampleHash, long classHash) {
        int c = cfg.cells();
        int k = cfg.ldaCells();
        for (int row = 0; row < cell.length; row++) {
            cell[row] = (int) ((flowHash[row] % c + LdsHashes.offset(packetHash, row, k)) % c);
            sampled[row] = sampleHash < threshold[row];
        }
        digest = digestHash;
        weight = cfg.weights().weightOf(classHash);
        return this;
    }

    public int cell(int row) {
        return cell[row];
    }

    public boolean sampled(int row) {
        return sampled[row];
    }

    public long digest() {
        return digest;
    }

    public long weight() {
        return weight;
    }

    /** The 5-tuple folded into 64 bits (the generator's flows differ in their hashed addresses and ports). */
    public static long tupleKey(PacketRecord r) {
        long a = ((long) r.srcIpv4() << 32) | (r.dstIpv4() & 0xFFFFFFFFL);
        long b = ((long) r.protocol() << 32) | ((long) r.srcPort() << 16) | r.dstPort();
        return SplitMix64.mix(a ^ SplitMix64.mix(b));
    }
}

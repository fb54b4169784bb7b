package dev.rmtemu.programs.lossradar.reference;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.programs.lossradar.program.Signature;

import dev.rmtemu.traces.PacketRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * The plain-Java LossRadar meter: the algorithm without the hardware, the oracle
 * of the stage programs and their speed baseline. Like the switch it keeps two
 * batch slots per port (a black-box DM: per port and upstream meter ID); a batch is
 * closed (exported and cleared) when its slot is needed by a later batch, or by
 * {@link #closeAll}. Inserting allocates nothing.
 */
public final class LossRadarMeter {
    private final LossRadarConfig config;
    private final int switchId;
    private final int role;
    /** [slot][upstream · ports + port] */
    private final IbfDigest[][] slots;
    private final long[][] slotBatch;
    private final int digests;
    private final int[] sig;
    private final List<MeterDigest> closed = new ArrayList<>();

    public LossRadarMeter(LossRadarConfig config, int switchId, int role) {
        this.config = config;
        this.switchId = switchId;
        this.role = role;
        this.digests = role == MeterDigest.DM ? config.upstreamDigests() : 1;
        int n = digests * config.ports();
        this.slots = new IbfDigest[LossRadarConfig.BATCH_SLOTS][n];
        this.slotBatch = new long[LossRadarConfig.BATCH_SLOTS][n];
        for (int s = 0; s < slots.length; s++) {
            for (int p = 0; p < n; p++) {
                slots[s][p] = IbfDigest.of(config);
                slotBatch[s][p] = -1;
            }
        }
        this.sig = new int[config.words()];
    }

    /** Upstream meter: a packet leaving ingress for {@code port} at {@code ns}. */
    public void upstream(PacketRecord r, int port, long ns) {
        long batch = (ns >>> config.batchShift()) & batchMask();
        Signature.of(r, r.ttl(), Signature.timestamp(ns), config, sig);
        insert(port, batch, 0, sig);
    }

    /** Downstream meter: a packet arriving on {@code port} with the batch ID and timestamp word the UM carried. */
    public void downstream(PacketRecord r, int port, long batch, int ts) {
        downstream(r, port, batch, ts, 0);
    }

    /** Downstream meter in black-box mode: also the upstream meter ID the packet carried (ignored unless below {@code meters}). */
    public void downstream(PacketRecord r, int port, long batch, int ts, int upstream) {
        if (upstream >= digests) {
            return;
        }
        Signature.of(r, r.ttl() + config.ttlNorm(), ts, config, sig);
        insert(port, batch, upstream, sig);
    }

    /** Inserts a signature into the digest of (port, batch, upstream meter). */
    public void insert(int port, long batch, int upstream, int[] signature) {
        int s = (int) (batch & 1);
        int d = upstream * config.ports() + port;
        if (slotBatch[s][d] != batch) {
            close(s, d);
            slotBatch[s][d] = batch;
        }
        slots[s][d].insert(signature);
    }

    private void close(int s, int d) {
        if (slotBatch[s][d] >= 0 && !slots[s][d].isEmpty()) {
            int port = d % config.ports();
            int meter = role == MeterDigest.UM ? config.meterId() : d / config.ports();
            closed.add(new MeterDigest(switchId, role, port, slotBatch[s][d], slots[s][d].copy(), meter));
        }
        slots[s][d].clear();
        slotBatch[s][d] = -1;
    }

    /** Closes every open batch; returns every digest closed so far, in closing order. */
    public List<MeterDigest> closeAll() {
        for (int p = 0; p < digests * config.ports(); p++) {
            long b0 = slotBatch[0][p];
            long b1 = slotBatch[1][p];
            int first = b1 >= 0 && (b0 < 0 || b1 < b0) ? 1 : 0;
            close(first, p);
            close(1 - first, p);
        }
        return List.copyOf(closed);
    }

    public static long batchMask() {
        return (1L << LossRadarConfig.BATCH_BITS) - 1;
    }

    public LossRadarConfig config() {
        return config;
    }
}

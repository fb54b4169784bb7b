package dev.rmtemu.emulator.tm;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One egress port of the traffic manager.
 *
 * @param rateBitsPerSecond line rate in bit/s (use {@link #gbps(double)} for Gb/s values)
 * @param queues            number of queues on the port
 * @param scheduler         how the port picks its next queue
 * @param drrQuantumBytes   DRR quantum per queue in bytes (one entry per queue); empty for
 *                          strict priority
 * @param queueLimitCells   tail-drop limit of each queue, in buffer cells
 * @param portLimitCells    tail-drop limit of the port (all its queues), in buffer cells
 */
public record PortConfig(long rateBitsPerSecond, int queues, SchedulerKind scheduler,
                         List<Integer> drrQuantumBytes, int queueLimitCells, int portLimitCells) {

    /** Queues per port by default: the 8 IEEE 802.1p classes (Tofino allows up to 32). */
    public static final int DEFAULT_QUEUES_PER_PORT = 8;

    /** Queues a port may have (Tofino 1 offers 32; the scheduler keeps a 64-bit occupancy mask). */
    public static final int MAX_QUEUES_PER_PORT = 64;

    /**
     * Default DRR quantum: one 1500-byte MTU, the smallest quantum that keeps DRR at one
     * visit per packet (Shreedhar and Varghese: quantum at least the largest packet).
     */
    public static final int DEFAULT_DRR_QUANTUM_BYTES = 1500;

    /**
     * Default per-queue limit: 12,500 cells = 1 MB of 80-byte cells. Tofino's real limits
     * are programmed by the control plane (and dynamic); no public default exists, so this
     * is a modelling choice: large enough to hold a small incast, small enough that one
     * queue cannot take the whole 22 MB buffer.
     */
    public static final int DEFAULT_QUEUE_LIMIT_CELLS = 12_500;

    /** Default per-port limit: 25,000 cells = 2 MB, i.e. two full queues (modelling choice). */
    public static final int DEFAULT_PORT_LIMIT_CELLS = 25_000;

    /** Highest line rate accepted: 10 Tb/s (25 × a 400G port); keeps cycle arithmetic in a long. */
    public static final long MAX_RATE_BITS_PER_SECOND = 10_000_000_000_000L;

    public PortConfig {
        if (rateBitsPerSecond <= 0 || rateBitsPerSecond > MAX_RATE_BITS_PER_SECOND) {
            throw new UserError("traffic manager port: rate must be between 1 bit/s and " + MAX_RATE_BITS_PER_SECOND
                    + " bit/s, got " + rateBitsPerSecond);
        }
        if (queues > MAX_QUEUES_PER_PORT) {
            throw new UserError("traffic manager port: at most " + MAX_QUEUES_PER_PORT + " queues, got " + queues);
        }
        if (queues < 1) {
            throw new UserError("traffic manager port: needs at least one queue, got " + queues);
        }
        if (scheduler == null) {
            throw new UserError("traffic manager port: scheduler missing");
        }
        drrQuantumBytes = drrQuantumBytes == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(drrQuantumBytes));
        if (scheduler == SchedulerKind.DRR) {
            if (drrQuantumBytes.size() != queues) {
                throw new UserError("traffic manager port: DRR needs one quantum per queue (" + queues
                        + "), got " + drrQuantumBytes.size());
            }
            for (int i = 0; i < queues; i++) {
                Integer quantum = drrQuantumBytes.get(i);
                if (quantum == null || quantum < 1) {
                    throw new UserError("traffic manager port: DRR quantum of queue " + i + " must be positive, got " + quantum);
                }
            }
        }
        if (queueLimitCells < 1) {
            throw new UserError("traffic manager port: queue limit must be at least 1 cell, got " + queueLimitCells);
        }
        if (portLimitCells < 1) {
            throw new UserError("traffic manager port: port limit must be at least 1 cell, got " + portLimitCells);
        }
    }

    /**
     * A rate in Gb/s as bit/s, rounded to the nearest bit/s (10 → 10,000,000,000; 2.5 →
     * 2,500,000,000). Serialisation is computed exactly from this integer.
     */
    public static long gbps(double rateGbps) {
        if (!(rateGbps > 0) || rateGbps * 1e9 > MAX_RATE_BITS_PER_SECOND) {
            throw new UserError("traffic manager port: rate must be a positive number of Gb/s up to "
                    + MAX_RATE_BITS_PER_SECOND / 1_000_000_000L + ", got " + rateGbps);
        }
        long bps = Math.round(rateGbps * 1e9);
        if (bps < 1) {
            throw new UserError("traffic manager port: rate " + rateGbps + " Gb/s is below 1 bit/s");
        }
        return bps;
    }

    /** A strict-priority port with the default queue count and limits. */
    public static PortConfig strictPriority(double rateGbps) {
        return new PortConfig(gbps(rateGbps), DEFAULT_QUEUES_PER_PORT, SchedulerKind.STRICT_PRIORITY, List.of(),
                DEFAULT_QUEUE_LIMIT_CELLS, DEFAULT_PORT_LIMIT_CELLS);
    }

    /** A DRR port with one queue per quantum and the default limits. */
    public static PortConfig drr(double rateGbps, List<Integer> quantumBytes) {
        return new PortConfig(gbps(rateGbps), quantumBytes.size(), SchedulerKind.DRR, quantumBytes,
                DEFAULT_QUEUE_LIMIT_CELLS, DEFAULT_PORT_LIMIT_CELLS);
    }

    /** This port with other limits. */
    public PortConfig withLimits(int newQueueLimitCells, int newPortLimitCells) {
        return new PortConfig(rateBitsPerSecond, queues, scheduler, drrQuantumBytes, newQueueLimitCells, newPortLimitCells);
    }

    /** The line rate in Gb/s (for reports). */
    public double rateGbps() {
        return rateBitsPerSecond / 1e9;
    }
}

package dev.rmtemu.programs.midst.reference;

import dev.rmtemu.emulator.tm.DequeueInfo;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.emulator.tm.TrafficManager;
import dev.rmtemu.emulator.tm.TrafficManagerConfig;

/**
 * The negative-mirroring baseline of experiment (d): every packet the traffic manager
 * drops is mirrored (truncated to {@code copyBytes}) to a mirror port of fixed rate, whose
 * queue is a traffic-manager queue of its own (the emulator's {@link TrafficManager}, one
 * port, tail drop at {@code queueCells}). A copy that finds the queue full is a lost report;
 * a copy that leaves the port reaches the collector. Offers must come in non-decreasing
 * cycle order.
 */
public final class NegativeMirror {
    private static final int PORT = 0;
    private static final int QUEUE = 0;
    private final TrafficManager tm;
    private final DequeueInfo dq = new DequeueInfo();
    private final int copyBytes;
    private long offered;
    private long lost;

    public NegativeMirror(long clockHz, double mirrorGbps, int queueCells, int copyBytes) {
        PortConfig port = PortConfig.strictPriority(mirrorGbps).withLimits(queueCells, queueCells);
        this.tm = new TrafficManager(TrafficManagerConfig.uniform(clockHz, 1, port));
        this.copyBytes = copyBytes;
    }

    /** A dropped packet's copy reaches the mirror queue at {@code cycle}; true if it will reach the collector. */
    public boolean offer(long cycle, int handle) {
        // the port sends what it can before this copy arrives
        for (long next = tm.nextDequeueCycle(PORT); next <= cycle; next = tm.nextDequeueCycle(PORT)) {
            tm.dequeue(next, PORT, dq);
        }
        offered++;
        if (tm.enqueue(cycle, PORT, QUEUE, handle, copyBytes) != 0) {
            lost++;
            return false;
        }
        return true;
    }

    public long offered() {
        return offered;
    }

    /** Reports lost to the mirror queue's overflow. */
    public long lost() {
        return lost;
    }
}

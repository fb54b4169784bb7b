package dev.rmtemu.emulator.tm;

/**
 * What the traffic manager hands to egress for one dequeued packet: Tofino's egress
 * intrinsic metadata plus the serialisation window. One instance is reused for every
 * dequeue (the engine owns it), so nothing is allocated per packet. Times are in target
 * clock cycles; depths are in buffer cells.
 */
public final class DequeueInfo {
    int packetHandle;
    int port;
    int qid;
    int bytes;
    int cells;
    int enqQdepth;
    long enqTstamp;
    int deqQdepth;
    long deqTimedelta;
    long serialisationStartCycle;
    long serialisationEndCycle;

    /** The handle given at enqueue. */
    public int packetHandle() {
        return packetHandle;
    }

    /** Egress port the packet leaves from. */
    public int port() {
        return port;
    }

    /** Queue id within the port. */
    public int qid() {
        return qid;
    }

    /** Frame length in bytes as given at enqueue (without the inter-packet overhead). */
    public int bytes() {
        return bytes;
    }

    /** Buffer cells the packet held (its bytes and any bridged bytes, rounded up to whole cells). */
    public int cells() {
        return cells;
    }

    /** Depth of the queue in cells found by the packet on arrival (excluding its own cells). */
    public int enqQdepth() {
        return enqQdepth;
    }

    /** Cycle at which the packet was enqueued. */
    public long enqTstamp() {
        return enqTstamp;
    }

    /** Depth of the queue in cells left behind the packet when it was dequeued (excluding it). */
    public int deqQdepth() {
        return deqQdepth;
    }

    /** Cycles the packet waited: {@code serialisationStartCycle - enqTstamp}. */
    public long deqTimedelta() {
        return deqTimedelta;
    }

    /** First cycle of serialisation: the exact start instant rounded up to a whole cycle. */
    public long serialisationStartCycle() {
        return serialisationStartCycle;
    }

    /**
     * Cycle at which the last bit (and the inter-packet gap) has left: the exact end instant
     * rounded up to a whole cycle.
     */
    public long serialisationEndCycle() {
        return serialisationEndCycle;
    }

    @Override
    public String toString() {
        return "DequeueInfo[handle=" + packetHandle + ", port=" + port + ", qid=" + qid + ", bytes=" + bytes
                + ", cells=" + cells + ", enqQdepth=" + enqQdepth + ", enqTstamp=" + enqTstamp + ", deqQdepth=" + deqQdepth
                + ", deqTimedelta=" + deqTimedelta + ", start=" + serialisationStartCycle
                + ", end=" + serialisationEndCycle + "]";
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.traces.PacketRecord;

/**
 * Sees every packet leave a switch, by a front-panel port or by a drop: what captures and
 * the packet log record. Set only when one of them is on ({@link SwitchEngine#tap}); without
 * a tap the engine spends one null test per packet. Calls come in the engine's event order
 * and allocate nothing; {@code record} is the packet's record as it holds the packet at that
 * moment (the frame's bytes as they leave: whatever the deparser wrote), valid only during the
 * call. Times are cycles of the switch's clock ({@link SwitchEngine#clock()}).
 */
public interface PacketTap {
    /** No queue: the packet was dropped before the traffic manager queued it. */
    int NO_QUEUE = -1;
    /** No egress port: the packet was dropped before the traffic manager chose one. */
    int NO_PORT = -1;

    /**
     * A packet left front-panel port {@code port} (last bit on the wire) at {@code cycle}.
     *
     * @param packet       the switch's packet number (replicas of one packet share it)
     * @param ingressPort  the port it arrived on (a recirculation port for generated packets)
     * @param arrivalCycle when it arrived
     * @param queue        the queue it left from
     */
    void departed(long packet, int ingressPort, long arrivalCycle, int port, int queue, long cycle, PacketRecord record);

    /**
     * A packet was dropped at {@code cycle} (the cycle the switch decided it) for drop cause
     * {@code cause} (an id of the switch's {@link dev.rmtemu.emulator.metrics.Counters#causeName}).
     *
     * @param port  the egress port the traffic manager dropped it at, or {@link #NO_PORT}
     * @param queue the queue that refused it, or {@link #NO_QUEUE}
     */
    void dropped(long packet, int ingressPort, long arrivalCycle, int port, int queue, int cause, long cycle,
                 PacketRecord record);

    /**
     * A link's impairment dropped a packet at {@code cycle} (its last bit entered the link) that
     * this switch sent on egress port {@code port} or would have received on ingress port
     * {@code port}: the network tells the sending switch, or the switch at the far end when a
     * host sent it. {@code cause} names the link and impairment (one instance per
     * impairment, so a tap may key on it).
     */
    default void droppedOnLink(int port, long cycle, String cause, PacketRecord record) {
        // a tap that files only the switch's own departures and drops ignores the network's
    }
}

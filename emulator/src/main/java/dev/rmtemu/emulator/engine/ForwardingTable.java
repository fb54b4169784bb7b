package dev.rmtemu.emulator.engine;

import dev.rmtemu.traces.PacketRecord;

/**
 * A fixed-function forwarding stage (the switch's routing, as in a topology)
 * consulted when the program left ucast_egress_port unset. Must not allocate.
 */
@FunctionalInterface
public interface ForwardingTable {
    /** The front-panel egress port for this packet, or PortNumbers.UNSET to drop it. */
    int egressPort(int ingressPort, PacketRecord record);
}

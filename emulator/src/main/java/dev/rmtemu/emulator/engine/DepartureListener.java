package dev.rmtemu.emulator.engine;

/** Told of every packet leaving a front-panel port (last bit on the wire). */
@FunctionalInterface
public interface DepartureListener {
    /**
     * @param cycle the departure cycle
     * @param port  the egress port
     * @param slot  the packet's pool slot, valid only during the call
     * @param pool  the pool, to read the packet's record and PHV
     */
    void departed(long cycle, int port, int slot, PacketPool pool);
}

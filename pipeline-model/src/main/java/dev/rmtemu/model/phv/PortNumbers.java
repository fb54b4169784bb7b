package dev.rmtemu.model.phv;

/**
 * Port numbering the engine and programs share. Front-panel ports are
 * 0..N-1 and belong to pipe {@code port / portsPerPipe}; each pipe has one
 * recirculation port, numbered {@link #RECIRCULATION_BASE} + pipe (in the 9-bit
 * port space, like Tofino's 68/196/324/452, but contiguous). {@link #UNSET} in
 * ucast_egress_port means "no destination": the packet is dropped.
 */
public final class PortNumbers {
    /** First recirculation port number. */
    public static final int RECIRCULATION_BASE = 448;
    /** The 9-bit all-ones value: no egress port chosen. */
    public static final int UNSET = 511;

    private PortNumbers() {
    }

    public static int recirculationPort(int pipe) {
        return RECIRCULATION_BASE + pipe;
    }

    public static boolean isRecirculation(int port) {
        return port >= RECIRCULATION_BASE && port < UNSET;
    }
}

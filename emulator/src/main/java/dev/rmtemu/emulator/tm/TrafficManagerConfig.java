package dev.rmtemu.emulator.tm;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Everything the traffic manager needs, as named data.
 *
 * @param clockHz                  target clock in Hz (integer, so cycle arithmetic is exact)
 * @param cellBytes                buffer cell size in bytes; a packet of B bytes takes
 *                                 {@code ceil(B / cellBytes)} cells
 * @param interPacketOverheadBytes bytes on the wire per packet beyond the frame
 *                                 (preamble + SFD + inter-frame gap)
 * @param sharedBufferCells        size of the shared packet buffer in cells
 * @param ports                    the egress ports, indexed from 0
 */
public record TrafficManagerConfig(long clockHz, int cellBytes, int interPacketOverheadBytes,
                                   int sharedBufferCells, List<PortConfig> ports) {

    /** Tofino 1 clock: 1.22 GHz (the profile table in DESIGN.md). */
    public static final long TOFINO1_CLOCK_HZ = 1_220_000_000L;

    /** Tofino buffer cell: 80 bytes. */
    public static final int TOFINO_CELL_BYTES = 80;

    /** Ethernet per-packet overhead: 7 B preamble + 1 B SFD + 12 B minimum inter-frame gap. */
    public static final int ETHERNET_OVERHEAD_BYTES = 20;

    /** Tofino 1 shared packet buffer: 22 MB (Intel/Barefoot Tofino product brief). */
    public static final long TOFINO1_BUFFER_BYTES = 22_000_000L;

    /** Tofino 1 shared buffer in 80-byte cells: 22,000,000 / 80 = 275,000. */
    public static final int TOFINO1_BUFFER_CELLS = (int) (TOFINO1_BUFFER_BYTES / TOFINO_CELL_BYTES);

    /**
     * Highest clock accepted: 1 THz, far above any switch ASIC; it keeps
     * {@code bits × clockHz} of the largest frame inside a long.
     */
    public static final long MAX_CLOCK_HZ = 1_000_000_000_000L;

    public TrafficManagerConfig {
        if (clockHz <= 0 || clockHz > MAX_CLOCK_HZ) {
            throw new UserError("traffic manager: clock must be between 1 Hz and " + MAX_CLOCK_HZ + " Hz, got " + clockHz);
        }
        if (cellBytes < 1) {
            throw new UserError("traffic manager: cell size must be at least 1 byte, got " + cellBytes);
        }
        if (interPacketOverheadBytes < 0) {
            throw new UserError("traffic manager: inter-packet overhead cannot be negative, got " + interPacketOverheadBytes);
        }
        if (sharedBufferCells < 1) {
            throw new UserError("traffic manager: shared buffer must be at least 1 cell, got " + sharedBufferCells);
        }
        if (ports == null || ports.isEmpty()) {
            throw new UserError("traffic manager: needs at least one port");
        }
        for (int p = 0; p < ports.size(); p++) {
            if (ports.get(p) == null) {
                throw new UserError("traffic manager: port " + p + " has no configuration");
            }
        }
        ports = Collections.unmodifiableList(new ArrayList<>(ports));
    }

    /**
     * A Tofino 1-like traffic manager: 1.22 GHz, 80-byte cells, 20 bytes of Ethernet
     * overhead, the 22 MB shared buffer, and {@code nPorts} identical strict-priority ports.
     */
    public static TrafficManagerConfig tofino1(int nPorts, double rateGbps) {
        return uniform(TOFINO1_CLOCK_HZ, nPorts, PortConfig.strictPriority(rateGbps));
    }

    /** Tofino 1 cells, overhead and buffer with {@code nPorts} copies of {@code port} at {@code clockHz}. */
    public static TrafficManagerConfig uniform(long clockHz, int nPorts, PortConfig port) {
        if (nPorts < 1) {
            throw new UserError("traffic manager: needs at least one port, got " + nPorts);
        }
        return new TrafficManagerConfig(clockHz, TOFINO_CELL_BYTES, ETHERNET_OVERHEAD_BYTES, TOFINO1_BUFFER_CELLS,
                Collections.nCopies(nPorts, port));
    }

    /**
     * The clock given as a double in Hz (e.g. {@code 1.22e9}); it must be a whole number of
     * Hz so that serialisation times stay exact rationals.
     */
    public static long clockHz(double hz) {
        if (!(hz >= 1) || hz > MAX_CLOCK_HZ || hz != Math.rint(hz)) {
            throw new UserError("traffic manager: clock must be a whole positive number of Hz, got " + hz);
        }
        return (long) hz;
    }

    /** This configuration with another shared buffer size. */
    public TrafficManagerConfig withSharedBufferCells(int cells) {
        return new TrafficManagerConfig(clockHz, cellBytes, interPacketOverheadBytes, cells, ports);
    }

    /** Number of egress ports. */
    public int portCount() {
        return ports.size();
    }
}

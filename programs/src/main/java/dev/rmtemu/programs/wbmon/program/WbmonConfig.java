package dev.rmtemu.programs.wbmon.program;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.StageProgram;

/**
 * WBMon's window parameters: per vconn, N registers of W bits (one bit per
 * sequence number), a tolerance window of tws slots and so a cleaning window
 * of cws = N − tws slots.
 *
 * @param vconns          vconns a downstream m-switch tracks (register cells per array)
 * @param registers       N: bitmap registers per vconn (slots share them round-robin), a power of two
 * @param bitsPerRegister W: sequence numbers per slot, 8, 16 or 32 (whole bytes for the popcount tables,
 *                        a power of two so that slots wrap with the 32-bit sequence number)
 * @param tolerance       tws: newest slots that may still receive late packets
 */
public record WbmonConfig(int vconns, int registers, int bitsPerRegister, int tolerance) {
    /** The thesis' Tofino build: 256 vconns, N = 4 registers of W = 32 bits, tws = 2. */
    public static final int DEFAULT_VCONNS = 256;
    public static final int DEFAULT_REGISTERS = 4;
    public static final int DEFAULT_BITS = 32;
    public static final int DEFAULT_TOLERANCE = 2;
    /** A tofino1 stateful ALU word: a slot's bitmap must fit one register. */
    public static final int MAX_BITS = 32;
    /** Zero bits are counted a byte at a time by popcount tables, so W is a whole number of bytes. */
    public static final int BITS_PER_COUNT_TABLE = 8;
    /** Width of the sequence-number header field. */
    public static final int SEQ_BITS = 32;
    /** Width of the vconn-id header field. */
    public static final int VCONN_ID_BITS = 16;

    public WbmonConfig {
        if (vconns < 1 || vconns > (1 << VCONN_ID_BITS)) {
            throw new UserError("wbmon: vconns must be 1.." + (1 << VCONN_ID_BITS) + ": " + vconns);
        }
        if (bitsPerRegister < BITS_PER_COUNT_TABLE || bitsPerRegister > MAX_BITS || Integer.bitCount(bitsPerRegister) != 1) {
            throw new UserError("wbmon: W (bits per register) must be 8, 16 or 32 (a power of two, so that the 2^32"
                    + " sequence numbers are whole slots across the wrap): " + bitsPerRegister);
        }
        if (registers < 2 || Integer.bitCount(registers) != 1) {
            throw new UserError("wbmon: N (registers) must be a power of two, at least 2 (a slot's register is a mask of"
                    + " its number: tofino1 has no divider): " + registers);
        }
        if (tolerance < 1 || tolerance >= registers) {
            throw new UserError("wbmon: tws must be 1..N-1 (cws = N - tws >= 1): tws " + tolerance + ", N " + registers);
        }
    }

    public static WbmonConfig defaults() {
        return new WbmonConfig(DEFAULT_VCONNS, DEFAULT_REGISTERS, DEFAULT_BITS, DEFAULT_TOLERANCE);
    }

    /** cws: slots that have left the tolerance window and wait to be cleaned before reuse. */
    public int cleaning() {
        return registers - tolerance;
    }

    public WbmonConfig withVconns(int v) {
        return new WbmonConfig(v, registers, bitsPerRegister, tolerance);
    }

    public WbmonConfig withWindow(int n, int w, int tws) {
        return new WbmonConfig(vconns, n, w, tws);
    }

    /** The configuration {@code p} (built by {@link WbmonProgram}) was built with. */
    public static WbmonConfig of(StageProgram p) {
        if (p.config() instanceof WbmonConfig x) {
            return x;
        }
        throw new IllegalStateException("program " + p.name() + " was not built by the wbmon factory");
    }
}

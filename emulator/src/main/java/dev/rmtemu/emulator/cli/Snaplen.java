package dev.rmtemu.emulator.cli;

import dev.rmtemu.model.UserError;
import dev.rmtemu.traces.PacketRecord;

/** The {@code --snaplen} rule every command shares: 1..65,535 bytes of each frame, as pcap's largest. */
final class Snaplen {
    private Snaplen() {
    }

    /** {@code n}, or the one-line refusal (exit 2) when it is outside 1..65,535. */
    static int check(int n) {
        if (n < 1 || n > PacketRecord.MAX_FRAME_BYTES) {
            throw new UserError("--snaplen " + n + ": must be in [1, " + PacketRecord.MAX_FRAME_BYTES + "]");
        }
        return n;
    }
}

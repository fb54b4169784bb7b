package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;

import java.util.List;

/**
 * Mirror sessions, in bmv2 runtime_CLI's words: {@code mirroring_add SESSION PORT} sends the
 * copies of session SESSION to front-panel port PORT; an optional third word is the session's
 * maximum length in bytes (Tofino's max_pkt_len: a longer copy, mirror header included, is
 * truncated to it; 0 or none: whole). Sessions are configured before the run.
 */
final class MirrorCommands {
    private MirrorCommands() {
    }

    /** {@code mirroring_add SESSION PORT [MAX_LENGTH]}. */
    static ControlCommand.Effect add(SwitchControl sw, List<String> args) {
        if (args.size() < 2 || args.size() > 3) {
            throw new UserError((args.size() < 2 ? "missing arguments" : "too many arguments")
                    + ": mirroring_add SESSION PORT [MAX_LENGTH]");
        }
        int session = ControlScript.intNumber(args.get(0), "a mirror session");
        int port = PortArgs.port(sw, args.get(1));
        int max = args.size() == 3 ? ControlScript.intNumber(args.get(2), "a maximum length") : 0;
        sw.engine().mirrorSession(session, port, max);
        return null;
    }
}

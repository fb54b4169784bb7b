package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.phv.ProgramPorts;

/**
 * A control-script port argument, in the program's numbering: a P4 program's scripts name
 * ports as TNA numbers them (pipe << 7 | port, each pipe's recirculation port pipe << 7 | 68;
 * {@link ProgramPorts}), a Java IR program's as rmtemu does. The engine gets rmtemu's number.
 */
final class PortArgs {
    private PortArgs() {
    }

    /** rmtemu's port for the script's word {@code w}; one a P4 program's numbering has no port for is refused. */
    static int port(SwitchControl sw, String w) {
        int given = ControlScript.intNumber(w, "a port");
        ProgramPorts ports = sw.engine().ports();
        if (!ports.tna()) {
            return given;
        }
        int port = given < 1 << 9 ? ports.toEngine(given) : -1;
        if (port < 0) {
            throw new UserError("port " + given + " names no port of this target (a P4 program numbers ports as TNA does:"
                    + " pipe << " + ProgramPorts.PIPE_SHIFT + " | port, the recirculation port pipe << " + ProgramPorts.PIPE_SHIFT
                    + " | " + ProgramPorts.RECIRCULATION_LOCAL + ")");
        }
        return port;
    }
}

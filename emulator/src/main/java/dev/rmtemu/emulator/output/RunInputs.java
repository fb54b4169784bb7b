package dev.rmtemu.emulator.output;

import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.json.Json;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.TreeMap;

/**
 * The {@code inputs} section of report.json as the user gave them, shared by the
 * single-switch and the network report and by the report written at a run's start.
 */
public final class RunInputs {
    private RunInputs() {
    }

    public static RunReport.Inputs of(ReplayOptions o) {
        boolean network = o.topology() != null;
        return new RunReport.Inputs(o.program(), new TreeMap<>(o.params()), o.topology(),
                network ? null : o.target(), o.trace(), o.timing(), o.seed(), network ? null : o.ports(),
                network ? null : o.portGbps(), network ? o.maxHops() : null, o.enforce(), o.maxPackets(),
                o.saveRegisters() ? Boolean.TRUE : null, o.control() == null ? null : o.control().toString(),
                o.loops() == 1 ? null : o.loops());
    }

    /** The inputs as a tree, for the report written at the run's start. */
    public static ObjectNode tree(ReplayOptions o) {
        return Json.tree(of(o));
    }
}

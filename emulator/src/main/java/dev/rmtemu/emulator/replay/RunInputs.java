package dev.rmtemu.emulator.replay;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The {@code inputs} section of report.json as the user gave them, shared by the
 * single-switch and the network report and by the report written at a run's start.
 */
final class RunInputs {
    private RunInputs() {
    }

    static ObjectNode of(ReplayOptions o) {
        ObjectNode in = JsonNodeFactory.instance.objectNode();
        if (o.program() == null) {
            in.putNull("program");
        } else {
            in.put("program", o.program());
        }
        ObjectNode params = in.putObject("params");
        o.params().forEach(params::put);
        if (o.topology() != null) {
            in.put("topology", o.topology());
        } else {
            in.put("target", o.target());
        }
        in.put("trace", o.trace());
        in.put("timing", o.timing());
        in.put("seed", o.seed());
        if (o.topology() == null) {
            in.put("ports", o.ports());
            in.put("port_gbps", o.portGbps());
        } else {
            in.put("max_hops", o.maxHops());
        }
        in.put("enforce", o.enforce());
        in.put("max_packets", o.maxPackets());
        if (o.saveRegisters()) {
            in.put("save_registers", true);
        }
        if (o.control() != null) {
            in.put("control", o.control().toString());
        }
        return in;
    }
}

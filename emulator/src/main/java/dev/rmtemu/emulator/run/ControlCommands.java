package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands a control script knows, one row each: bmv2 runtime_CLI's names and argument
 * order, with the program's own names. A new command is a new row here (its usage, whether
 * it configures the switch before the run only, and the class that checks and applies it).
 */
final class ControlCommands {
    /** A command's row: its usage after the name, whether {@code at CYCLE} is refused, and its code. */
    record Row(String usage, boolean beforeRunOnly, ControlCommand.AtLine command) {
        Row(String usage, boolean beforeRunOnly, ControlCommand command) {
            this(usage, beforeRunOnly, command.atAnyLine());
        }
    }

    private static final Map<String, Row> ROWS = rows();

    private ControlCommands() {
    }

    private static Map<String, Row> rows() {
        Map<String, Row> r = new LinkedHashMap<>();
        r.put("table_add", new Row("TABLE ACTION KEY... => PARAM... [PRIORITY]", false, TableCommands::add));
        r.put("table_set_default", new Row("TABLE ACTION [PARAM...]", false, TableCommands::setDefault));
        r.put("table_modify", new Row("TABLE ACTION HANDLE [PARAM...]", false, TableCommands::modify));
        r.put("table_delete", new Row("TABLE HANDLE", false, TableCommands::delete));
        r.put("table_clear", new Row("TABLE", false, TableCommands::clear));
        r.put("register_write", new Row("REGISTER INDEX VALUE [HI_VALUE] [pipe=N]", false, RegisterCommands::write));
        r.put("register_reset", new Row("REGISTER", false, RegisterCommands::reset));
        r.put("mc_mgrp_create", new Row("GROUP", true, MulticastCommands::createGroup));
        r.put("mc_node_create", new Row("RID PORT...", true, MulticastCommands::createNode));
        r.put("mc_node_associate", new Row("GROUP NODE_HANDLE", true, MulticastCommands::associate));
        r.put("mirroring_add", new Row("SESSION PORT [MAX_LENGTH]", true, MirrorCommands::add));
        r.put("counter_read", new Row("COUNTER INDEX", false, (ControlCommand.AtLine) ExternOps::counterRead));
        r.put("counter_reset", new Row("COUNTER", false, ExternOps::counterReset));
        r.put("meter_set_rates", new Row("METER INDEX RATE:BURST RATE:BURST", false, ExternOps::meterSetRates));
        r.put("pvs_add", new Row("VALUE_SET VALUE", false, ControlCommands::valueSet));
        r.put("pvs_clear", new Row("VALUE_SET", false, ControlCommands::valueSet));
        return Collections.unmodifiableMap(r);
    }

    /** The row of {@code name}; an unknown name is answered with the closest command. */
    static Row row(String name) {
        Row row = ROWS.get(name);
        if (row != null) {
            return row;
        }
        if (name.equals("table") || name.equals("register") || name.equals("multicast")) {
            throw new UserError("'" + name + "' is the old control syntax: scripts speak bmv2's runtime_CLI"
                    + " (table_add TABLE ACTION KEY... => PARAM..., register_write REGISTER INDEX VALUE, mc_mgrp_create GROUP)");
        }
        throw new UserError("unknown command '" + name + "'" + ProgramNames.closest(name, List.copyOf(ROWS.keySet()))
                + " (prefixes: at CYCLE, on SWITCH)");
    }

    /**
     * Parser value sets belong to the parse graph the switch runs; the engine does not run the
     * program's parse graph yet (packets arrive decoded), so there is no value set to fill.
     */
    private static ControlCommand.Effect valueSet(SwitchControl sw, List<String> args) {
        throw new UserError("parser value sets need the switch to run its parse graph, which the engine does not do yet");
    }
}

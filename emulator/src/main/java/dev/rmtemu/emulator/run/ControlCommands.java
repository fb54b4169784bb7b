package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.parse.ParserValueSet;

import java.util.ArrayList;
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
        r.put("act_prof_create_member", new Row("PROFILE ACTION [PARAM...]", false, IndirectCommands::createMember));
        r.put("act_prof_create_group", new Row("PROFILE", false, IndirectCommands::createGroup));
        r.put("act_prof_add_member_to_group", new Row("PROFILE MEMBER GROUP", false, IndirectCommands::addMember));
        r.put("act_prof_remove_member_from_group", new Row("PROFILE MEMBER GROUP", false, IndirectCommands::removeMember));
        r.put("act_prof_delete_member", new Row("PROFILE MEMBER", false, IndirectCommands::deleteMember));
        r.put("act_prof_delete_group", new Row("PROFILE GROUP", false, IndirectCommands::deleteGroup));
        r.put("table_indirect_add", new Row("TABLE KEY... => MEMBER [PRIORITY]", false, IndirectCommands::addToMember));
        r.put("table_indirect_add_with_group", new Row("TABLE KEY... => GROUP [PRIORITY]", false, IndirectCommands::addToGroup));
        r.put("table_set_timeout", new Row("TABLE HANDLE MS", false, (ControlCommand.AtLine) IdleTimeoutCommands::setTimeout));
        r.put("register_write", new Row("REGISTER INDEX VALUE [HI_VALUE] [pipe=N]", false, RegisterCommands::write));
        r.put("register_reset", new Row("REGISTER", false, RegisterCommands::reset));
        r.put("register_param_set", new Row("PARAM VALUE [pipe=N]", false, RegisterCommands::paramSet));
        r.put("mc_mgrp_create", new Row("GROUP", true, MulticastCommands::createGroup));
        r.put("mc_node_create", new Row("RID PORT...", true, MulticastCommands::createNode));
        r.put("mc_node_associate", new Row("GROUP NODE_HANDLE [L1_XID]", true, MulticastCommands::associate));
        r.put("mc_update_port_prune_table", new Row("L2_XID [PORT...]", true, MulticastCommands::prune));
        r.put("mirroring_add", new Row("SESSION PORT [MAX_LENGTH]", true, MirrorCommands::add));
        r.put("counter_read", new Row("COUNTER INDEX", false, (ControlCommand.AtLine) ExternOps::counterRead));
        r.put("counter_reset", new Row("COUNTER", false, ExternOps::counterReset));
        r.put("meter_set_rates", new Row("METER INDEX RATE:BURST RATE:BURST", false, ExternOps::meterSetRates));
        r.put("lpf_set_params", new Row("LPF INDEX " + String.join("=... ", FilterOps.LPF_FIELDS) + "=...", false,
                FilterOps::lpfSetParams));
        r.put("wred_set_params", new Row("WRED INDEX " + String.join("=... ", FilterOps.WRED_FIELDS) + "=...", false,
                FilterOps::wredSetParams));
        r.put("pktgen_pkt_buffer", new Row("OFFSET HEX", true, PktgenCommands::buffer));
        r.put("pktgen_app_timer", new Row("APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]", true, PktgenCommands::timer));
        r.put("pktgen_app_timer_one_shot", new Row("APP_ID timer_nanosec=NS pkt_len=N [FIELD=VALUE...]", true,
                PktgenCommands::timerOneShot));
        r.put("pktgen_app_port_down", new Row("APP_ID pkt_len=N [FIELD=VALUE...]", true, PktgenCommands::portDownApp));
        r.put("pktgen_clear_port_down", new Row("PORT", false, PktgenCommands::clearPortDown));
        r.put("port_down", new Row("PORT", false, (ControlCommand.AtLine) PktgenCommands::portDown));
        r.put("port_up", new Row("PORT", false, PktgenCommands::portUp));
        r.put("pvs_add", new Row("VALUE_SET VALUE[&&&MASK]", false, ControlCommands::valueSetAdd));
        r.put("pvs_clear", new Row("VALUE_SET", false, ControlCommands::valueSetClear));
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
     * {@code pvs_add VALUE_SET VALUE[&&&MASK]}: one entry of a parser value set (P4's
     * {@code value_set}; the parse graph's select matches a key in the set). Without a mask the
     * value is matched exactly, as bmv2's pvs_add does; a full set is refused when the line runs.
     */
    private static ControlCommand.Effect valueSetAdd(SwitchControl sw, List<String> args) {
        String usage = "pvs_add VALUE_SET VALUE[&&&MASK]";
        TableCommands.exactly(args, 2, usage);
        ParserValueSet vs = valueSet(sw, args.get(0));
        String w = args.get(1);
        int at = w.indexOf("&&&");
        String what = "value set " + vs.name();
        long value = ControlValues.value(at < 0 ? w : w.substring(0, at), vs.bits(), what);
        long mask = at < 0 ? (vs.bits() == Long.SIZE ? -1L : (1L << vs.bits()) - 1)
                : ControlValues.value(w.substring(at + 3), vs.bits(), what);
        SwitchEngine engine = sw.engine();
        return s -> engine.addParserValueSetEntry(vs.name(), value, mask);
    }

    /** {@code pvs_clear VALUE_SET}: the set emptied. */
    private static ControlCommand.Effect valueSetClear(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 1, "pvs_clear VALUE_SET");
        ParserValueSet vs = valueSet(sw, args.get(0));
        SwitchEngine engine = sw.engine();
        return s -> engine.clearParserValueSet(vs.name());
    }

    private static ParserValueSet valueSet(SwitchControl sw, String name) {
        List<ParserValueSet> sets = sw.program().parser().graph().valueSets();
        List<String> names = new ArrayList<>();
        for (ParserValueSet v : sets) {
            if (v.name().equals(name)) {
                return v;
            }
            names.add(v.name());
        }
        throw new UserError(sets.isEmpty() ? "the program's parser declares no value sets (value_set), so there is no '" + name + "'"
                : "no parser value set '" + name + "'" + ProgramNames.closest(name, names));
    }
}

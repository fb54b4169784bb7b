package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A control script: bmv2 runtime_CLI commands with the program's own names, applied before
 * the replay or at a set cycle. One command per line; '#' starts a comment:
 * <pre>
 * table_add l2_fwd forward 02:00:0a:00:00:02 =&gt; 3         # TABLE ACTION KEY... =&gt; PARAM...
 * table_add lr_acl deny 10.0.0.0&amp;&amp;&amp;255.0.0.0 6&amp;&amp;&amp;0xff =&gt; 10   # ternary: VALUE&amp;&amp;&amp;MASK, then PRIORITY
 * table_set_default l2_fwd forward port=1                # parameters by position or name=value
 * register_write flow_count 17 5                         # every pipe (pipe=N: one)
 * mc_mgrp_create 3                                       # group 3 -&gt; ports 1, 2 (before the run)
 * mc_node_create 0 1 2
 * mc_node_associate 3 0                                  # [L1_XID]: a packet of that level1_exclusion_id skips the node
 * mc_update_port_prune_table 5 1                         # level2_exclusion_id 5 prunes port 1 from nodes of the packet's rid
 * mirroring_add 5 3 128                                 # session 5 -&gt; port 3, copies cut to 128 B (before the run)
 * counter_read port_bytes 3                              # the cell's packets and bytes, kept in counter_reads.csv
 * counter_reset port_bytes                               # every cell, every pipe
 * meter_set_rates police 0 0.125:3000 0.25:6000          # CIR:CBS PIR:PBS, rates in units per microsecond
 * at 1220000 register_reset flow_count                   # at cycle 1,220,000 (after its packets)
 * at 1220000 on s2 table_delete l2_fwd 0                 # network replays: every line names its switch
 * </pre>
 * A line is {@code [at CYCLE] [on SWITCH] COMMAND ARGS}; the commands are the rows of
 * {@link ControlCommands}. In a single-switch replay there is no {@code on}; in a network
 * replay ({@code --topology}) it is required. Every line is checked before the run (names,
 * values against their widths, entry handles); errors name the file and line. An operation
 * whose cycle comes after the run's last event is not applied (the engine lists it, the CLI
 * warns) and does not stretch the run.
 */
public final class ControlScript {
    private ControlScript() {
    }

    /** Reads the file and applies or schedules every line on the switch. */
    public static int apply(Path file, SwitchEngine engine) {
        return apply(file, name -> {
            if (name != null) {
                throw new UserError("'on " + name + "' names a switch, which needs a network replay (--topology)");
            }
            return engine;
        });
    }

    /** Reads the file and applies or schedules every line on the switch it names ({@code on SWITCH}). */
    public static int apply(Path file, NetworkEngine net) {
        return apply(file, name -> {
            if (name == null) {
                throw new UserError("in a network replay every line names its switch: 'on SWITCH ...'");
            }
            try {
                return net.switchEngine(name);
            } catch (IllegalArgumentException e) {
                List<String> names = new ArrayList<>();
                for (int s = 0; s < net.switchCount(); s++) {
                    names.add(net.switchNode(s).name());
                }
                throw new UserError("no switch named '" + name + "' (switches: " + String.join(", ", names) + ")");
            }
        });
    }

    private static int apply(Path file, Function<String, SwitchEngine> switchNamed) {
        int[] ops = {0};
        Map<SwitchEngine, SwitchControl> switches = new IdentityHashMap<>();
        ControlText.forEachLine(file, (number, text) -> {
            if (applyLine(file, number, text, name -> switches.computeIfAbsent(switchNamed.apply(name), SwitchControl::new))) {
                ops[0]++;
            }
        });
        return ops[0];
    }

    /** Applies or schedules one line; false for a blank or comment line. */
    private static boolean applyLine(Path file, int number, String text, Function<String, SwitchControl> switchNamed) {
        String line = text;
        int hash = line.indexOf('#');
        if (hash >= 0) {
            line = line.substring(0, hash);
        }
        List<String> words = List.of(line.trim().split("\\s+"));
        if (words.get(0).isEmpty()) {
            return false;
        }
        String where = file + ":" + number;
        try {
            long at = -1;
            if (words.get(0).equals("at")) {
                if (words.size() < 3) {
                    throw new UserError("'at CYCLE' needs a command after it");
                }
                at = number(words.get(1));
                if (at < 0) {
                    throw new UserError("cycle " + at + " is negative");
                }
                words = words.subList(2, words.size());
            }
            String switchName = null;
            if (words.get(0).equals("on")) {
                if (words.size() < 3) {
                    throw new UserError("'on SWITCH' needs a command after it");
                }
                switchName = words.get(1);
                words = words.subList(2, words.size());
            }
            ControlCommands.Row row = ControlCommands.row(words.get(0));
            SwitchControl sw = switchNamed.apply(switchName);
            if (row.beforeRunOnly() && at >= 0) {
                throw new UserError(words.get(0) + " configures the switch before the run: no 'at CYCLE'");
            }
            ControlCommand.Effect effect = row.command().prepare(sw, List.copyOf(words.subList(1, words.size())), where, Math.max(at, 0));
            if (effect != null) {
                if (at < 0) {
                    effect.apply(sw.engine().state());
                } else {
                    sw.engine().scheduleControlWithinRun(at, new ScriptOp(where, effect));
                }
            }
            return true;
        } catch (UserError e) {
            throw new UserError(where + ": " + ControlText.cutTokens(e.getMessage()), e);
        }
    }

    /**
     * A scheduled operation; it names its line in errors raised when it runs and
     * in the warning when it comes after the run's last event and is not applied.
     */
    private record ScriptOp(String where, ControlCommand.Effect effect) implements SwitchEngine.ControlOp {
        @Override
        public void apply(PipelineState state, long cycle) {
            try {
                effect.apply(state);
            } catch (UserError e) {
                throw new UserError(where + ": " + ControlText.cutTokens(e.getMessage()), e);
            }
        }

        @Override
        public String toString() {
            return where;
        }
    }

    /** A non-negative int (an index, port, action, priority, pipe). */
    static int intNumber(String w, String what) {
        long v = number(w);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new UserError("'" + w + "' is out of range for " + what + " (0.." + Integer.MAX_VALUE + ")");
        }
        return (int) v;
    }

    /** A value for one word of {@code a}'s cells: unsigned and at most the word's width. */
    static long cellValue(String w, RegisterArray a) {
        BigInteger v = ControlValues.unsigned(w);
        if (v == null || v.bitLength() > a.wordBits()) {
            throw new UserError("value " + w + " does not fit " + a.name() + "'s " + a.wordBits() + "-bit "
                    + (a.pair() ? "words" : "cells"));
        }
        return v.longValue();
    }

    /** Octets of a MAC address. */
    private static final int MAC_OCTETS = 6;

    /** Decimal, 0x hex, a dotted IPv4 address or a MAC address (six hex octets separated by ':'). */
    static long number(String w) {
        try {
            if (w.chars().filter(ch -> ch == ':').count() == MAC_OCTETS - 1) {
                long v = 0;
                for (String part : w.split(":", -1)) {
                    if (part.isEmpty() || part.length() > 2) {
                        throw new NumberFormatException();
                    }
                    v = (v << 8) | Integer.parseInt(part, 16);
                }
                return v;
            }
            if (w.chars().filter(ch -> ch == '.').count() == 3) {
                long v = 0;
                for (String part : w.split("\\.")) {
                    int b = Integer.parseInt(part);
                    if (b < 0 || b > 255) {
                        throw new NumberFormatException();
                    }
                    v = (v << 8) | b;
                }
                return v;
            }
            return Long.decode(w);
        } catch (NumberFormatException e) {
            throw new UserError("'" + w + "' is not a number, IPv4 or MAC address");
        }
    }
}

package dev.rmtemu.emulator.run;

import java.math.BigInteger;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.runtime.PipelineState;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Control-plane operations from a text file, applied before the replay or at a
 * set cycle. One operation per line; '#' starts a comment; numbers are decimal,
 * 0x hex, dotted IPv4 (a.b.c.d) or a MAC address (aa:bb:cc:dd:ee:ff):
 * <pre>
 * table l2_fwd exact 02:00:00:00:00:02 action=1 data=3   # key fields in the table's order
 * table routes lpm 10.1.0.0/16 action=1 data=2
 * table acl ternary 0x0a000000&amp;0xff000000 6&amp;0xff priority=10 action=1 data=0
 * register flow_count write 17 5                     # index, value (pipe 0; pipe=N for another)
 * register flow_count reset                          # every pipe
 * multicast 3 1 2 5                                  # group 3 -> ports 1, 2, 5
 * at 1220000 register flow_count reset               # at cycle 1,220,000 (after its packets)
 * on s1 register flow_count reset                    # network replays: every line names its switch
 * at 1220000 on s2 table l2_fwd exact 02:00:00:00:00:02 action=1 data=3
 * </pre>
 * A line is {@code [at CYCLE] [on SWITCH] OPERATION}. In a single-switch replay there is
 * no {@code on}; in a network replay ({@code --topology}) it is required. Every line is
 * checked before the run (names, numbers, register values against the cell width); errors
 * name the file and line. An operation whose cycle comes after the run's last event is not
 * applied (the engine lists it, the CLI warns) and does not stretch the run.
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
        ControlText.forEachLine(file, (number, text) -> {
            if (applyLine(file, number, text, switchNamed)) {
                ops[0]++;
            }
        });
        return ops[0];
    }

    /** Applies or schedules one line; false for a blank or comment line. */
    private static boolean applyLine(Path file, int number, String text, Function<String, SwitchEngine> switchNamed) {
        String line = text;
        int hash = line.indexOf('#');
        if (hash >= 0) {
            line = line.substring(0, hash);
        }
        List<String> words = new ArrayList<>(List.of(line.trim().split("\\s+")));
        if (words.get(0).isEmpty()) {
            return false;
        }
        String where = file + ":" + number;
        try {
            long at = -1;
            if (words.get(0).equals("at")) {
                if (words.size() < 3) {
                    throw new UserError("'at CYCLE' needs an operation after it");
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
                    throw new UserError("'on SWITCH' needs an operation after it");
                }
                switchName = words.get(1);
                words = words.subList(2, words.size());
            }
            SwitchEngine engine = switchNamed.apply(switchName);
            List<String> op = List.copyOf(words);
            if (op.get(0).equals("multicast")) {
                if (at >= 0) {
                    throw new UserError("multicast groups are configured before the run");
                }
                if (op.size() < 2) {
                    throw new UserError("multicast needs a GROUP and its PORTs");
                }
                int[] ports = new int[op.size() - 2];
                for (int k = 2; k < op.size(); k++) {
                    ports[k - 2] = intNumber(op.get(k), "a port");
                }
                engine.multicastGroup(intNumber(op.get(1), "a multicast group"), ports);
            } else if (at < 0) {
                validate(op, engine.state());
                run(op, engine.state());
            } else {
                validate(op, engine.state());
                engine.scheduleControlWithinRun(at, new ScriptOp(where, op));
            }
            return true;
        } catch (UserError | IndexOutOfBoundsException e) {
            String msg = e instanceof UserError ? e.getMessage() : "missing arguments";
            throw new UserError(where + ": " + ControlText.cutTokens(msg), e);
        }
    }

    /**
     * A scheduled operation; it names its line in errors raised when it runs and
     * in the warning when it comes after the run's last event and is not applied.
     */
    private record ScriptOp(String where, List<String> words) implements SwitchEngine.ControlOp {
        @Override
        public void apply(PipelineState state, long cycle) {
            try {
                run(words, state);
            } catch (UserError e) {
                throw new UserError(where + ": " + ControlText.cutTokens(e.getMessage()), e);
            }
        }

        @Override
        public String toString() {
            return where;
        }
    }

    /** Checks an operation's names before scheduling it (so mistakes surface before the run). */
    private static void validate(List<String> op, PipelineState s) {
        switch (op.get(0)) {
            case "table" -> {
                s.program().table(op.get(1));
                table(op, s, false);
            }
            case "register" -> {
                RegisterArray a = s.program().register(op.get(1));
                List<String> args = new ArrayList<>();
                int pipe = registerArgs(op, args);
                String verb = args.isEmpty() ? "" : args.get(0);
                if (!verb.equals("reset") && !verb.equals("write")) {
                    throw new UserError("register operation '" + verb + "' (write, reset)");
                }
                if (verb.equals("write")) {
                    if (args.size() < 3 || args.size() > 4) {
                        throw new UserError("register write takes INDEX VALUE [HI_VALUE]");
                    }
                    if (pipe >= s.pipes()) {
                        throw new UserError("pipe " + pipe + " outside 0.." + (s.pipes() - 1));
                    }
                    int index = intNumber(args.get(1), "a register index");
                    if (index >= a.size()) {
                        throw new UserError("register " + a.name() + ": index " + index + " outside 0.." + (a.size() - 1));
                    }
                    for (String v : args.subList(2, args.size())) {
                        cellValue(v, a);
                    }
                    if (args.size() == 4 && !a.pair()) {
                        throw new UserError("register " + a.name() + " has one word per cell: no HI_VALUE");
                    }
                }
            }
            default -> throw new UserError("unknown operation '" + op.get(0) + "' (table, register, multicast; prefixes: at CYCLE, on SWITCH)");
        }
    }

    private static void run(List<String> op, PipelineState s) {
        switch (op.get(0)) {
            case "table" -> table(op, s, true);
            case "register" -> register(op, s);
            default -> throw new UserError("unknown operation '" + op.get(0) + "' (table, register, multicast; prefixes: at CYCLE, on SWITCH)");
        }
    }

    /** Parses a table operation and, when {@code install}, installs it ({@code false}: the check before the run). */
    private static void table(List<String> op, PipelineState s, boolean install) {
        String name = op.get(1);
        String kind = op.get(2);
        s.checkInstallable(name);
        int action = 0;
        long data = 0;
        int priority = 0;
        List<String> key = new ArrayList<>();
        for (String w : op.subList(3, op.size())) {
            if (w.startsWith("action=")) {
                action = intNumber(w.substring(7), "an action");
            } else if (w.startsWith("data=")) {
                data = number(w.substring(5));
            } else if (w.startsWith("priority=")) {
                priority = intNumber(w.substring(9), "a priority");
            } else {
                key.add(w);
            }
        }
        switch (kind) {
            case "exact" -> {
                long[] values = new long[key.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = number(key.get(i));
                }
                if (install) {
                    s.addExact(name, values, action, data);
                }
            }
            case "lpm" -> {
                if (key.size() != 1 || !key.get(0).contains("/")) {
                    throw new UserError("an lpm entry is one VALUE/LENGTH");
                }
                String[] p = key.get(0).split("/");
                if (p.length != 2) {
                    throw new UserError("an lpm entry is one VALUE/LENGTH");
                }
                long prefix = number(p[0]);
                int length = intNumber(p[1], "a prefix length");
                if (install) {
                    s.addLpm(name, prefix, length, action, data);
                }
            }
            case "ternary" -> {
                long[] values = new long[key.size()];
                long[] masks = new long[key.size()];
                for (int i = 0; i < values.length; i++) {
                    String[] vm = key.get(i).split("&", -1);
                    if (vm.length > 2) {
                        throw new UserError("a ternary key field is VALUE or VALUE&MASK");
                    }
                    values[i] = number(vm[0]);
                    masks[i] = vm.length > 1 ? number(vm[1]) : -1L;
                }
                if (install) {
                    s.addTernary(name, values, masks, priority, action, data);
                }
            }
            default -> throw new UserError("table match kind '" + kind + "' (exact, lpm, ternary)");
        }
    }

    /** Collects a register operation's arguments after the array name; returns its pipe= (0 when absent). */
    private static int registerArgs(List<String> op, List<String> args) {
        int pipe = 0;
        for (String w : op.subList(2, op.size())) {
            if (w.startsWith("pipe=")) {
                pipe = intNumber(w.substring(5), "a pipe");
            } else {
                args.add(w);
            }
        }
        return pipe;
    }

    private static void register(List<String> op, PipelineState s) {
        String name = op.get(1);
        List<String> args = new ArrayList<>();
        int pipe = registerArgs(op, args);
        RegisterArray a = s.program().register(name);
        switch (args.get(0)) {
            case "reset" -> s.resetRegister(name);
            case "write" -> s.writeRegister(pipe, name, intNumber(args.get(1), "a register index"),
                    cellValue(args.get(2), a), args.size() > 3 ? cellValue(args.get(3), a) : 0);
            default -> throw new UserError("register operation '" + args.get(0) + "' (write, reset)");
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
        BigInteger v = ControlText.unsigned(w);
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

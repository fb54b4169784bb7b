package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.register.RegisterArray;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code register_write} and {@code register_reset}. A register array exists once per pipe
 * (and gress): a write goes to every pipe, as Tofino's control plane writes a symmetric
 * array, or to one with {@code pipe=N}; a pair array's cell takes a second, high word. A
 * direct register's INDEX is an entry's handle (as table_add numbers it; the table's size
 * names the default entry's cell), as bmv2's counter_read takes a direct counter's.
 */
final class RegisterCommands {
    private RegisterCommands() {
    }

    /** {@code register_write REGISTER INDEX VALUE [HI_VALUE] [pipe=N]}. */
    static ControlCommand.Effect write(SwitchControl sw, List<String> args) {
        List<String> rest = new ArrayList<>();
        int pipe = -1;
        for (String w : args) {
            if (w.startsWith("pipe=")) {
                pipe = ControlScript.intNumber(w.substring(5), "a pipe");
            } else {
                rest.add(w);
            }
        }
        if (rest.size() < 3 || rest.size() > 4) {
            throw new UserError((rest.size() < 3 ? "missing arguments" : "too many arguments")
                    + ": register_write REGISTER INDEX VALUE [HI_VALUE] [pipe=N]");
        }
        RegisterArray a = ProgramNames.register(sw.program(), rest.get(0));
        int pipes = sw.engine().state().pipes();
        if (pipe >= pipes) {
            throw new UserError("pipe " + pipe + " outside 0.." + (pipes - 1));
        }
        int index = ControlScript.intNumber(rest.get(1), "a register index");
        if (index >= a.size() && a.direct()) {
            // a direct register's cell is an entry's handle (table_add's), the last one the default entry's
            throw new UserError("direct register " + a.name() + " of table " + a.table().name() + ": entry handle " + index
                    + " outside 0.." + (a.size() - 1) + " (" + (a.size() - 1) + ": the default entry's cell)");
        }
        if (index >= a.size()) {
            throw new UserError("register " + a.name() + ": index " + index + " outside 0.." + (a.size() - 1));
        }
        if (rest.size() == 4 && !a.pair()) {
            throw new UserError("register " + a.name() + " has one word per cell: no HI_VALUE");
        }
        long lo = ControlScript.cellValue(rest.get(2), a);
        long hi = rest.size() == 4 ? ControlScript.cellValue(rest.get(3), a) : 0;
        int only = pipe;
        return s -> {
            for (int p = only < 0 ? 0 : only; p < (only < 0 ? s.pipes() : only + 1); p++) {
                s.writeRegister(p, a.name(), index, lo, hi);
            }
        };
    }

    /**
     * {@code register_param_set PARAM VALUE [pipe=N]}: TNA's RegisterParam, the row of its register's
     * stateful-ALU register file; every pipe, or one with {@code pipe=N}. VALUE is the param's bit
     * pattern (an int<W> param: two's complement in W bits).
     */
    static ControlCommand.Effect paramSet(SwitchControl sw, List<String> args) {
        List<String> rest = new ArrayList<>();
        int pipe = -1;
        for (String w : args) {
            if (w.startsWith("pipe=")) {
                pipe = ControlScript.intNumber(w.substring(5), "a pipe");
            } else {
                rest.add(w);
            }
        }
        TableCommands.exactly(rest, 2, "register_param_set PARAM VALUE [pipe=N]");
        ProgramNames.BoundParam b = ProgramNames.registerParam(sw.program(), rest.get(0));
        int pipes = sw.engine().state().pipes();
        if (pipe >= pipes) {
            throw new UserError("pipe " + pipe + " outside 0.." + (pipes - 1));
        }
        BigInteger v = ControlValues.unsigned(rest.get(1));
        if (v == null || v.bitLength() > b.param().bits()) {
            throw new UserError("value " + rest.get(1) + " does not fit RegisterParam " + b.param().name() + "'s "
                    + b.param().bits() + " bits");
        }
        long value = v.longValue();
        String array = b.array().name();
        String param = b.param().name();
        int only = pipe;
        return s -> {
            for (int p = only < 0 ? 0 : only; p < (only < 0 ? s.pipes() : only + 1); p++) {
                s.setRegisterParam(p, array, param, value);
            }
        };
    }

    /** {@code register_reset REGISTER}: every cell of every pipe to zero. */
    static ControlCommand.Effect reset(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 1, "register_reset REGISTER");
        RegisterArray a = ProgramNames.register(sw.program(), args.get(0));
        return s -> s.resetRegister(a.name());
    }
}

package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterCells;

import java.math.BigDecimal;
import java.util.List;

/**
 * The control script's counter and meter operations, in bmv2 runtime_CLI's syntax:
 * <pre>
 * counter_read NAME INDEX                      # kept in the run's counter_reads.csv
 * counter_reset NAME
 * meter_set_rates NAME INDEX RATE:BURST RATE:BURST
 * </pre>
 * A meter's rates are units (bytes or packets, as the meter) per microsecond, as bmv2 takes
 * them, and may be decimal (0.125 bytes/us is 125,000 B/s); they must come to whole units per
 * second. The first pair is CIR:CBS; the second PIR:PBS for a trTCM, CIR:EBS for an srTCM.
 * A direct counter or meter's INDEX is its table entry's handle (the order entries were added), or
 * its table's size for the miss entry's cell (the default action the control plane set).
 */
final class ExternOps {
    private static final BigDecimal MICROS_PER_S = BigDecimal.valueOf(1_000_000);

    private ExternOps() {
    }

    /** {@code counter_read COUNTER INDEX}: the cell's packets and bytes, noted with the line and cycle. */
    static ControlCommand.Effect counterRead(SwitchControl sw, List<String> args, String where, long cycle) {
        arity(args, 2, "counter_read COUNTER INDEX");
        Counter c = sw.program().counter(args.get(0));
        int index = index(args.get(1), "counter " + c.name(), c.cells());
        return s -> s.noteCounterRead(where, cycle, c.name(), index);
    }

    /** {@code counter_reset COUNTER}: every cell of every pipe to zero. */
    static ControlCommand.Effect counterReset(SwitchControl sw, List<String> args) {
        arity(args, 1, "counter_reset COUNTER");
        Counter c = sw.program().counter(args.get(0));
        return s -> s.resetCounter(c.name());
    }

    /** {@code meter_set_rates METER INDEX RATE:BURST RATE:BURST}. */
    static ControlCommand.Effect meterSetRates(SwitchControl sw, List<String> args) {
        arity(args, 4, "meter_set_rates METER INDEX RATE:BURST RATE:BURST");
        Meter m = sw.program().meter(args.get(0));
        int index = index(args.get(1), "meter " + m.name(), m.cells());
        long[] c = rates(args.get(2));
        long[] p = rates(args.get(3));
        MeterCells.checkRates(m, index, c[0], c[1], p[0], p[1]);
        return s -> s.setMeterRates(m.name(), index, c[0], c[1], p[0], p[1]);
    }

    private static void arity(List<String> args, int words, String usage) {
        if (args.size() != words) {
            throw new UserError((args.size() < words ? "missing arguments" : "too many arguments") + ": " + usage);
        }
    }

    private static int index(String w, String what, int size) {
        int i = ControlScript.intNumber(w, "an index");
        if (i >= size) {
            throw new UserError(what + ": index " + i + " outside 0.." + (size - 1));
        }
        return i;
    }

    /** {@code RATE:BURST}: units per second (from units per microsecond) and units. */
    static long[] rates(String w) {
        String[] p = w.split(":", -1);
        if (p.length != 2) {
            throw new UserError("'" + w + "' is not RATE:BURST (units per microsecond : units)");
        }
        BigDecimal perMicro;
        try {
            perMicro = new BigDecimal(p[0]);
        } catch (NumberFormatException e) {
            throw new UserError("rate '" + p[0] + "' is not a number (units per microsecond)");
        }
        BigDecimal perSecond = perMicro.multiply(MICROS_PER_S);
        if (perSecond.signum() < 0 || perSecond.stripTrailingZeros().scale() > 0) {
            throw new UserError("rate " + p[0] + " units/us is not a whole number of units per second");
        }
        long rate;
        try {
            rate = perSecond.longValueExact();
        } catch (ArithmeticException e) {
            throw new UserError("rate " + p[0] + " units/us is too large");
        }
        return new long[] {rate, ControlScript.number(p[1])};
    }
}

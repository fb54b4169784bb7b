package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.extern.MeterCells;
import dev.rmtemu.model.runtime.PipelineState;

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
 * A direct counter or meter's INDEX is its table entry's handle (the order entries were added).
 */
final class ExternOps {
    private static final BigDecimal MICROS_PER_S = BigDecimal.valueOf(1_000_000);

    private ExternOps() {
    }

    static void validate(List<String> op, PipelineState s) {
        switch (op.get(0)) {
            case "counter_read" -> {
                arity(op, 3, "counter_read NAME INDEX");
                Counter c = s.program().counter(op.get(1));
                index(op.get(2), "counter " + c.name(), c.size());
            }
            case "counter_reset" -> {
                arity(op, 2, "counter_reset NAME");
                s.program().counter(op.get(1));
            }
            default -> {
                arity(op, 5, "meter_set_rates NAME INDEX RATE:BURST RATE:BURST");
                Meter m = s.program().meter(op.get(1));
                index(op.get(2), "meter " + m.name(), m.size());
                long[] c = rates(op.get(3));
                long[] p = rates(op.get(4));
                MeterCells.checkRates(m, ControlScript.intNumber(op.get(2), "an index"), c[0], c[1], p[0], p[1]);
            }
        }
    }

    static void run(List<String> op, PipelineState s, String where, long cycle) {
        switch (op.get(0)) {
            case "counter_read" -> s.noteCounterRead(where, cycle, op.get(1), ControlScript.intNumber(op.get(2), "an index"));
            case "counter_reset" -> s.resetCounter(op.get(1));
            default -> {
                long[] c = rates(op.get(3));
                long[] p = rates(op.get(4));
                s.setMeterRates(op.get(1), ControlScript.intNumber(op.get(2), "an index"), c[0], c[1], p[0], p[1]);
            }
        }
    }

    private static void arity(List<String> op, int words, String usage) {
        if (op.size() != words) {
            throw new UserError("usage: " + usage);
        }
    }

    private static void index(String w, String what, int size) {
        int i = ControlScript.intNumber(w, "an index");
        if (i >= size) {
            throw new UserError(what + ": index " + i + " outside 0.." + (size - 1));
        }
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

package dev.rmtemu.emulator.run;

import dev.rmtemu.model.runtime.PipelineState;

import java.util.List;

/**
 * One command of a control script ({@code table_add}, {@code register_write}, ...): checks
 * its arguments against the switch's program before the run, so every mistake is reported
 * with its line before the first packet, and returns what to do on the switch's state, now
 * or at the line's cycle.
 */
@FunctionalInterface
interface ControlCommand {
    /** What a checked line does to the switch's state. */
    @FunctionalInterface
    interface Effect {
        void apply(PipelineState state);
    }

    /** {@code args}: the words after the command's name. Throws a UserError for a mistake. */
    Effect prepare(SwitchControl sw, List<String> args);

    /**
     * A command whose effect needs its line ({@code where}: FILE:LINE) and cycle (0 before the
     * run), such as {@code counter_read}, whose answers name both.
     */
    @FunctionalInterface
    interface AtLine {
        Effect prepare(SwitchControl sw, List<String> args, String where, long cycle);
    }

    /** This command as an {@link AtLine} that ignores its line. */
    default AtLine atAnyLine() {
        return (sw, args, where, cycle) -> prepare(sw, args);
    }
}

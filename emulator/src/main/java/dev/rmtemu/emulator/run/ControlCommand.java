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
}

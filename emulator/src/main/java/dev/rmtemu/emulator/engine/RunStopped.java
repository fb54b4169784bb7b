package dev.rmtemu.emulator.engine;

/**
 * Thrown by the event loop when the run was asked to stop ({@link SwitchEngine#stopWhen}):
 * between two events, so the engine is consistent (every packet in, out, dropped or in
 * flight) and the run can write its report marked incomplete. Carries no stack trace: it is
 * control flow, caught by the replay loop.
 */
public final class RunStopped extends RuntimeException {
    public RunStopped() {
        super("run stopped on request", null, false, false);
    }
}

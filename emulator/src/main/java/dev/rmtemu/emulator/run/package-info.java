/**
 * Replays: a trace through one switch ({@link dev.rmtemu.emulator.run.Replay}) or a network
 * ({@link dev.rmtemu.emulator.run.NetworkReplay}), the reader-to-engine feed over the packet ring,
 * control scripts, and the run loop that stops at a chunk boundary. What a run writes into its
 * run directory is output/'s business, reached through {@link dev.rmtemu.emulator.run.RunRecorder}.
 */
package dev.rmtemu.emulator.run;

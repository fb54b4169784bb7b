/**
 * The run directory itself: checked --out paths, the lock, the manifest of the files a run wrote
 * (a later run removes exactly those), atomic writes, and the stop signals that end a run early.
 */
package dev.rmtemu.emulator.rundir;

/**
 * What leaves a switch, recorded while the run goes on ({@code replay --capture},
 * {@code --packet-log}): the frames leaving each egress port and the dropped packets as pcapng,
 * one CSV row per packet. The engine hands each packet over through
 * {@link dev.rmtemu.emulator.engine.PacketTap}; the files go through the run directory's
 * temporary names and are renamed into place when the run ends (or stops).
 */
package dev.rmtemu.emulator.capture;

/**
 * What a program plugs into the emulator: its control plane ({@link dev.rmtemu.emulator.spi.ProgramControlPlane}),
 * its report ({@link dev.rmtemu.emulator.spi.ProgramReport}), journal decoder, experiments and analyses,
 * found with {@link java.util.ServiceLoader}; and the records they are handed or return: the run's
 * options, its result (one switch or a network), the programs' results and their CSV tables.
 * Depends only on the machine (engine, network, journal ...); run/, output/ and cli/ build on it.
 */
package dev.rmtemu.emulator.spi;

package dev.rmtemu.emulator.spi;

/**
 * An {@code rmtemu analyse NAME} subcommand that runs an algorithm's offline half on a
 * user's own measurements. Implementations are picocli {@code @Command} classes found
 * with {@link java.util.ServiceLoader} (the programs module provides them), so the
 * emulator's CLI needs no dependency on the programs.
 */
public interface Analysis {
}

/** rmtemu emulator module; see ../shared/DESIGN.md for its place in the reactor. */
package dev.rmtemu.emulator;

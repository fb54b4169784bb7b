/** rmtemu programs module; see ../shared/DESIGN.md for its place in the reactor. */
package dev.rmtemu.programs;

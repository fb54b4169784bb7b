/** rmtemu bench module; see ../shared/DESIGN.md for its place in the reactor. */
package dev.rmtemu.bench;

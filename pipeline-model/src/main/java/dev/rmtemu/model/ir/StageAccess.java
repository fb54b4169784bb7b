package dev.rmtemu.model.ir;

import dev.rmtemu.model.extern.Counter;
import dev.rmtemu.model.extern.Meter;
import dev.rmtemu.model.hash.HashUnit;
import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.register.RegisterAction;
import dev.rmtemu.model.table.MatchTable;

/**
 * What a stage's code reaches while it runs for one packet: the PHV as the stage sees it,
 * this stage's hash units, register actions and tables. The runtime's checked stage context
 * is the implementation; this interface keeps the IR and its reference interpreter free of
 * the runtime (which depends on the IR, not the other way round).
 */
public interface StageAccess {
    /** Per-stage scratch of IR stage code: register outputs and action data, one slot each. */
    long[] scratch();

    /** A field as it entered this stage. */
    long get(Field f);

    /** Writes a field; later stages see it, this one does not. */
    void set(Field f, long value);

    /** The output of one of this stage's hash units over the PHV as it entered the stage. */
    long hash(HashUnit h);

    /** Runs a register action on cell {@code index} with ALU inputs {@code inLo}, {@code inHi}; returns its output. */
    long execute(RegisterAction a, long index, long inLo, long inHi);

    /** Counts the packet in cell {@code index} of a counter, {@code adjust} bytes fewer. */
    void count(Counter c, long index, long adjust);

    /** Runs a meter on cell {@code index} with pre-colour {@code color}; returns the packet's colour. */
    long meter(Meter m, long index, long color, long adjust);

    /** The stable handle of {@code entry} of {@code t} (what a direct counter or meter is indexed by). */
    int entryHandle(MatchTable t, int entry);

    /** Looks the table up with its key from the PHV: the entry index, or -1 on a miss. */
    int lookup(MatchTable t);

    /** The action id of {@code entry} of {@code t}. */
    int actionId(MatchTable t, int entry);

    /** The action data of {@code entry} of {@code t}. */
    long actionData(MatchTable t, int entry);
}

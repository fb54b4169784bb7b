package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.traces.PacketRecord;

import java.util.function.ToIntFunction;

/**
 * Drives one emulated switch with packet records held in memory or generated on the fly (an
 * experiment's traffic): each record arrives on a front-panel port at the cycle of its
 * timestamp, measured from an origin. Arrivals never go back in time: a record stamped before
 * the previous arrival arrives at that arrival's cycle (as a port serialises them). A replay
 * does the same from a trace file through the packet ring ({@code TraceFeed}).
 */
public final class SwitchFeed {
    /** Records in order: writes the next one into {@code into}, false at the end. */
    @FunctionalInterface
    public interface Source {
        boolean next(PacketRecord into);
    }

    /** Sees each record just before it arrives, with its arrival cycle (and may set its headers). */
    @FunctionalInterface
    public interface Arriving {
        void arriving(long cycle, PacketRecord r);
    }

    private final SwitchEngine engine;
    private long lastCycle;
    private long packets;

    public SwitchFeed(SwitchEngine engine) {
        this.engine = engine;
    }

    public SwitchEngine engine() {
        return engine;
    }

    /** Packets handed to the switch so far. */
    public long packets() {
        return packets;
    }

    /** The cycle a packet sent at {@code ns} arrives at (never before the previous arrival). */
    public long cycleAt(long ns) {
        return Math.max(lastCycle, engine.clock().nsToCycles(ns));
    }

    /** {@code r} arrives on {@code port} at {@code ns}; returns its arrival cycle. */
    public long arrive(long ns, int port, PacketRecord r) {
        return arriveAtCycle(cycleAt(ns), port, r);
    }

    /** {@code r} arrives on {@code port} at {@code cycle} (not before the previous arrival); returns it. */
    public long arriveAtCycle(long cycle, int port, PacketRecord r) {
        engine.arrive(cycle, port, r);
        lastCycle = cycle;
        packets++;
        return cycle;
    }

    /**
     * Every record of {@code source} arrives on {@code portOf(r)} at its timestamp; {@code arriving}
     * (null: none) sees each first. Returns the records handed over by this call.
     */
    public long feed(Source source, ToIntFunction<PacketRecord> portOf, Arriving arriving) {
        PacketRecord r = PacketRecord.allocate();
        long before = packets;
        while (source.next(r)) {
            long cycle = cycleAt(r.timestampNs());
            if (arriving != null) {
                arriving.arriving(cycle, r);
            }
            arriveAtCycle(cycle, portOf.applyAsInt(r), r);
        }
        return packets - before;
    }

    /** Lets every packet in the switch leave (or be dropped), then checks that none was lost track of. */
    public void drainAndCheck() {
        engine.drain();
        engine.checkConservation();
    }
}

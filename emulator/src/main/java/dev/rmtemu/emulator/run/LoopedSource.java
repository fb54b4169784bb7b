package dev.rmtemu.emulator.run;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;

import java.util.function.Supplier;

/**
 * A trace replayed {@code loops} times back to back, as tcpreplay's {@code --loop}: the same packets
 * in the same order, pass after pass, with each pass's timestamps shifted so that time keeps going
 * forward. Pass i (from 0) is shifted by i × period, the period being the first pass's span (last
 * minus first timestamp) plus its mean gap between packets, so the passes follow one another as
 * the packets within a pass do (with 1 packet: 1 ns). Each pass reopens the trace; a trace that
 * gives different packets when reopened (none of rmtemu's: captures, stores and seeded generators
 * repeat) would loop its new packets.
 */
final class LoopedSource implements PacketSource {
    private final Supplier<PacketSource> reopen;
    private final int loops;
    private final SkipCounters firstSkipped;
    private PacketSource current;
    private int pass;
    private long packetsInPass;
    private long firstNs;
    private long lastNs;
    private long period;

    private LoopedSource(PacketSource first, Supplier<PacketSource> reopen, int loops) {
        this.current = first;
        this.reopen = reopen;
        this.loops = loops;
        this.firstSkipped = first.skipped();
    }

    /** {@code first} itself when {@code loops} is 1, else it and {@code loops - 1} reopened passes. */
    static PacketSource of(PacketSource first, Supplier<PacketSource> reopen, int loops) {
        return loops == 1 ? first : new LoopedSource(first, reopen, loops);
    }

    @Override
    public boolean next(PacketRecord into) {
        while (true) {
            if (current.next(into)) {
                long ts = into.timestampNs();
                if (pass == 0) {
                    if (packetsInPass == 0) {
                        firstNs = ts;
                    }
                    lastNs = Math.max(lastNs, ts);
                } else {
                    into.timestampNs(ts + pass * period);
                }
                packetsInPass++;
                return true;
            }
            if (pass == 0) {
                if (packetsInPass == 0) {
                    return false; // an empty trace stays empty however often it is replayed
                }
                long span = lastNs - firstNs;
                period = span + Math.max(1, packetsInPass > 1 ? span / (packetsInPass - 1) : 1);
            }
            if (pass + 1 >= loops) {
                return false;
            }
            current.close();
            current = reopen.get();
            pass++;
        }
    }

    /** The frames the trace skips, counted once (every pass skips the same ones). */
    @Override
    public SkipCounters skipped() {
        return firstSkipped;
    }

    @Override
    public long knownCount() {
        long one = current.knownCount();
        return one == UNKNOWN_COUNT ? UNKNOWN_COUNT : one * loops;
    }

    @Override
    public String describe() {
        return current.describe() + ", " + loops + " times";
    }

    @Override
    public void close() {
        current.close();
    }
}

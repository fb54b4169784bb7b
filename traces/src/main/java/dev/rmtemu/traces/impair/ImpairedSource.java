package dev.rmtemu.traces.impair;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.SkipCounters;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A source seen through an impaired link: drops, extra copies (emitted right after the
 * packet), delay (added to the timestamp; order is kept — the engine's link model lets
 * delay reorder), and reordering by holding a packet until the asked number of later
 * packets has overtaken it. Held packets live in a fixed buffer of {@code holdCapacity}
 * records; a packet asked to be held when the buffer is full passes in order and is
 * counted in {@link #holdsRefused()}. At the end of input the held packets are released
 * in arrival order. Every effect is appended to the {@link GroundTruthLog} (if given),
 * keyed by input packet index; {@link #currentInputIndex()} tells which input packet
 * the last {@link #next} returned.
 */
public final class ImpairedSource implements PacketSource {
    private final PacketSource source;
    private final ImpairmentChain chain;
    private final GroundTruthLog log;
    private final ImpairmentDecision decision = new ImpairmentDecision();
    private final PacketRecord scratch;
    private final PacketRecord current;
    private final UnsafeBuffer held;
    private final int frameCapacity;
    private final int stride;
    private final PacketRecord heldView = new PacketRecord();
    private final long[] heldIndex;
    private final int[] heldLeft;
    private final int[] heldWanted;
    private final int[] heldCopies;
    private final int capacity;
    private int heldCount;
    private long nextInput;
    private long currentIndex = -1;
    private boolean currentIsCopy;
    private int pendingCopies;
    private long holdsRefused;
    private boolean inputDone;

    /**
     * @param frameCapacity frame bytes each packet keeps through the link: the snap length of the
     *                      source (a longer frame is truncated to it, keeping its wire length)
     */
    public ImpairedSource(PacketSource source, ImpairmentChain chain, GroundTruthLog log, int holdCapacity,
                          int frameCapacity) {
        this.source = source;
        this.chain = chain;
        this.log = log;
        this.capacity = Math.max(1, holdCapacity);
        this.frameCapacity = frameCapacity;
        this.stride = PacketRecord.stride(frameCapacity);
        this.scratch = PacketRecord.allocate(frameCapacity);
        this.current = PacketRecord.allocate(frameCapacity);
        this.held = new UnsafeBuffer(new byte[capacity * stride]);
        this.heldIndex = new long[capacity];
        this.heldLeft = new int[capacity];
        this.heldWanted = new int[capacity];
        this.heldCopies = new int[capacity];
    }

    /** With a hold buffer as large as the chain's largest reorder displacement (at least 1). */
    public ImpairedSource(PacketSource source, ImpairmentChain chain, GroundTruthLog log, int frameCapacity) {
        this(source, chain, log, Math.max(1, chain.maxHold()), frameCapacity);
    }

    @Override
    public boolean next(PacketRecord into) {
        while (true) {
            if (pendingCopies > 0) {
                pendingCopies--;
                into.copyFrom(current);
                emitted(currentIndex, true);
                return true;
            }
            int due = dueSlot();
            if (due >= 0) {
                release(due, into);
                return true;
            }
            if (inputDone || !source.next(scratch)) {
                inputDone = true;
                if (heldCount == 0) {
                    return false;
                }
                release(0, into);
                return true;
            }
            long idx = nextInput++;
            chain.decide(scratch, idx, decision);
            if (decision.dropped()) {
                log(idx, GroundTruthLog.DROP, decision.dropCause());
                continue;
            }
            if (decision.extraDelayNs() != 0) {
                scratch.timestampNs(scratch.timestampNs() + decision.extraDelayNs());
                log(idx, GroundTruthLog.DELAY, decision.extraDelayNs());
            }
            if (decision.copies() > 0) {
                log(idx, GroundTruthLog.DUPLICATE, decision.copies());
            }
            if (decision.holdPackets() > 0) {
                if (heldCount < capacity) {
                    int s = heldCount++;
                    heldView.wrap(held, s * stride, frameCapacity).copyFrom(scratch);
                    heldIndex[s] = idx;
                    heldLeft[s] = decision.holdPackets();
                    heldWanted[s] = decision.holdPackets();
                    heldCopies[s] = decision.copies();
                    continue;
                }
                holdsRefused++;
            }
            into.copyFrom(scratch);
            current.copyFrom(scratch);
            pendingCopies = decision.copies();
            emitted(idx, false);
            return true;
        }
    }

    /** First held slot whose overtakes are complete, or -1. */
    private int dueSlot() {
        for (int s = 0; s < heldCount; s++) {
            if (heldLeft[s] <= 0) {
                return s;
            }
        }
        return -1;
    }

    /** Emits held slot {@code s} (removing it, keeping arrival order of the rest). */
    private void release(int s, PacketRecord into) {
        heldView.wrap(held, s * stride, frameCapacity);
        into.copyFrom(heldView);
        current.copyFrom(heldView);
        long idx = heldIndex[s];
        log(idx, GroundTruthLog.REORDER, heldWanted[s] - heldLeft[s]);
        pendingCopies = heldCopies[s];
        int last = heldCount - 1;
        if (s < last) {
            held.putBytes(s * stride, held, (s + 1) * stride, (last - s) * stride);
            System.arraycopy(heldIndex, s + 1, heldIndex, s, last - s);
            System.arraycopy(heldLeft, s + 1, heldLeft, s, last - s);
            System.arraycopy(heldWanted, s + 1, heldWanted, s, last - s);
            System.arraycopy(heldCopies, s + 1, heldCopies, s, last - s);
        }
        heldCount = last;
        emitted(idx, false);
    }

    /** Counts an emitted packet as overtaking every held packet that arrived before it. */
    private void emitted(long idx, boolean copy) {
        currentIndex = idx;
        currentIsCopy = copy;
        for (int s = 0; s < heldCount; s++) {
            if (heldIndex[s] < idx) {
                heldLeft[s]--;
            }
        }
    }

    private void log(long idx, byte kind, long value) {
        if (log != null) {
            log.add(idx, kind, value);
        }
    }

    /** Input index of the packet the last {@link #next} returned. */
    public long currentInputIndex() {
        return currentIndex;
    }

    /** Whether the last packet returned was an extra copy. */
    public boolean currentIsCopy() {
        return currentIsCopy;
    }

    /** Input packets read so far. */
    public long inputPackets() {
        return nextInput;
    }

    /** Reorders not done because the hold buffer was full. */
    public long holdsRefused() {
        return holdsRefused;
    }

    @Override
    public SkipCounters skipped() {
        return source.skipped();
    }

    @Override
    public String describe() {
        return source.describe() + " through " + chain.describe();
    }

    @Override
    public void close() {
        source.close();
    }
}

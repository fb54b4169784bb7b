package dev.rmtemu.emulator.tm;

import dev.rmtemu.model.arith.Divisor;

import java.util.List;

/**
 * The traffic manager between ingress and egress: per egress port several queues in a
 * shared buffer of fixed-size cells, tail-drop admission, a scheduler per port (strict
 * priority or DRR) and a serialiser per port whose timing is exact.
 *
 * <p>It is passive: the engine calls {@link #enqueue}, {@link #nextDequeueCycle} and
 * {@link #dequeue} with the current cycle; there is no thread or event loop inside. Packets
 * are opaque int handles with a byte length. No method allocates per packet (the per-queue
 * FIFOs double in size only while a queue reaches a new maximum depth).
 *
 * <p><b>Admission.</b> A packet of B bytes takes {@code ceil(B / cellBytes)} cells. It is
 * dropped (tail drop) if adding its cells would exceed, checked in this order, the queue's
 * limit ({@link DropCause#QUEUE_LIMIT}), the port's limit ({@link DropCause#PORT_LIMIT}) or
 * the shared buffer ({@link DropCause#BUFFER_FULL}); the first failing check is the cause.
 * Admission sees the state as of the call, so the engine should call enqueue and dequeue in
 * non-decreasing cycle order (one (cycle, sequence) timeline); within one queue, enqueue
 * cycles must not decrease.
 *
 * <p><b>Serialisation.</b> A packet occupies its port for exactly
 * {@code (bytes + overhead) * 8 / rate} seconds = {@code (bytes + overhead) * 8 * clockHz / rate}
 * cycles, a rational number. Each port keeps the instant it becomes free as an integer
 * cycle plus a remainder over {@code rate / gcd(clockHz, rate)} (Bresenham style), so N
 * back-to-back packets take exactly the sum of their exact times: no rounding error
 * accumulates. Rounding happens only when a time is reported: reported start and end cycles
 * are the exact instants rounded UP to whole cycles (the first whole cycle at which the
 * event has happened), and {@link #nextDequeueCycle} is the exact free instant rounded up.
 *
 * <p><b>When a packet starts.</b> Scheduling decisions are made at whole cycles. When the
 * engine dequeues at cycle c and the port was still busy after cycle c-1 (its exact free
 * instant F lies in (c-1, c]), the packet starts at the exact instant max(F, enq_tstamp) –
 * back to back, without losing the fraction of a cycle. If the port had been idle since
 * before c-1, the packet starts at c exactly (the engine decided to send it then).
 */
public final class TrafficManager {
    /**
     * Largest frame accepted, in bytes. Real MTUs are far lower (jumbo frames: 9216 B); the
     * bound keeps {@code bits * clockHz} well inside a long.
     */
    public static final int MAX_PACKET_BYTES = 65_535;

    /** Returned by {@link #dequeue} when no queue of the port holds an eligible packet. */
    public static final int NOTHING_DEQUEUED = -1;

    private static final int CAUSES = DropCause.values().length;

    private final TrafficManagerConfig config;
    private final int cellBytes;
    private final int overheadBytes;
    private final int sharedBufferCells;
    private final int nPorts;

    // Per port.
    private final int[] queueBase;
    private final int[] queueCount;
    private final boolean[] drr;
    private final int[] portLimitCells;
    private final int[] portCells;
    private final int[] portPackets;
    /** Cycles per bit as the fraction cyclesPerBitNum / cyclesPerBitDen (reduced). */
    private final long[] cyclesPerBitNum;
    private final long[] cyclesPerBitDen;
    private final Divisor[] cyclesPerBitDivisor;
    private final Divisor cellDivisor;
    /** Exact instant the port is free: freeCycle + freeRemainder / cyclesPerBitDen. */
    private final long[] freeCycle;
    /** Per port, bit q set while queue q holds packets (a port has at most 64 queues). */
    private final long[] nonEmpty;
    private final long[] freeRemainder;
    /** Exact start of the port's last serialisation (as freeCycle/freeRemainder): {@link #reserialise} restarts from it. */
    private final long[] lastStartCycle;
    private final long[] lastStartRemainder;
    private final long[] lastDequeueCycle;
    private final int[] drrCurrent;
    private final boolean[] drrQuantumGiven;

    // Per queue (global index = queueBase[port] + qid).
    private final PacketFifo[] fifos;
    private final int[] queueCells;
    private final int[] queueLimitCells;
    private final long[] lastEnqueueCycle;
    private final long[] deficitBytes;
    private final int[] quantumBytes;
    private final long[] enqueued;
    private final long[] dequeued;
    private final long[] dequeuedBytes;
    /** dropped[queue * CAUSES + cause.ordinal()]. */
    private final long[] dropped;
    /** Packets taken off a queue by {@link #flushHead} (its port went down). */
    private final long[] flushed;

    private int bufferCells;
    private long queuedPackets;

    public TrafficManager(TrafficManagerConfig config) {
        this.config = config;
        this.cellBytes = config.cellBytes();
        this.overheadBytes = config.interPacketOverheadBytes();
        this.sharedBufferCells = config.sharedBufferCells();
        List<PortConfig> ports = config.ports();
        this.nPorts = ports.size();
        queueBase = new int[nPorts];
        queueCount = new int[nPorts];
        drr = new boolean[nPorts];
        portLimitCells = new int[nPorts];
        portCells = new int[nPorts];
        portPackets = new int[nPorts];
        cyclesPerBitNum = new long[nPorts];
        cyclesPerBitDen = new long[nPorts];
        cyclesPerBitDivisor = new Divisor[nPorts];
        cellDivisor = new Divisor(cellBytes);
        freeCycle = new long[nPorts];
        nonEmpty = new long[nPorts];
        freeRemainder = new long[nPorts];
        lastStartCycle = new long[nPorts];
        lastStartRemainder = new long[nPorts];
        lastDequeueCycle = new long[nPorts];
        drrCurrent = new int[nPorts];
        drrQuantumGiven = new boolean[nPorts];
        int totalQueues = 0;
        for (int p = 0; p < nPorts; p++) {
            PortConfig pc = ports.get(p);
            queueBase[p] = totalQueues;
            queueCount[p] = pc.queues();
            totalQueues += pc.queues();
            drr[p] = pc.scheduler() == SchedulerKind.DRR;
            portLimitCells[p] = pc.portLimitCells();
            long g = Divisor.gcd(config.clockHz(), pc.rateBitsPerSecond());
            cyclesPerBitNum[p] = config.clockHz() / g;
            cyclesPerBitDen[p] = pc.rateBitsPerSecond() / g;
            cyclesPerBitDivisor[p] = new Divisor(cyclesPerBitDen[p]);
            lastDequeueCycle[p] = Long.MIN_VALUE;
        }
        fifos = new PacketFifo[totalQueues];
        queueCells = new int[totalQueues];
        queueLimitCells = new int[totalQueues];
        lastEnqueueCycle = new long[totalQueues];
        deficitBytes = new long[totalQueues];
        quantumBytes = new int[totalQueues];
        enqueued = new long[totalQueues];
        dequeued = new long[totalQueues];
        dequeuedBytes = new long[totalQueues];
        dropped = new long[totalQueues * CAUSES];
        flushed = new long[totalQueues];
        for (int p = 0; p < nPorts; p++) {
            PortConfig pc = ports.get(p);
            for (int q = 0; q < pc.queues(); q++) {
                int gq = queueBase[p] + q;
                fifos[gq] = new PacketFifo();
                queueLimitCells[gq] = pc.queueLimitCells();
                lastEnqueueCycle[gq] = Long.MIN_VALUE;
                quantumBytes[gq] = drr[p] ? pc.drrQuantumBytes().get(q) : 0;
            }
        }
    }


    /** The configuration this traffic manager was built from. */
    public TrafficManagerConfig config() {
        return config;
    }

    /** Buffer cells a packet of {@code bytes} bytes occupies: {@code ceil(bytes / cellBytes)}. */
    public int cellsFor(int bytes) {
        return (int) cellDivisor.quotient(bytes + cellBytes - 1L);
    }

    // ------------------------------------------------------------------ enqueue

    /**
     * Offers one packet to queue {@code qid} of egress port {@code port} at {@code cycle}.
     *
     * @return {@link DropCause#ADMITTED} (0) if admitted, otherwise the drop cause's
     *         {@link DropCause#code()}
     * @throws IllegalArgumentException on a bad port, queue or length, or an enqueue cycle
     *                                  earlier than the queue's previous one (engine bugs)
     */
    public int enqueue(long cycle, int port, int qid, int packetHandle, int bytes) {
        int gq = queueIndex(port, qid);
        checkBytes(bytes);
        return admit(cycle, port, gq, packetHandle, bytes, bytes);
    }

    /**
     * As {@link #enqueue(long, int, int, int, int)} for a packet that carries
     * {@code extraBufferBytes} more through the buffer than it sends on the wire (a
     * program's bridged header, removed in egress): its cells are counted from
     * {@code bytes + extraBufferBytes}, its serialisation from {@code bytes}.
     */
    public int enqueue(long cycle, int port, int qid, int packetHandle, int bytes, int extraBufferBytes) {
        int gq = queueIndex(port, qid);
        checkBytes(bytes);
        if (extraBufferBytes < 0) {
            throw new IllegalArgumentException("extra buffer bytes " + extraBufferBytes + " < 0");
        }
        return admit(cycle, port, gq, packetHandle, bytes, bytes + extraBufferBytes);
    }

    /**
     * Replicates a packet to {@code nPorts} egress ports (the first entries of
     * {@code ports}), queue {@code qid} on each. Each copy is admitted independently and, in
     * this model, occupies its own cells (Tofino stores the payload once and queues
     * descriptors per copy; charging a copy per port is the conservative simplification).
     * A port listed twice receives two copies. All copies carry the same handle; the port
     * reported at dequeue tells them apart.
     *
     * @param resultCodes receives, per entry, 0 or the copy's drop-cause code (may be null)
     * @return the number of copies admitted
     */
    public int enqueueMulticast(long cycle, int[] ports, int nPorts, int qid, int packetHandle, int bytes,
                                int[] resultCodes) {
        if (nPorts < 0 || nPorts > ports.length) {
            throw new IllegalArgumentException("multicast port count " + nPorts + " outside 0.." + ports.length);
        }
        if (resultCodes != null && resultCodes.length < nPorts) {
            throw new IllegalArgumentException("multicast result array shorter than " + nPorts);
        }
        checkBytes(bytes);
        for (int i = 0; i < nPorts; i++) {
            queueIndex(ports[i], qid);
        }
        int admitted = 0;
        for (int i = 0; i < nPorts; i++) {
            int code = admit(cycle, ports[i], queueBase[ports[i]] + qid, packetHandle, bytes, bytes);
            if (code == DropCause.ADMITTED) {
                admitted++;
            }
            if (resultCodes != null) {
                resultCodes[i] = code;
            }
        }
        return admitted;
    }

    /**
     * Tail-drop admission of {@code cells} to queue {@code gq} of {@code port}: -1 when they fit,
     * else the ordinal of the first limit they break (queue, port, shared buffer).
     */
    private int refusal(long cycle, int port, int gq, int cells) {
        if (cycle < lastEnqueueCycle[gq]) {
            throw new IllegalArgumentException("enqueue at cycle " + cycle + " to port " + port + " queue "
                    + (gq - queueBase[port]) + " after an enqueue at cycle " + lastEnqueueCycle[gq]);
        }
        if (queueCells[gq] + cells > queueLimitCells[gq]) {
            return DropCause.QUEUE_LIMIT.ordinal();
        }
        if (portCells[port] + cells > portLimitCells[port]) {
            return DropCause.PORT_LIMIT.ordinal();
        }
        if (bufferCells + cells > sharedBufferCells) {
            return DropCause.BUFFER_FULL.ordinal();
        }
        return -1;
    }

    /**
     * {@link #refusal} for a port that holds no packet (the cut-through's, whose
     * {@link #cutThroughCycleOf} found {@code portPackets[port] == 0}): the same answer without
     * reading the port's and queue's cell counts, which are 0 then, because
     * {@link #admit} and {@link #pop} change them only together with {@code portPackets}, by the
     * same cells per packet.
     */
    private int emptyPortRefusal(long cycle, int port, int gq, int cells) {
        if (cycle < lastEnqueueCycle[gq]) {
            throw new IllegalArgumentException("enqueue at cycle " + cycle + " to port " + port + " queue "
                    + (gq - queueBase[port]) + " after an enqueue at cycle " + lastEnqueueCycle[gq]);
        }
        if (cells > queueLimitCells[gq]) {
            return DropCause.QUEUE_LIMIT.ordinal();
        }
        if (cells > portLimitCells[port]) {
            return DropCause.PORT_LIMIT.ordinal();
        }
        if (bufferCells + cells > sharedBufferCells) {
            return DropCause.BUFFER_FULL.ordinal();
        }
        return -1;
    }

    private int admit(long cycle, int port, int gq, int packetHandle, int bytes, int bufferBytes) {
        int cells = cellsFor(bufferBytes);
        int cause = refusal(cycle, port, gq, cells);
        if (cause < 0) {
            lastEnqueueCycle[gq] = cycle;
            fifos[gq].push(packetHandle, bytes, cells, queueCells[gq], cycle);
            nonEmpty[port] |= 1L << (gq - queueBase[port]);
            queueCells[gq] += cells;
            portCells[port] += cells;
            portPackets[port]++;
            bufferCells += cells;
            queuedPackets++;
            enqueued[gq]++;
            return DropCause.ADMITTED;
        }
        dropped[gq * CAUSES + cause]++;
        return cause + 1;
    }

    // ------------------------------------------------------------------ cut-through

    /**
     * Whether a packet offered to {@code port} at {@code cycle} could start at once: the port
     * holds no packet, its serialiser is free by {@code cycle}, and it schedules by strict
     * priority (a DRR port moves its round-robin pointer and deficits even for a lone packet,
     * so it always goes through its queue). {@link #cutThrough} may then be used instead of
     * {@link #enqueue} and {@link #dequeue} at the same cycle.
     */
    public boolean canCutThrough(int port, long cycle) {
        checkPort(port);
        return portPackets[port] == 0 && !drr[port] && cycle >= lastDequeueCycle[port]
                && (freeRemainder[port] == 0 ? freeCycle[port] : freeCycle[port] + 1) <= cycle;
    }

    /**
     * The cycle at which a packet offered to {@code port} at {@code cycle} would be dequeued if
     * nothing else reached the port first: the later of {@code cycle} and the port's free instant
     * rounded up; -1 when the port holds packets, schedules by DRR (see {@link #canCutThrough})
     * or dequeued after {@code cycle}. {@link #cutThrough(long, long, int, int, int, int, int, DequeueInfo)}
     * may then stand for the enqueue at {@code cycle} and the dequeue at the cycle returned.
     */
    public long cutThroughCycle(int port, long cycle) {
        checkPort(port);
        return cutThroughCycleOf(port, cycle);
    }

    /** {@link #cutThroughCycle} of a port known to exist. */
    private long cutThroughCycleOf(int port, long cycle) {
        if (portPackets[port] != 0 || drr[port] || cycle < lastDequeueCycle[port]) {
            return -1;
        }
        long free = freeRemainder[port] == 0 ? freeCycle[port] : freeCycle[port] + 1;
        return Math.max(cycle, free);
    }

    /**
     * Cut-through: offers a packet to a port for which {@link #canCutThrough} holds and, if it
     * is admitted, starts serialising it at once, exactly as
     * {@code enqueue(cycle, port, qid, handle, bytes, extra)} followed by
     * {@code dequeue(cycle, port, out)} would: the same admission (limits, drop counts), the
     * same counters, the same serialisation and the same {@code out}, without passing the
     * packet through its queue's FIFO.
     *
     * @return {@link DropCause#ADMITTED} (0) with {@code out} filled, or the drop cause's code
     * @throws IllegalStateException if {@link #canCutThrough} does not hold (an engine bug)
     */
    public int cutThrough(long cycle, int port, int qid, int packetHandle, int bytes, int extraBufferBytes,
                          DequeueInfo out) {
        if (!canCutThrough(port, cycle)) {
            throw new IllegalStateException("cut-through at cycle " + cycle + " on port " + port
                    + ", which is busy or holds packets");
        }
        return cutThrough(cycle, cycle, port, qid, packetHandle, bytes, extraBufferBytes, out);
    }

    /**
     * Cut-through to a port still serialising: a packet offered at {@code cycle} to a port that
     * holds no packet, and dequeued at {@code dequeueCycle} ({@link #cutThroughCycle}), nothing
     * having reached the port in between. Exactly {@code enqueue(cycle, ...)} followed by
     * {@code dequeue(dequeueCycle, ...)}: the admission at {@code cycle}, then the start at the
     * port's exact free instant or at {@code dequeueCycle}, the same counters and {@code out},
     * without the FIFO.
     *
     * @return {@link DropCause#ADMITTED} (0) with {@code out} filled, or the drop cause's code
     * @throws IllegalStateException if {@code dequeueCycle} is not {@link #cutThroughCycle}'s (an engine bug)
     */
    public int cutThrough(long cycle, long dequeueCycle, int port, int qid, int packetHandle, int bytes,
                          int extraBufferBytes, DequeueInfo out) {
        int gq = queueIndex(port, qid);
        checkBytes(bytes);
        if (extraBufferBytes < 0) {
            throw new IllegalArgumentException("extra buffer bytes " + extraBufferBytes + " < 0");
        }
        if (dequeueCycle < 0 || dequeueCycle != cutThroughCycleOf(port, cycle)) {
            throw new IllegalStateException("cut-through at cycle " + cycle + " on port " + port
                    + " dequeued at " + dequeueCycle + ": the port holds packets or is free at another cycle");
        }
        return admitAndSend(cycle, dequeueCycle, port, gq, packetHandle, bytes, extraBufferBytes, out);
    }

    /**
     * The engine's cut-through: as {@link #cutThrough(long, long, int, int, int, int, int, DequeueInfo)}
     * for a caller that has just had {@code dequeueCycle} from {@link #cutThroughCycle}{@code (port, cycle)},
     * changed nothing in this traffic manager since, and gives no negative extra bytes: the same
     * admission, counts, serialisation and {@code out}, without working out the dequeue cycle a
     * second time to check it (the per-packet path of a switch whose packets find their port
     * empty). Port, queue and length are checked as there.
     */
    public int cutThroughAt(long cycle, long dequeueCycle, int port, int qid, int packetHandle, int bytes,
                            int extraBufferBytes, DequeueInfo out) {
        int gq = queueIndex(port, qid);
        checkBytes(bytes);
        return admitAndSend(cycle, dequeueCycle, port, gq, packetHandle, bytes, extraBufferBytes, out);
    }

    /** The cut-through's admission at {@code cycle} and start at {@code dequeueCycle}, its arguments checked. */
    private int admitAndSend(long cycle, long dequeueCycle, int port, int gq, int packetHandle, int bytes,
                             int extraBufferBytes, DequeueInfo out) {
        int cells = cellsFor(bytes + extraBufferBytes);
        int cause = emptyPortRefusal(cycle, port, gq, cells);
        if (cause >= 0) {
            dropped[gq * CAUSES + cause]++;
            return cause + 1;
        }
        lastEnqueueCycle[gq] = cycle;
        enqueued[gq]++;
        serialise(port, dequeueCycle, cycle, bytes, out);
        lastDequeueCycle[port] = dequeueCycle;
        dequeued[gq]++;
        dequeuedBytes[gq] += bytes;
        out.packetHandle = packetHandle;
        out.port = port;
        out.qid = gq - queueBase[port];
        out.bytes = bytes;
        out.cells = cells;
        out.enqQdepth = 0; // the empty queue it would have joined (and left again): see emptyPortRefusal
        out.enqTstamp = cycle;
        out.deqQdepth = 0;
        out.deqTimedelta = out.serialisationStartCycle - cycle;
        return DropCause.ADMITTED;
    }

    // ------------------------------------------------------------------ dequeue

    /**
     * The earliest cycle at which {@code port} can start its next packet: the later of the
     * port's free instant (rounded up) and the earliest enqueue cycle among its queue heads;
     * {@link Long#MAX_VALUE} when all its queues are empty.
     */
    public long nextDequeueCycle(int port) {
        checkPort(port);
        if (portPackets[port] == 0) {
            return Long.MAX_VALUE;
        }
        long m0 = nonEmpty[port];
        int base = queueBase[port];
        long free = freeRemainder[port] == 0 ? freeCycle[port] : freeCycle[port] + 1;
        if ((m0 & (m0 - 1)) == 0) {
            // one busy queue (the common case): its head is the earliest
            return Math.max(free, fifos[base + Long.numberOfTrailingZeros(m0)].headEnqTstamp());
        }
        long earliest = Long.MAX_VALUE;
        for (long m = m0; m != 0; m &= m - 1) {
            long t = fifos[base + Long.numberOfTrailingZeros(m)].headEnqTstamp();
            if (t < earliest) {
                earliest = t;
            }
        }
        return Math.max(free, earliest);
    }

    /**
     * Dequeues the next packet of {@code port} at {@code cycle}: the scheduler picks among
     * the queues whose head was enqueued at or before {@code cycle}, the head is popped, its
     * cells are freed, {@code out} is filled and the port becomes busy for the packet's exact
     * serialisation time.
     *
     * @return the queue id served, or {@link #NOTHING_DEQUEUED} if no packet is eligible
     *         ({@code out} is then left unchanged)
     * @throws IllegalStateException if {@code cycle} is before {@link #nextDequeueCycle}'s
     *                               port-free bound or before the port's previous dequeue
     */
    public int dequeue(long cycle, int port, DequeueInfo out) {
        checkPort(port);
        long free = freeRemainder[port] == 0 ? freeCycle[port] : freeCycle[port] + 1;
        if (cycle < lastDequeueCycle[port] || cycle < free) {
            throw dequeueTooEarly(cycle, port, free);
        }
        if (portPackets[port] == 0) {
            return NOTHING_DEQUEUED;
        }
        int q = drr[port] ? selectDrr(port, cycle) : selectStrictPriority(port, cycle);
        if (q < 0) {
            return NOTHING_DEQUEUED;
        }
        int gq = queueBase[port] + q;
        PacketFifo f = fifos[gq];
        long enqTstamp = f.headEnqTstamp();
        serialise(port, cycle, enqTstamp, f.headBytes(), out);
        lastDequeueCycle[port] = cycle;
        pop(port, q, gq, f, out);
        out.deqTimedelta = out.serialisationStartCycle - enqTstamp;
        return q;
    }

    /** Takes the head of queue {@code q} off the port: describes it in {@code out} and frees its cells. */
    private void pop(int port, int q, int gq, PacketFifo f, DequeueInfo out) {
        int cells = f.headCells();
        int bytes = f.headBytes();
        out.packetHandle = f.headHandle();
        out.port = port;
        out.qid = q;
        out.bytes = bytes;
        out.cells = cells;
        out.enqQdepth = f.headEnqDepth();
        out.enqTstamp = f.headEnqTstamp();
        f.pop();
        // clear the queue's busy bit when it emptied, without a data-dependent branch
        nonEmpty[port] &= ~((long) (f.size() == 0 ? 1 : 0) << q);
        queueCells[gq] -= cells;
        portCells[port] -= cells;
        portPackets[port]--;
        bufferCells -= cells;
        queuedPackets--;
        dequeued[gq]++;
        dequeuedBytes[gq] += bytes;
        out.deqQdepth = queueCells[gq];
        if (drr[port] && f.size() == 0) {
            drrQueueEmptied(port, gq);
        }
    }

    /**
     * The port's link is down: takes the head packet of its highest-numbered non-empty queue off
     * the port without sending it, as Tofino's traffic manager flushes a down port's queues
     * (bf_tm_port_all_queues_flush). Its cells are freed and {@code out} describes it (no
     * serialisation times: the port stays as it was); it counts as flushed, not dequeued.
     *
     * @return the queue id it left, or {@link #NOTHING_DEQUEUED} when the port holds nothing
     */
    public int flushHead(int port, DequeueInfo out) {
        checkPort(port);
        long m = nonEmpty[port];
        if (m == 0) {
            return NOTHING_DEQUEUED;
        }
        int q = 63 - Long.numberOfLeadingZeros(m);
        int gq = queueBase[port] + q;
        pop(port, q, gq, fifos[gq], out);
        // pop counts a dequeue; a flushed packet never left by the port
        dequeued[gq]--;
        dequeuedBytes[gq] -= out.bytes;
        flushed[gq]++;
        return q;
    }

    /** An emptied queue leaves the active list and forfeits its deficit (DRR rule). */
    private void drrQueueEmptied(int port, int gq) {
        deficitBytes[gq] = 0;
        advanceDrr(port);
    }

    /**
     * The port serialises a packet of {@code bytes} dequeued at {@code cycle}: its exact start
     * (startCycle + startRemainder / cyclesPerBitDen[port]), end and the port's new free instant.
     */
    private void serialise(int port, long cycle, long enqTstamp, int bytes, DequeueInfo out) {
        long fc = freeCycle[port];
        long fr = freeRemainder[port];
        long startCycle;
        long startRemainder;
        boolean busyIntoThisCycle = fc >= cycle || (fc == cycle - 1 && fr > 0);
        if (busyIntoThisCycle && fc >= enqTstamp) {
            startCycle = fc;
            startRemainder = fr;
        } else if (busyIntoThisCycle) {
            startCycle = enqTstamp;
            startRemainder = 0;
        } else {
            startCycle = cycle;
            startRemainder = 0;
        }
        lastStartCycle[port] = startCycle;
        lastStartRemainder[port] = startRemainder;
        out.serialisationStartCycle = startRemainder == 0 ? startCycle : startCycle + 1;
        serialiseFromLastStart(port, bytes, out);
    }

    /** The port serialises {@code bytes} from its last start: its end and the port's new free instant. */
    private void serialiseFromLastStart(int port, int bytes, DequeueInfo out) {
        long bits = (long) (bytes + overheadBytes) * Byte.SIZE;
        long numerator = lastStartRemainder[port] + bits * cyclesPerBitNum[port];
        Divisor d = cyclesPerBitDivisor[port];
        long whole = d.quotient(numerator);
        long endCycle = lastStartCycle[port] + whole;
        long endRemainder = d.remainder(numerator, whole);
        freeCycle[port] = endCycle;
        freeRemainder[port] = endRemainder;
        out.serialisationEndCycle = endRemainder == 0 ? endCycle : endCycle + 1;
    }

    /**
     * The egress deparser changed the frame of the packet {@link #dequeue} just served on
     * {@code port} (a header added or removed): the port serialises the {@code bytes} that
     * leave, from the same start, so the port's next packet waits for the longer (or shorter)
     * frame. {@code out}'s end of serialisation follows.
     */
    public void reserialise(int port, int bytes, DequeueInfo out) {
        checkPort(port);
        serialiseFromLastStart(port, bytes, out);
    }

    /** Kept out of {@link #dequeue} so the hot method stays small enough to inline. */
    private IllegalStateException dequeueTooEarly(long cycle, int port, long free) {
        if (cycle < lastDequeueCycle[port]) {
            return new IllegalStateException("dequeue at cycle " + cycle + " on port " + port
                    + " after a dequeue at cycle " + lastDequeueCycle[port]);
        }
        return new IllegalStateException("dequeue at cycle " + cycle + " but port " + port
                + " is serialising until cycle " + free);
    }

    private boolean eligible(int gq, long cycle) {
        PacketFifo f = fifos[gq];
        return f.size() > 0 && f.headEnqTstamp() <= cycle;
    }

    /** Highest queue index first (Tofino-like: higher priority level = more urgent). */
    private int selectStrictPriority(int port, long cycle) {
        int base = queueBase[port];
        long m0 = nonEmpty[port];
        if ((m0 & (m0 - 1)) == 0) {
            // one busy queue (the common case): no priority scan
            int q = Long.numberOfTrailingZeros(m0);
            return m0 != 0 && fifos[base + q].headEnqTstamp() <= cycle ? q : -1;
        }
        for (long m = m0; m != 0; ) {
            int q = 63 - Long.numberOfLeadingZeros(m);
            if (fifos[base + q].headEnqTstamp() <= cycle) {
                return q;
            }
            m &= ~(1L << q);
        }
        return -1;
    }

    /**
     * Deficit round robin, one packet per call: the current queue gets its quantum once per
     * visit and keeps sending while its head fits in the deficit; then the pointer moves on.
     */
    private int selectDrr(int port, long cycle) {
        int base = queueBase[port];
        int n = queueCount[port];
        boolean any = false;
        for (int q = 0; q < n; q++) {
            if (eligible(base + q, cycle)) {
                any = true;
                break;
            }
        }
        if (!any) {
            return -1;
        }
        while (true) {
            int q = drrCurrent[port];
            int gq = base + q;
            if (eligible(gq, cycle)) {
                if (!drrQuantumGiven[port]) {
                    deficitBytes[gq] += quantumBytes[gq];
                    drrQuantumGiven[port] = true;
                }
                int headBytes = fifos[gq].headBytes();
                if (headBytes <= deficitBytes[gq]) {
                    deficitBytes[gq] -= headBytes;
                    return q;
                }
            } else if (fifos[gq].size() == 0) {
                deficitBytes[gq] = 0;
            }
            advanceDrr(port);
        }
    }

    private void advanceDrr(int port) {
        int next = drrCurrent[port] + 1;
        drrCurrent[port] = next == queueCount[port] ? 0 : next;
        drrQuantumGiven[port] = false;
    }

    // ------------------------------------------------------------------ time queries

    /** The port's exact free instant rounded up to a whole cycle. */
    public long portFreeCycle(int port) {
        checkPort(port);
        return freeRemainder[port] == 0 ? freeCycle[port] : freeCycle[port] + 1;
    }

    /** Whole cycles of the port's exact free instant (floor). */
    public long portFreeCycleFloor(int port) {
        checkPort(port);
        return freeCycle[port];
    }

    /**
     * The fractional part of the port's free instant as a numerator over
     * {@link #cycleFractionDenominator(int)}.
     */
    public long portFreeCycleRemainder(int port) {
        checkPort(port);
        return freeRemainder[port];
    }

    /** Denominator of the port's sub-cycle fractions: {@code rate / gcd(clockHz, rate)}. */
    public long cycleFractionDenominator(int port) {
        checkPort(port);
        return cyclesPerBitDen[port];
    }

    // ------------------------------------------------------------------ occupancy and counters

    /** Number of egress ports. */
    public int portCount() {
        return nPorts;
    }

    /** Number of queues on {@code port}. */
    public int queueCount(int port) {
        checkPort(port);
        return queueCount[port];
    }

    /** Cells currently held by queue {@code qid} of {@code port}. */
    public int queueDepthCells(int port, int qid) {
        return queueCells[queueIndex(port, qid)];
    }

    /** Packets currently in queue {@code qid} of {@code port}. */
    public int queueDepthPackets(int port, int qid) {
        return fifos[queueIndex(port, qid)].size();
    }

    /** Cells currently held by all queues of {@code port}. */
    public int portDepthCells(int port) {
        checkPort(port);
        return portCells[port];
    }

    /** Packets currently queued on {@code port}. */
    public int portDepthPackets(int port) {
        checkPort(port);
        return portPackets[port];
    }

    /** Cells in use in the shared buffer. */
    public int bufferOccupancyCells() {
        return bufferCells;
    }

    /** Size of the shared buffer in cells. */
    public int bufferCapacityCells() {
        return sharedBufferCells;
    }

    /** Packets (copies) currently queued anywhere in the traffic manager. */
    public long queuedPackets() {
        return queuedPackets;
    }

    /** Packets admitted to queue {@code qid} of {@code port} so far. */
    public long enqueuedPackets(int port, int qid) {
        return enqueued[queueIndex(port, qid)];
    }

    /** Packets dequeued from queue {@code qid} of {@code port} so far. */
    public long dequeuedPackets(int port, int qid) {
        return dequeued[queueIndex(port, qid)];
    }

    /** Bytes (frame lengths) dequeued from queue {@code qid} of {@code port} so far. */
    public long dequeuedBytes(int port, int qid) {
        return dequeuedBytes[queueIndex(port, qid)];
    }

    /** Packets dropped at queue {@code qid} of {@code port} for {@code cause}. */
    public long droppedPackets(int port, int qid, DropCause cause) {
        return dropped[queueIndex(port, qid) * CAUSES + cause.ordinal()];
    }

    /** Packets dropped at {@code port} (any queue) for {@code cause}. */
    public long droppedPackets(int port, DropCause cause) {
        checkPort(port);
        long sum = 0;
        for (int q = 0; q < queueCount[port]; q++) {
            sum += dropped[(queueBase[port] + q) * CAUSES + cause.ordinal()];
        }
        return sum;
    }

    /** Packets dropped anywhere for {@code cause}. */
    public long totalDropped(DropCause cause) {
        long sum = 0;
        for (int gq = 0; gq < fifos.length; gq++) {
            sum += dropped[gq * CAUSES + cause.ordinal()];
        }
        return sum;
    }

    /** Packets dropped anywhere, all causes. */
    public long totalDropped() {
        long sum = 0;
        for (long d : dropped) {
            sum += d;
        }
        return sum;
    }

    /** Packets flushed from {@code port}'s queues because its link went down ({@link #flushHead}). */
    public long flushedPackets(int port) {
        checkPort(port);
        long sum = 0;
        for (int q = 0; q < queueCount[port]; q++) {
            sum += flushed[queueBase[port] + q];
        }
        return sum;
    }

    /** Packets flushed anywhere ({@link #flushHead}). */
    public long totalFlushed() {
        long sum = 0;
        for (long f : flushed) {
            sum += f;
        }
        return sum;
    }

    /** Packets (copies) admitted anywhere. */
    public long totalEnqueued() {
        long sum = 0;
        for (long e : enqueued) {
            sum += e;
        }
        return sum;
    }

    /** Packets dequeued anywhere. */
    public long totalDequeued() {
        long sum = 0;
        for (long d : dequeued) {
            sum += d;
        }
        return sum;
    }

    /**
     * Packets (copies) offered to the traffic manager: admitted plus dropped. Conservation
     * holds at every moment: {@code offered = dequeued + dropped + flushed + queued}.
     */
    public long totalOffered() {
        return totalEnqueued() + totalDropped();
    }

    // ------------------------------------------------------------------ checks

    private int queueIndex(int port, int qid) {
        checkPort(port);
        if (qid < 0 || qid >= queueCount[port]) {
            throw new IllegalArgumentException("queue " + qid + " does not exist on port " + port
                    + " (it has " + queueCount[port] + ")");
        }
        return queueBase[port] + qid;
    }

    private void checkPort(int port) {
        if (port < 0 || port >= nPorts) {
            throw new IllegalArgumentException("egress port " + port + " does not exist (traffic manager has "
                    + nPorts + ")");
        }
    }

    private static void checkBytes(int bytes) {
        if (bytes < 1 || bytes > MAX_PACKET_BYTES) {
            throw new IllegalArgumentException("packet length " + bytes + " B outside 1.." + MAX_PACKET_BYTES);
        }
    }
}

/**
 * The traffic manager: per egress port several queues in a shared buffer of 80-byte cells,
 * tail-drop admission (queue limit, port limit, shared buffer, counted by
 * {@link dev.rmtemu.emulator.tm.DropCause}), strict priority (highest queue index first) or
 * DRR per port, and an exact serialiser per port. Time is target clock cycles; packets are
 * int handles plus byte lengths, so this package knows nothing about packet records.
 *
 * <p>Intrinsic metadata, as Tofino's egress sees it ({@link dev.rmtemu.emulator.tm.DequeueInfo}):
 * {@code enq_qdepth} is the queue's depth in cells found by the packet on arrival, not
 * counting its own cells; {@code deq_qdepth} the depth left behind it when it is dequeued,
 * not counting it; {@code enq_tstamp} the enqueue cycle; {@code deq_timedelta} the cycles
 * from enqueue to the (rounded-up) start of serialisation. Tofino reports the two times in
 * ns; convert with the clock when a program needs ns.
 */
package dev.rmtemu.emulator.tm;

package dev.rmtemu.emulator.network;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads of a parallel network: the caller and {@code threads - 1} daemon threads.
 * {@link #runAll} runs the parts of a window (numbered 0 .. parts - 1) and returns when all are
 * done (a barrier). Every thread, the caller first, claims parts until none is left, so a part
 * runs on whichever thread is free: on a loaded machine, a worker the scheduler has not woken
 * costs nothing, the caller runs its parts. Which thread runs a part never changes what the part
 * does. A waiting thread spins a little (a window is a few microseconds of work) and then parks,
 * so idle workers leave the cores to the packet ring's reader. No allocation per window; a part
 * that throws is recorded ({@link #failure}) and the others finish.
 */
final class NetworkWorkers implements AutoCloseable {
    /** One part of a window. */
    @FunctionalInterface
    interface Part {
        void run(int part);
    }

    /** Name prefix of the worker threads (a number follows). */
    static final String THREAD_NAME = "rmtemu-network-";

    /** Spins of a waiting thread before it parks: a few microseconds, about one window's work. */
    static final int SPINS_BEFORE_PARK = 1 << 11;

    private final int count;
    private final int parts;
    private final Thread[] threads;
    private final AtomicIntegerArray parked;
    /** Next part to claim in the current window. */
    private final AtomicInteger nextPart = new AtomicInteger();
    /** Parts finished in the current window. */
    private final AtomicInteger finished = new AtomicInteger();
    private final Throwable[] failures;
    private volatile int generation;
    private volatile Part part;
    private volatile boolean closed;
    private volatile Thread waiter;
    private volatile boolean waiterParked;

    NetworkWorkers(int threadCount, int parts) {
        this.count = threadCount;
        this.parts = parts;
        this.threads = new Thread[count];
        this.parked = new AtomicIntegerArray(count);
        this.failures = new Throwable[parts];
        for (int w = 1; w < count; w++) {
            final int worker = w;
            Thread t = new Thread(() -> loop(worker), THREAD_NAME + w);
            t.setDaemon(true);
            threads[w] = t;
            t.start();
        }
    }

    /** Runs every part of {@code p} (on this thread and the workers) and returns when all have finished. */
    void runAll(Part p) {
        for (int i = 0; i < parts; i++) {
            failures[i] = null;
        }
        waiter = Thread.currentThread();
        part = p;
        finished.set(0);
        nextPart.set(0);
        generation++; // publishes the part (and everything the caller wrote before) to the workers
        for (int w = 1; w < count; w++) {
            if (parked.get(w) == 1) {
                LockSupport.unpark(threads[w]);
            }
        }
        claimParts();
        int spins = SPINS_BEFORE_PARK;
        while (finished.get() != parts) {
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
                continue;
            }
            waiterParked = true;
            if (finished.get() != parts) {
                LockSupport.park(this);
            }
            waiterParked = false;
        }
    }

    /**
     * Runs parts until none is left to claim. The part is read after a claim succeeds: a claim
     * below {@code parts} sees the reset of {@link #nextPart}, which {@link #runAll} writes after
     * the window's part, so a worker that woke late never runs an older window's part.
     */
    private void claimParts() {
        int i;
        while ((i = nextPart.getAndIncrement()) < parts) {
            try {
                part.run(i);
            } catch (Throwable t) {
                failures[i] = t;
            }
            if (finished.incrementAndGet() == parts && waiterParked) {
                LockSupport.unpark(waiter);
            }
        }
    }

    /** What part {@code i} threw in the last {@link #runAll}, or null. */
    Throwable failure(int i) {
        return failures[i];
    }

    private void loop(int w) {
        int seen = 0;
        while (true) {
            int spins = SPINS_BEFORE_PARK;
            while (generation == seen) {
                if (spins > 0) {
                    spins--;
                    Thread.onSpinWait();
                    continue;
                }
                parked.set(w, 1);
                if (generation == seen) {
                    LockSupport.park(this);
                }
                parked.set(w, 0);
            }
            seen = generation;
            if (closed) {
                return;
            }
            claimParts();
        }
    }

    /** Ends the worker threads (they are idle between two {@link #runAll} calls). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        generation++;
        for (int w = 1; w < count; w++) {
            LockSupport.unpark(threads[w]);
        }
        for (int w = 1; w < count; w++) {
            try {
                threads[w].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

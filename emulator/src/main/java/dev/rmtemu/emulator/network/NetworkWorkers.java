package dev.rmtemu.emulator.network;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads of a parallel network: the caller is worker 0, {@code count - 1} daemon threads are
 * workers 1.. . {@link #runAll} runs one part of a window on every worker and returns when all
 * are done (a barrier). A waiting thread spins a little (a window is a few microseconds of work)
 * and then parks, so idle workers leave the cores to the packet ring's reader. No allocation per
 * window; a part that throws is recorded for its worker ({@link #failure}) and the others finish.
 */
final class NetworkWorkers implements AutoCloseable {
    /** One worker's share of a window. */
    @FunctionalInterface
    interface Part {
        void run(int worker);
    }

    /** Spins of a waiting thread before it parks: a few microseconds, about one window's work. */
    static final int SPINS_BEFORE_PARK = 1 << 12;

    private final int count;
    private final Thread[] threads;
    private final AtomicIntegerArray parked;
    private final AtomicInteger running = new AtomicInteger();
    private final Throwable[] failures;
    private volatile int generation;
    private volatile Part part;
    private volatile boolean closed;
    private volatile Thread waiter;
    private volatile boolean waiterParked;

    NetworkWorkers(int count) {
        this.count = count;
        this.threads = new Thread[count];
        this.parked = new AtomicIntegerArray(count);
        this.failures = new Throwable[count];
        for (int w = 1; w < count; w++) {
            final int worker = w;
            Thread t = new Thread(() -> loop(worker), "rmtemu-network-" + w);
            t.setDaemon(true);
            threads[w] = t;
            t.start();
        }
    }

    int count() {
        return count;
    }

    /** Runs {@code p} on every worker (this thread is worker 0) and returns when all have finished. */
    void runAll(Part p) {
        for (int w = 0; w < count; w++) {
            failures[w] = null;
        }
        waiter = Thread.currentThread();
        part = p;
        running.set(count - 1);
        generation++; // publishes the part (and everything the caller wrote before) to the workers
        for (int w = 1; w < count; w++) {
            if (parked.get(w) == 1) {
                LockSupport.unpark(threads[w]);
            }
        }
        try {
            p.run(0);
        } catch (Throwable t) {
            failures[0] = t;
        }
        int spins = SPINS_BEFORE_PARK;
        while (running.get() != 0) {
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
                continue;
            }
            waiterParked = true;
            if (running.get() != 0) {
                LockSupport.park(this);
            }
            waiterParked = false;
        }
    }

    /** What worker {@code w}'s part threw in the last {@link #runAll}, or null. */
    Throwable failure(int w) {
        return failures[w];
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
            try {
                part.run(w);
            } catch (Throwable t) {
                failures[w] = t;
            }
            if (running.decrementAndGet() == 0 && waiterParked) {
                LockSupport.unpark(waiter);
            }
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

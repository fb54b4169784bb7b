package dev.rmtemu.emulator.network;

import dev.rmtemu.traces.impair.ImpairmentDecision;

import java.util.Arrays;

/**
 * One part of a parallel network's windows (run by whichever worker thread claims it): its
 * switches (ordinals in ascending order), its impairment decision scratch, an outbox per other
 * part for the link arrivals its switches send there, the host deliveries its switches made
 * (applied by the coordinating thread after the barrier: counters, the latency histogram), and
 * the earliest cycle anything it owns or sent still has to happen at.
 */
final class WindowPart {
    private static final int INITIAL_DELIVERIES = 64;

    final int index;
    final int[] switches;
    /**
     * Outboxes per window parity, per receiving worker: a window's senders fill one parity while
     * the receivers empty the other (what the window before sent), so nobody reads a box being written.
     */
    final ArrivalOutbox[][] outboxes;
    final ImpairmentDecision decision = new ImpairmentDecision();
    /** Trace packets whose source host's link ends at one of its switches, waiting for its next window. */
    final InjectionQueue injections;
    /** Its switches (by index in {@link #switches}) by next event: a window touches only those with work. */
    final SwitchTimeline timeline;
    /** Earliest pending event of its switches, or arrival it sent to another part, after its part of the window. */
    long nextCycle;
    /** Latest cycle its switches reached. */
    long now;
    /** The switch it was running when its part failed, or -1. */
    int failedSwitch = -1;

    private int[] deliveryHost = new int[INITIAL_DELIVERIES];
    private long[] deliveryCycle = new long[INITIAL_DELIVERIES];
    private long[] deliveryLatencyNs = new long[INITIAL_DELIVERIES];
    private boolean[] deliveryMisdelivered = new boolean[INITIAL_DELIVERIES];
    private int deliveries;

    WindowPart(int index, int[] switches, int workers, int frameCapacity) {
        this.index = index;
        this.switches = switches;
        this.timeline = new SwitchTimeline(switches.length);
        this.injections = new InjectionQueue(frameCapacity);
        this.outboxes = new ArrivalOutbox[2][workers];
        for (int parity = 0; parity < 2; parity++) {
            for (int w = 0; w < workers; w++) {
                if (w != index) {
                    outboxes[parity][w] = new ArrivalOutbox(frameCapacity);
                }
            }
        }
    }

    void delivered(int host, long cycle, long latencyNs, boolean misdelivered) {
        if (deliveries == deliveryHost.length) {
            int n = deliveries * 2;
            deliveryHost = Arrays.copyOf(deliveryHost, n);
            deliveryCycle = Arrays.copyOf(deliveryCycle, n);
            deliveryLatencyNs = Arrays.copyOf(deliveryLatencyNs, n);
            deliveryMisdelivered = Arrays.copyOf(deliveryMisdelivered, n);
        }
        int i = deliveries++;
        deliveryHost[i] = host;
        deliveryCycle[i] = cycle;
        deliveryLatencyNs[i] = latencyNs;
        deliveryMisdelivered[i] = misdelivered;
    }

    int deliveries() {
        return deliveries;
    }

    int deliveryHost(int i) {
        return deliveryHost[i];
    }

    long deliveryCycle(int i) {
        return deliveryCycle[i];
    }

    long deliveryLatencyNs(int i) {
        return deliveryLatencyNs[i];
    }

    boolean deliveryMisdelivered(int i) {
        return deliveryMisdelivered[i];
    }

    void clearDeliveries() {
        deliveries = 0;
    }
}

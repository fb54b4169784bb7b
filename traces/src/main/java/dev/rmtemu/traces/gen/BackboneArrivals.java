package dev.rmtemu.traces.gen;

import java.util.Arrays;

/**
 * The running flows of {@code dist=backbone} ({@link BackboneFlows}) and the order their
 * packets go out: a binary min-heap of flow slots by the time of each flow's next packet,
 * merged with the Poisson arrivals of new flows. Slots are reused when a flow ends, so memory
 * is proportional to the flows running at once, not to the packets or all flows of the trace;
 * a packet allocates nothing once the arrays have grown to that size.
 */
final class BackboneArrivals {
    private static final int INITIAL_SLOTS = 1024;
    /** Cap on a drawn size: the Pareto tail can exceed any long; no trace gets near this. */
    private static final double MAX_FLOW_PACKETS = 1e15;

    private final SplitMix64 rng;
    private final double miceGeomLog;
    private final double elephantMin;
    private final double shape;
    private final double miceShare;
    private final double miceMean;
    private final double gapMu;
    private final double gapSigma;
    private final double meanArrivalGapNs;

    // per slot
    long[] flowId = new long[INITIAL_SLOTS];
    long[] remaining = new long[INITIAL_SLOTS];
    long[] size = new long[INITIAL_SLOTS];
    double[] gapNs = new double[INITIAL_SLOTS];
    double[] nextNs = new double[INITIAL_SLOTS];
    int[] seq = new int[INITIAL_SLOTS];
    char[] ipId = new char[INITIAL_SLOTS];
    boolean[] started = new boolean[INITIAL_SLOTS];
    private int[] heap = new int[INITIAL_SLOTS];
    private int heapSize;
    private int[] free = new int[INITIAL_SLOTS];
    private int freeCount;
    private int slotsUsed;
    private long nextFlowId;
    private double nextArrivalNs;
    private final long tupleSeed;

    /** The flow slot, time and flags of the packet {@link #advance} chose. */
    int slot;
    double timeNs;
    boolean last;

    BackboneArrivals(GeneratorConfig c, long seed, long tupleSeed) {
        BackboneFlows b = c.backbone();
        this.rng = new SplitMix64(seed);
        this.tupleSeed = tupleSeed;
        this.miceShare = b.miceShare();
        this.miceMean = b.miceMeanPackets();
        // 1 + geometric on {0, 1, ...} with mean miceMean − 1: P(extra >= k) = q^k, q = (m − 1) / m
        this.miceGeomLog = miceMean > 1 ? StrictMath.log((miceMean - 1) / miceMean) : 0;
        this.elephantMin = b.elephantMinPackets(c);
        this.shape = c.paretoShape();
        this.gapMu = StrictMath.log(b.gapMedianNs());
        this.gapSigma = b.gapSigma();
        double meanWire = c.sizes().mean() + SyntheticSource.WIRE_OVERHEAD_BYTES;
        double packetsPerNs = c.linkGbps() * c.load() / (8.0 * meanWire);
        double meanFlow = BackboneFlows.meanFlowPackets(c);
        this.meanArrivalGapNs = meanFlow / packetsPerNs;
        // steady state at time 0: flows running then are Poisson with mean λ E[duration]
        double meanGap = StrictMath.exp(gapMu + gapSigma * gapSigma / 2);
        double running = meanFlow * meanGap / meanArrivalGapNs;
        long n = poisson(running);
        for (long i = 0; i < n; i++) {
            startRunning();
        }
        nextArrivalNs = rng.nextExponential(meanArrivalGapNs);
    }

    /** Poisson count with the given mean: exponential spacings counted up to the mean (once, at start). */
    private long poisson(double mean) {
        long n = 0;
        double t = rng.nextExponential(1.0);
        while (t < mean) {
            n++;
            t += rng.nextExponential(1.0);
        }
        return n;
    }

    private double mouse(boolean sizeBiased) {
        if (miceMean <= 1) {
            return 1;
        }
        // size-biased 1 + G is 1 + G1 + G2 (two independent geometrics)
        double extra = StrictMath.floor(StrictMath.log(rng.nextOpenDouble()) / miceGeomLog);
        if (sizeBiased) {
            extra += StrictMath.floor(StrictMath.log(rng.nextOpenDouble()) / miceGeomLog);
        }
        return 1 + extra;
    }

    private double elephant(boolean sizeBiased) {
        // size-biased Pareto(α, m) is Pareto(α − 1, m)
        double a = sizeBiased ? shape - 1 : shape;
        return Math.min(MAX_FLOW_PACKETS, StrictMath.ceil(elephantMin * StrictMath.pow(rng.nextOpenDouble(), -1.0 / a)));
    }

    /** A flow's size; size-biased for the flows found running at time 0 (they are caught in proportion to length). */
    private double flowSize(boolean sizeBiased) {
        double miceWeight = sizeBiased ? miceShare * miceMean : miceShare;
        double total = sizeBiased ? miceWeight + (1 - miceShare) * (elephantMin * shape / (shape - 1)) : 1.0;
        return rng.nextDouble() * total < miceWeight ? mouse(sizeBiased) : elephant(sizeBiased);
    }

    /** A flow's mean packet gap; size-biased log-normal (μ + σ²) for the flows running at time 0. */
    private double gap(boolean sizeBiased) {
        double mu = sizeBiased ? gapMu + gapSigma * gapSigma : gapMu;
        return StrictMath.exp(mu + gapSigma * rng.nextGaussian());
    }

    private void startRunning() {
        double s = flowSize(true);
        double g = gap(true);
        // a uniform share of its packets went out before the trace began
        long left = (long) Math.max(1, StrictMath.ceil(s * (1 - rng.nextDouble())));
        int k = newSlot((long) s, left, g, true);
        nextNs[k] = rng.nextExponential(g);
        push(k);
    }

    private void arrive() {
        double s = flowSize(false);
        int k = newSlot((long) s, (long) s, gap(false), false);
        nextNs[k] = nextArrivalNs;
        push(k);
        nextArrivalNs += rng.nextExponential(meanArrivalGapNs);
    }

    private int newSlot(long total, long left, double g, boolean running) {
        int k;
        if (freeCount > 0) {
            k = free[--freeCount];
        } else {
            if (slotsUsed == flowId.length) {
                grow();
            }
            k = slotsUsed++;
        }
        long id = nextFlowId++;
        flowId[k] = id;
        size[k] = total;
        remaining[k] = left;
        gapNs[k] = g;
        started[k] = running;
        long h = SplitMix64.at(tupleSeed ^ 0x5EED, id);
        seq[k] = (int) h;
        ipId[k] = (char) (h >>> 32);
        return k;
    }

    private void grow() {
        int n = flowId.length * 2;
        flowId = Arrays.copyOf(flowId, n);
        remaining = Arrays.copyOf(remaining, n);
        size = Arrays.copyOf(size, n);
        gapNs = Arrays.copyOf(gapNs, n);
        nextNs = Arrays.copyOf(nextNs, n);
        seq = Arrays.copyOf(seq, n);
        ipId = Arrays.copyOf(ipId, n);
        started = Arrays.copyOf(started, n);
        heap = Arrays.copyOf(heap, n);
        free = Arrays.copyOf(free, n);
    }

    /** Chooses the next packet: sets {@link #slot}, {@link #timeNs} and {@link #last}. */
    void advance() {
        while (heapSize == 0 || nextArrivalNs < nextNs[heap[0]]) {
            arrive();
        }
        int k = heap[0];
        slot = k;
        timeNs = nextNs[k];
        last = --remaining[k] == 0;
        if (last) {
            removeTop();
        } else {
            nextNs[k] += rng.nextExponential(gapNs[k]);
            siftDown(0);
        }
    }

    /** Frees the slot of the packet {@link #advance} chose, once the caller has read it, if the flow ended. */
    void release() {
        if (last) {
            free[freeCount++] = slot;
        }
    }

    private boolean before(int a, int b) {
        double ta = nextNs[a];
        double tb = nextNs[b];
        return ta < tb || (ta == tb && flowId[a] < flowId[b]);
    }

    private void push(int k) {
        int i = heapSize++;
        heap[i] = k;
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (!before(heap[i], heap[p])) {
                break;
            }
            int t = heap[i];
            heap[i] = heap[p];
            heap[p] = t;
            i = p;
        }
    }

    private void removeTop() {
        heap[0] = heap[--heapSize];
        if (heapSize > 0) {
            siftDown(0);
        }
    }

    private void siftDown(int i) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= heapSize) {
                return;
            }
            int c = l + 1 < heapSize && before(heap[l + 1], heap[l]) ? l + 1 : l;
            if (!before(heap[c], heap[i])) {
                return;
            }
            int t = heap[i];
            heap[i] = heap[c];
            heap[c] = t;
            i = c;
        }
    }

    /** Flows started so far (running at time 0 plus arrived). */
    long flowsStarted() {
        return nextFlowId;
    }
}

package dev.rmtemu.programs.midst.program;

import dev.rmtemu.model.UserError;

/**
 * Everything that shapes one MIDST deployment on a switch.
 *
 * @param rows            r: rows of each count-min sketch (S_in and S_out have the same shape)
 * @param columns         c: counters per row
 * @param lossThreshold   egress flags a packet's report as a heavy loser when min_i(u_i - v_i) reaches this
 * @param burstThreshold  ingress flags a bursty flow when its S_in estimate min_i(u_i) reaches this
 * @param highWater       h: monitoring starts when the reported queue depth (cells) is at least h
 * @param lowWater        l: monitoring stops (and cleaning starts) when the depth falls below l
 * @param dataPort        the monitored egress port every data packet is forwarded to
 * @param collectorPort   front-panel port towards the collector (monitoring and cleaning reports)
 * @param dirtyWords      clean with one dirty word per 32 counters (the paper's mechanism); false:
 *                        each passing packet zeroes one counter per row (the baseline it improves on)
 * @param pipes           P: pipes carrying monitored traffic (input ports in pipes 0..P-1, a monitored
 *                        port in each of them: {@code dataPort + j · portsPerPipe} for egress pipe j)
 * @param queues          Q: monitored queues of each monitored port; a data packet's egress pipe and
 *                        queue are the low bits of its destination address (queue: bits 0..log2 Q − 1,
 *                        egress pipe: the next log2 P bits), a stand-in for a forwarding table and a
 *                        class-to-queue map
 * @param portsPerPipe    front-panel ports of a pipe on the target (port p is in pipe p / portsPerPipe):
 *                        the data plane finds a packet's ingress pipe by shifting its port number
 */
public record MidstConfig(int rows, int columns, long lossThreshold, long burstThreshold,
                          long highWater, long lowWater, int dataPort, int collectorPort, boolean dirtyWords,
                          int pipes, int queues, int portsPerPipe) {
    /**
     * Most rows: tofino1 has 4 stateful ALUs per stage and each row's counters (and dirty
     * words) are one register array in the same stage, so 4 rows fill a stage.
     */
    public static final int MAX_ROWS = 4;
    /** Counters (and dirty bits) per dirty word: one 32-bit register word marks 32 counters. */
    public static final int COUNTERS_PER_DIRTY_WORD = 32;
    /** Counter width: the 32-bit stateful-ALU word of tofino1. */
    public static final int COUNTER_BITS = 32;
    /**
     * Defaults: 2 rows of 32,768 counters = 256 KB per sketch. The paper's headline memory is
     * 320 KB (2 rows of {@link #PAPER_COLUMNS} counters), but tofino1 has no divider: a row's
     * index is a mask of the hash bits, so the row width is a power of two, and 32,768 is the
     * nearest one (the compiler refuses {@code % 40960} on tofino1).
     */
    public static final int DEFAULT_ROWS = 2;
    public static final int DEFAULT_COLUMNS = 32_768;
    /** The paper's row width at 320 KB per sketch (2 rows); runs only where the target has a divider. */
    public static final int PAPER_COLUMNS = 40_960;
    /** Report every flow with a positive estimate; the collector applies the final threshold. */
    public static final long DEFAULT_LOSS_THRESHOLD = 1;
    public static final long DEFAULT_BURST_THRESHOLD = 1_000;
    /**
     * Water marks in 80 B cells: h = 1,250 cells (100 KB), l = 125 cells (10 KB), l ≪ h as
     * the paper asks; modelling choices scaled to the default 12,500-cell queue limit.
     */
    public static final long DEFAULT_HIGH_WATER = 1_250;
    public static final long DEFAULT_LOW_WATER = 125;
    public static final int DEFAULT_DATA_PORT = 1;
    public static final int DEFAULT_COLLECTOR_PORT = 2;
    /** One pipe and one queue: the paper's single FIFO queue (section 2, "In-flow FIFO"). */
    public static final int DEFAULT_PIPES = 1;
    public static final int DEFAULT_QUEUES = 1;
    /** tofino1's front-panel ports per pipe (its profile's {@code portsPerPipe}). */
    public static final int DEFAULT_PORTS_PER_PIPE = 16;
    /** Most pipes: tofino1 and tofino2 have 4. */
    public static final int MAX_PIPES = 4;
    /** Most queues a port gives MIDST: Tofino's 32 queues per port. */
    public static final int MAX_QUEUES = 32;

    /** One pipe, one queue (the single-FIFO deployment). */
    public MidstConfig(int rows, int columns, long lossThreshold, long burstThreshold, long highWater, long lowWater,
                       int dataPort, int collectorPort, boolean dirtyWords) {
        this(rows, columns, lossThreshold, burstThreshold, highWater, lowWater, dataPort, collectorPort, dirtyWords,
                DEFAULT_PIPES, DEFAULT_QUEUES, DEFAULT_PORTS_PER_PIPE);
    }

    public MidstConfig {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new UserError("midst: rows must be 1.." + MAX_ROWS + " (one stateful ALU per row per stage), got " + rows);
        }
        if (columns < COUNTERS_PER_DIRTY_WORD || columns % COUNTERS_PER_DIRTY_WORD != 0) {
            throw new UserError("midst: columns must be a positive multiple of " + COUNTERS_PER_DIRTY_WORD + ", got " + columns);
        }
        if (lossThreshold < 1 || burstThreshold < 1) {
            throw new UserError("midst: thresholds must be at least 1");
        }
        if (lowWater < 0 || highWater <= lowWater) {
            throw new UserError("midst: need 0 <= low water (" + lowWater + ") < high water (" + highWater + ")");
        }
        if (dataPort == collectorPort || dataPort < 0 || collectorPort < 0) {
            throw new UserError("midst: data port and collector port must be distinct front-panel ports");
        }
        if (pipes < 1 || pipes > MAX_PIPES || Integer.bitCount(pipes) != 1) {
            throw new UserError("midst: pipes must be a power of two from 1 to " + MAX_PIPES
                    + " (the pipe is a bit field of a sketch index), got " + pipes);
        }
        if (queues < 1 || queues > MAX_QUEUES || Integer.bitCount(queues) != 1) {
            throw new UserError("midst: queues must be a power of two from 1 to " + MAX_QUEUES
                    + " (the queue is a bit field of a sketch index), got " + queues);
        }
        if (portsPerPipe < 1 || Integer.bitCount(portsPerPipe) != 1) {
            throw new UserError("midst: ports_per_pipe must be a power of two (the pipe is the port number shifted), got "
                    + portsPerPipe);
        }
        int parts = pipes * queues;
        if (parts > 1 && (Integer.bitCount(columns) != 1 || columns / parts < COUNTERS_PER_DIRTY_WORD)) {
            throw new UserError("midst: with " + pipes + " pipes x " + queues + " queues, columns must be a power of two"
                    + " of at least " + parts * COUNTERS_PER_DIRTY_WORD + " (each of the " + parts
                    + " partitions of a row holds whole dirty words), got " + columns);
        }
        if (pipes > 1 && dataPort >= portsPerPipe) {
            throw new UserError("midst: with " + pipes + " pipes the data port names the port of pipe 0 (below "
                    + portsPerPipe + "); pipe j monitors port + j x " + portsPerPipe + ", got port " + dataPort);
        }
        if (pipes > 1 && collectorPort % portsPerPipe == dataPort && collectorPort / portsPerPipe < pipes) {
            throw new UserError("midst: collector port " + collectorPort + " is the monitored port of pipe "
                    + collectorPort / portsPerPipe);
        }
    }

    public static MidstConfig defaults() {
        return new MidstConfig(DEFAULT_ROWS, DEFAULT_COLUMNS, DEFAULT_LOSS_THRESHOLD, DEFAULT_BURST_THRESHOLD,
                DEFAULT_HIGH_WATER, DEFAULT_LOW_WATER, DEFAULT_DATA_PORT, DEFAULT_COLLECTOR_PORT, true);
    }

    /** Partitions of every sketch row and of the per-queue state: P · Q. */
    public int partitions() {
        return pipes * queues;
    }

    /** Counters of a row in one partition (a power of two when there is more than one partition). */
    public int partitionColumns() {
        return columns / partitions();
    }

    /** Cleaning steps per row in one partition. */
    public int partitionSteps() {
        return cleaningSteps() / partitions();
    }

    /** Monitored port of egress pipe {@code j}. */
    public int dataPort(int j) {
        return dataPort + j * portsPerPipe;
    }

    /** Partition (j, q) of a data packet's S_in cells, from its destination address. */
    public int partitionOf(int dstIpv4) {
        return dstIpv4 & (partitions() - 1);
    }

    /**
     * Row width for a sketch of {@code kilobytes} KB (of 32-bit counters) spread over {@code rows}
     * rows, rounded down to a power of two (an index is a mask of hash bits on targets without a
     * divider) and at least one dirty word: the paper's 160 / 320 / 640 / 1,280 KB become
     * 128 / 256 / 512 / 1,024 KB with 2 rows.
     */
    public static int columnsFor(int kilobytes, int rows) {
        int counters = kilobytes * 1024 / (COUNTER_BITS / 8) / rows;
        return Math.max(COUNTERS_PER_DIRTY_WORD, Integer.highestOneBit(Math.max(1, counters)));
    }

    /** KB of counters in one sketch (S_in; S_out is the same). */
    public int sketchKb() {
        return (int) (sketchBytes() / 1024);
    }

    /** Dirty words per row: W = c / 32. */
    public int dirtyWordCount() {
        return columns / COUNTERS_PER_DIRTY_WORD;
    }

    /** What one cleaning step zeroes per row: a dirty word (W of them) or, without dirty words, a counter (c). */
    public int cleaningSteps() {
        return dirtyWords ? dirtyWordCount() : columns;
    }

    /** Bytes of counters in one sketch. */
    public long sketchBytes() {
        return (long) rows * columns * (COUNTER_BITS / 8);
    }

    public MidstConfig withRows(int r, int c) {
        return new MidstConfig(r, c, lossThreshold, burstThreshold, highWater, lowWater, dataPort, collectorPort, dirtyWords, pipes, queues, portsPerPipe);
    }

    public MidstConfig withWaterMarks(long h, long l) {
        return new MidstConfig(rows, columns, lossThreshold, burstThreshold, h, l, dataPort, collectorPort, dirtyWords, pipes, queues, portsPerPipe);
    }

    public MidstConfig withThresholds(long loss, long burst) {
        return new MidstConfig(rows, columns, loss, burst, highWater, lowWater, dataPort, collectorPort, dirtyWords, pipes, queues, portsPerPipe);
    }

    public MidstConfig withDirtyWords(boolean on) {
        return new MidstConfig(rows, columns, lossThreshold, burstThreshold, highWater, lowWater, dataPort, collectorPort, on, pipes, queues, portsPerPipe);
    }

    /** The same sketches partitioned over {@code p} pipes and {@code q} queues of each monitored port. */
    public MidstConfig withPipesAndQueues(int p, int q, int ports) {
        return new MidstConfig(rows, columns, lossThreshold, burstThreshold, highWater, lowWater, dataPort, collectorPort,
                dirtyWords, p, q, ports);
    }
}

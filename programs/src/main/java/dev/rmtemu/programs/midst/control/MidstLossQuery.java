package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstHashes;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.hash.Crc;

import java.util.ArrayList;
import java.util.List;

/**
 * The control plane's end-of-interval query of S_loss = S_in − S_out: it reads both
 * sketches of a pipe through the register API (a counter whose dirty bit is clear is
 * logically zero: the data plane would reset it on its next write) and answers, for a
 * flow, min_i(S_in[i][h_i] − S_out[i][h_i]) — the minimum of differences, never below the
 * flow's true loss in the interval. Bursty flows are the heavy hitters of S_in
 * (min_i S_in[i][h_i]).
 *
 * <p>A count-min sketch cannot list its keys, so heavy losers and bursty flows are found
 * among candidate flows the caller supplies (flows seen on the wire, or a trace's flows).
 *
 * <p>Intervals are the control plane's: with monitoring held on ({@link MidstSwitch#monitorAlways()})
 * nothing cleans the sketches and counters only grow, so the sketch of an interval is the
 * counter-wise difference of the snapshots at its ends ({@link #minus}, modulo 2^32). Take
 * snapshots when the queue is empty: a packet still queued at the boundary counts as lost in
 * the interval that ends while it waits (an overestimate, never an underestimate; the next
 * interval's difference saturates at zero instead of taking it back). Under reactive monitoring the data plane starts
 * cleaning as soon as the interval ends, so this query is not for that mode; there MIDST's
 * per-packet reports ({@link MidstCollector}) are the answer.
 */
public final class MidstLossQuery {
    private static final long COUNTER_MASK = (1L << MidstConfig.COUNTER_BITS) - 1;

    /** An IPv4 5-tuple. */
    public record FlowKey(int src, int dst, int proto, int srcPort, int dstPort) {
    }

    /** A flow's answer: its S_loss estimate and its S_in estimate. */
    public record FlowEstimate(FlowKey flow, long loss, long arrivals) {
    }

    private final int rows;
    private final int columns;
    private final Crc[] hashes;
    /** in[i][j], out[i][j]: live counter values (stale ones read as 0). */
    private final long[][] in;
    private final long[][] out;

    private MidstLossQuery(int rows, int columns, long[][] in, long[][] out) {
        this.rows = rows;
        this.columns = columns;
        this.hashes = new Crc[rows];
        for (int i = 0; i < rows; i++) {
            hashes[i] = MidstHashes.row(i);
        }
        this.in = in;
        this.out = out;
    }

    /** Reads S_in and S_out of the switch's MIDST pipe now (between packets: call it from a control op or after a drain). */
    public static MidstLossQuery read(MidstSwitch sw) {
        return read(sw.engine(), sw.pipeline().config, sw.pipe());
    }

    public static MidstLossQuery read(SwitchEngine engine, MidstConfig cfg, int pipe) {
        long[][] in = new long[cfg.rows()][];
        long[][] out = new long[cfg.rows()][];
        for (int i = 0; i < cfg.rows(); i++) {
            in[i] = live(engine, cfg, pipe, MidstPipeline.inCount(i), MidstPipeline.inDirty(i));
            out[i] = live(engine, cfg, pipe, MidstPipeline.outCount(i), MidstPipeline.outDirty(i));
        }
        return new MidstLossQuery(cfg.rows(), cfg.columns(), in, out);
    }

    /**
     * Reads the sketches of every pipe and adds them up: S_in counts a packet in its input
     * port's pipe, S_out in the monitored port's pipe, and counters of the same shape and
     * hashes add. (The per-packet estimate needs both in one pipe; this query does not.)
     */
    public static MidstLossQuery readAllPipes(SwitchEngine engine, MidstConfig cfg) {
        long[][] in = new long[cfg.rows()][cfg.columns()];
        long[][] out = new long[cfg.rows()][cfg.columns()];
        for (int pipe = 0; pipe < engine.state().pipes(); pipe++) {
            for (int i = 0; i < cfg.rows(); i++) {
                long[] a = live(engine, cfg, pipe, MidstPipeline.inCount(i), MidstPipeline.inDirty(i));
                long[] b = live(engine, cfg, pipe, MidstPipeline.outCount(i), MidstPipeline.outDirty(i));
                for (int j = 0; j < cfg.columns(); j++) {
                    in[i][j] += a[j];
                    out[i][j] += b[j];
                }
            }
        }
        return new MidstLossQuery(cfg.rows(), cfg.columns(), in, out);
    }

    /**
     * With P · Q partitions ({@link MidstConfig#partitions()} &gt; 1): S_loss of flow {@code f} that
     * entered in ingress pipe {@code inPipe}, min_i(S_in − S_out) over the rows, where S_in is read in
     * pipe {@code inPipe} at cell (j, q, h_i) and S_out in egress pipe j at cell (inPipe, q, h_i); j and q
     * are the flow's destination bits. The two cells hold exactly the same packet stream of the flow's
     * partition, so with no colliding flow the answer is the flow's loss.
     */
    public static long partitionedLoss(SwitchEngine engine, MidstConfig cfg, FlowKey f, int inPipe) {
        int[] cells = partitionedCells(cfg, f, inPipe);
        int j = cfg.partitionOf(f.dst()) / cfg.queues();
        long min = Long.MAX_VALUE;
        for (int r = 0; r < cfg.rows(); r++) {
            long in = live(engine, cfg, inPipe, MidstPipeline.inCount(r), MidstPipeline.inDirty(r))[cells[2 * r]];
            long out = live(engine, cfg, j, MidstPipeline.outCount(r), MidstPipeline.outDirty(r))[cells[2 * r + 1]];
            min = Math.min(min, Math.max(0, in - out));
        }
        return min;
    }

    /** Per row, the S_in cell and the S_out cell of flow {@code f} from ingress pipe {@code inPipe}: [in_0, out_0, in_1, ...]. */
    public static int[] partitionedCells(MidstConfig cfg, FlowKey f, int inPipe) {
        int width = cfg.partitionColumns();
        int part = cfg.partitionOf(f.dst());
        int q = part % cfg.queues();
        int[] cells = new int[2 * cfg.rows()];
        for (int r = 0; r < cfg.rows(); r++) {
            int h = MidstHashes.index(MidstHashes.row(r), width, f.src(), f.dst(), f.proto(), f.srcPort(), f.dstPort());
            cells[2 * r] = part * width + h;
            cells[2 * r + 1] = (inPipe * cfg.queues() + q) * width + h;
        }
        return cells;
    }

    private static long[] live(SwitchEngine engine, MidstConfig cfg, int pipe, String counters, String dirty) {
        long[] c = engine.state().snapshot(pipe, counters);
        if (cfg.dirtyWords()) {
            long[] words = engine.state().snapshot(pipe, dirty);
            for (int j = 0; j < c.length; j++) {
                long bit = 1L << (j % MidstConfig.COUNTERS_PER_DIRTY_WORD);
                if ((words[j / MidstConfig.COUNTERS_PER_DIRTY_WORD] & bit) == 0) {
                    c[j] = 0;
                }
            }
        }
        return c;
    }

    /** The sketches of the interval between {@code earlier} and this snapshot (counters wrap at 2^32). */
    public MidstLossQuery minus(MidstLossQuery earlier) {
        if (earlier.rows != rows || earlier.columns != columns) {
            throw new IllegalArgumentException("snapshots of different sketch shapes");
        }
        long[][] di = new long[rows][columns];
        long[][] dout = new long[rows][columns];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                di[i][j] = (in[i][j] - earlier.in[i][j]) & COUNTER_MASK;
                dout[i][j] = (out[i][j] - earlier.out[i][j]) & COUNTER_MASK;
            }
        }
        return new MidstLossQuery(rows, columns, di, dout);
    }

    /** S_loss for a flow: min_i(S_in − S_out) at the flow's counters, each difference saturating at 0. */
    public long loss(FlowKey f) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < rows; i++) {
            int j = index(i, f);
            min = Math.min(min, Math.max(0, in[i][j] - out[i][j]));
        }
        return min;
    }

    /** S_in for a flow: min_i S_in (the count-min estimate of its arrivals in the interval). */
    public long arrivals(FlowKey f) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < rows; i++) {
            min = Math.min(min, in[i][index(i, f)]);
        }
        return min;
    }

    /** Candidates whose S_loss estimate is at least {@code threshold}, in the candidates' order. */
    public List<FlowEstimate> heavyLosers(List<FlowKey> candidates, long threshold) {
        List<FlowEstimate> outList = new ArrayList<>();
        for (FlowKey f : candidates) {
            long l = loss(f);
            if (l >= threshold) {
                outList.add(new FlowEstimate(f, l, arrivals(f)));
            }
        }
        return outList;
    }

    /** Candidates whose S_in estimate is at least {@code threshold} (heavy hitters of S_in), in the candidates' order. */
    public List<FlowEstimate> burstyFlows(List<FlowKey> candidates, long threshold) {
        List<FlowEstimate> outList = new ArrayList<>();
        for (FlowKey f : candidates) {
            long a = arrivals(f);
            if (a >= threshold) {
                outList.add(new FlowEstimate(f, loss(f), a));
            }
        }
        return outList;
    }

    /** Live counter value of S_in row {@code row} (for tests and reports). */
    public long inCounter(int row, int column) {
        return in[row][column];
    }

    public long outCounter(int row, int column) {
        return out[row][column];
    }

    private int index(int row, FlowKey f) {
        return MidstHashes.index(hashes[row], columns, f.src(), f.dst(), f.proto(), f.srcPort(), f.dstPort());
    }
}

package dev.rmtemu.programs.midst.reference;

import dev.rmtemu.programs.midst.program.MidstConfig;
import dev.rmtemu.programs.midst.program.MidstHashes;
import dev.rmtemu.programs.midst.program.MidstPipeline;

import java.util.Arrays;
import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.traces.PacketRecord;

/**
 * MIDST's sketches in plain Java, no pipeline: S_in and S_out as r × c count-min arrays
 * with the same row hashes as {@link MidstPipeline}, the loss estimate as the minimum of
 * differences, and bursty flows from S_in. The test oracle and the speed baseline.
 * Cleaning here is a plain {@link #reset()} (the data-plane mechanism is what the
 * pipeline models).
 */
public final class MidstReference {
    private final int rows;
    private final int columns;
    private final Crc[] hashes;
    private final long[][] in;
    private final long[][] out;
    private static final long COUNTER_MASK = (1L << MidstConfig.COUNTER_BITS) - 1;

    public MidstReference(MidstConfig cfg) {
        this.rows = cfg.rows();
        this.columns = cfg.columns();
        this.hashes = new Crc[rows];
        for (int i = 0; i < rows; i++) {
            hashes[i] = MidstHashes.row(i);
        }
        this.in = new long[rows][columns];
        this.out = new long[rows][columns];
    }

    public int rows() {
        return rows;
    }

    /** The counter index of row {@code row} for a packet's IPv4 5-tuple (as the hash unit sees it). */
    public int index(int row, PacketRecord r) {
        return index(row, r.srcIpv4(), r.dstIpv4(), r.protocol(), r.srcPort(), r.dstPort());
    }

    public int index(int row, int src, int dst, int proto, int srcPort, int dstPort) {
        return MidstHashes.index(hashes[row], columns, src, dst, proto, srcPort, dstPort);
    }

    /** Ingress: counts the packet in S_in; fills {@code idx} and {@code u} (the bridged header) and returns min_i u_i. */
    public long ingress(PacketRecord r, int[] idx, long[] u) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < rows; i++) {
            int j = index(i, r);
            idx[i] = j;
            long c = (in[i][j] + 1) & COUNTER_MASK;
            in[i][j] = c;
            u[i] = c;
            min = Math.min(min, c);
        }
        return min;
    }

    /** Egress: counts the packet in S_out at the bridged indices and returns min_i(u_i − v_i), saturating at 0. */
    public long egress(int[] idx, long[] u) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < rows; i++) {
            int j = idx[i];
            long v = (out[i][j] + 1) & COUNTER_MASK;
            out[i][j] = v;
            min = Math.min(min, Math.max(0, u[i] - v));
        }
        return min;
    }

    /** The paper's estimator on its own: the minimum of the row differences (not the difference of the minimums). */
    public static long minOfDifferences(long[] u, long[] v) {
        if (u.length != v.length || u.length == 0) {
            throw new IllegalArgumentException("u and v need the same, non-zero number of rows");
        }
        long min = Long.MAX_VALUE;
        for (int i = 0; i < u.length; i++) {
            min = Math.min(min, Math.max(0, u[i] - v[i]));
        }
        return min;
    }

    /** The control-plane query of S_loss = S_in − S_out for one flow at the current state. */
    public long lossEstimate(int src, int dst, int proto, int srcPort, int dstPort) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < rows; i++) {
            int j = index(i, src, dst, proto, srcPort, dstPort);
            min = Math.min(min, Math.max(0, in[i][j] - out[i][j]));
        }
        return min;
    }

    public long inCounter(int row, int column) {
        return in[row][column];
    }

    public long outCounter(int row, int column) {
        return out[row][column];
    }

    public void reset() {
        for (int i = 0; i < rows; i++) {
            Arrays.fill(in[i], 0);
            Arrays.fill(out[i], 0);
        }
    }
}

package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.IbfDigest;
import dev.rmtemu.programs.lossradar.program.LossRadarConfig;
import dev.rmtemu.programs.lossradar.program.LossRadarProgram;
import dev.rmtemu.programs.lossradar.program.MeterDigest;
import dev.rmtemu.programs.lossradar.reference.LossRadarMeter;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.model.runtime.PipelineState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The control-plane half on one switch: closes batches and exports their digests
 * to the export journal. It polls at fixed ticks (control-plane operations at set
 * cycles). UM: batch b is closed at the first tick at or after (b + 1)·T, when no
 * packet can be stamped b any more. DM: the slot's pair register holds the first
 * packet's time and batch ID; the batch closes at the first tick at least
 * T + timeout after that first packet. Closing reads the slot's cells of every
 * port from the register arrays, writes one message per non-empty digest, and
 * zeroes the cells (and the DM's batch state) for the batch that reuses the slot.
 *
 * <p>Both meters run in ingress, and register arrays exist once per pipe. The DM
 * meters the packets arriving on port p, so its cells live in p's pipe. The UM meters
 * the packets leaving on port p, which arrive on any port: each ingress pipe holds
 * the part of p's digest that its own input ports sent, so closing a UM digest merges
 * the cells of every pipe (counts added, xorSums XORed: the union of disjoint packet
 * sets, as the IBF's linearity allows) and zeroes them all.
 */
public final class LossRadarExport {
    public static final String KIND_DIGEST = "lossradar.digest";
    /** role (1), port (2), batch (4), k (1), m (4), words (1), meter (1), then per cell count and xorSum words (4 B each). */
    public static final int HEADER_BYTES = 14;

    private final SwitchEngine sw;
    private final LossRadarConfig c;
    private final LossRadarProgram.Role role;
    private final ExportJournal journal;
    private final int switchId;
    private final int kind;
    private final UnsafeBuffer buf;
    private long umNext;
    private long exported;

    public LossRadarExport(SwitchEngine sw, LossRadarConfig c, LossRadarProgram.Role role, ExportJournal journal, int switchId) {
        this.sw = sw;
        this.c = c;
        this.role = role;
        this.journal = journal;
        this.switchId = switchId;
        this.kind = journal.kinds().id(KIND_DIGEST);
        if (kind < 0) {
            throw new IllegalStateException("lossradar journal kind not registered (call registerKinds first)");
        }
        this.buf = new UnsafeBuffer(new byte[HEADER_BYTES + c.digestBytes()]);
        this.umNext = -1;
    }

    public static void registerKinds(JournalKinds kinds) {
        kinds.register(KIND_DIGEST);
    }

    /** Schedules polls every {@code tickNs} from {@code tickNs} through {@code untilNs}. */
    public void scheduleTicks(long tickNs, long untilNs) {
        for (long t = tickNs; t <= untilNs; t += tickNs) {
            sw.scheduleControl(sw.clock().nsToCycles(t), this::tick);
        }
    }

    /** One poll at {@code cycle}. */
    public void tick(PipelineState state, long cycle) {
        long ns = sw.clock().cyclesToNs(cycle);
        if (role != LossRadarProgram.Role.DM) {
            long current = ns >>> c.batchShift();
            if (umNext < 0) {
                umNext = Math.max(0, current - 1);
            }
            while (umNext < current) {
                for (int p = 0; p < c.ports(); p++) {
                    close(state, cycle, MeterDigest.UM, p, (int) (umNext & 1), umNext & LossRadarMeter.batchMask(), 0);
                }
                umNext++;
            }
        }
        if (role != LossRadarProgram.Role.UM) {
            long now = (ns >>> LossRadarProgram.STAMP_SHIFT) & LossRadarProgram.STAMP_MASK;
            long wait = (c.batchNs() + c.timeoutNs()) >>> LossRadarProgram.STAMP_SHIFT;
            closeDm(state, cycle, now, wait);
        }
    }

    /** Closes every batch still open (end of a run). */
    public void flush(PipelineState state, long cycle) {
        if (role != LossRadarProgram.Role.DM) {
            long ns = sw.clock().cyclesToNs(cycle);
            long current = ns >>> c.batchShift();
            long from = umNext < 0 ? Math.max(0, current - 1) : umNext;
            for (long b = from; b <= current; b++) {
                for (int p = 0; p < c.ports(); p++) {
                    close(state, cycle, MeterDigest.UM, p, (int) (b & 1), b & LossRadarMeter.batchMask(), 0);
                }
            }
            umNext = current + 1;
        }
        if (role != LossRadarProgram.Role.UM) {
            closeDm(state, cycle, Long.MAX_VALUE, 0);
        }
    }

    private void closeDm(PipelineState state, long cycle, long now, long wait) {
        int nPort = c.ports();
        // the older batch of a port first, so the journal lists batches in order
        for (int p = 0; p < nPort; p++) {
            int pipe = sw.config().pipeOf(p);
            long[] first = new long[LossRadarConfig.BATCH_SLOTS];
            long[] batch = new long[LossRadarConfig.BATCH_SLOTS];
            for (int s = 0; s < LossRadarConfig.BATCH_SLOTS; s++) {
                first[s] = state.readRegister(pipe, LossRadarProgram.DM_BATCH_ARRAY, LossRadarProgram.stateIndex(c, s, p));
                batch[s] = state.readRegisterHi(pipe, LossRadarProgram.DM_BATCH_ARRAY, LossRadarProgram.stateIndex(c, s, p));
            }
            int order = first[1] != 0 && (first[0] == 0 || first[1] < first[0]) ? 1 : 0;
            for (int i = 0; i < LossRadarConfig.BATCH_SLOTS; i++) {
                int s = i == 0 ? order : 1 - order;
                if (first[s] != 0 && (now == Long.MAX_VALUE || now - (first[s] - 1) >= wait)) {
                    for (int u = 0; u < c.upstreamDigests(); u++) {
                        close(state, cycle, MeterDigest.DM, p, s, batch[s], u);
                    }
                    state.writeRegister(pipe, LossRadarProgram.DM_BATCH_ARRAY, LossRadarProgram.stateIndex(c, s, p), 0, 0);
                }
            }
        }
    }

    private void close(PipelineState state, long cycle, int meterRole, int port, int slot, long batch, int upstream) {
        int k = c.hashes();
        int m = c.cellsPerHash();
        int words = c.words();
        int pipe = sw.config().pipeOf(port);
        // the DM's cells are in the arrival port's pipe; the UM's are spread over every ingress pipe
        int fromPipe = meterRole == MeterDigest.UM ? 0 : pipe;
        int toPipe = meterRole == MeterDigest.UM ? sw.config().pipes() - 1 : pipe;
        int base = LossRadarProgram.cellIndex(c, meterRole, slot, upstream, port, 0);
        int at = HEADER_BYTES;
        boolean empty = true;
        for (int j = 0; j < k; j++) {
            for (int i = 0; i < m; i++) {
                int idx = base + i;
                String countArray = LossRadarProgram.arrayName(meterRole, j, words, words);
                int count = 0;
                for (int q = fromPipe; q <= toPipe; q++) {
                    count += (int) state.readRegister(q, countArray, idx);
                    state.writeRegister(q, countArray, idx, 0, 0);
                }
                buf.putInt(at, count);
                at += Integer.BYTES;
                empty &= count == 0;
                for (int w = 0; w < words; w++) {
                    String name = LossRadarProgram.arrayName(meterRole, j, w, words);
                    int x = 0;
                    for (int q = fromPipe; q <= toPipe; q++) {
                        x ^= (int) state.readRegister(q, name, idx);
                        state.writeRegister(q, name, idx, 0, 0);
                    }
                    buf.putInt(at, x);
                    at += Integer.BYTES;
                    empty &= x == 0;
                }
            }
        }
        if (empty) {
            return;
        }
        buf.putByte(0, (byte) meterRole);
        buf.putShort(1, (short) port);
        buf.putInt(3, (int) batch);
        buf.putByte(7, (byte) k);
        buf.putInt(8, m);
        buf.putByte(12, (byte) words);
        buf.putByte(13, (byte) (meterRole == MeterDigest.UM ? c.meterId() : upstream));
        journal.append(kind, cycle, switchId, pipe, buf, 0, at);
        exported++;
    }

    /** Digest messages written. */
    public long exported() {
        return exported;
    }

    /** Decodes one digest message (the collector's side). */
    public static MeterDigest decode(int switchId, DirectBuffer payload, int offset) {
        int meterRole = payload.getByte(offset);
        int port = payload.getShort(offset + 1) & 0xFFFF;
        long batch = payload.getInt(offset + 3) & 0xFFFFFFFFL;
        int k = payload.getByte(offset + 7);
        int m = payload.getInt(offset + 8);
        int words = payload.getByte(offset + 12);
        int meter = payload.getByte(offset + 13) & 0xFF;
        IbfDigest d = new IbfDigest(k, m, words);
        int at = offset + HEADER_BYTES;
        for (int cell = 0; cell < k * m; cell++) {
            d.setCount(cell, payload.getInt(at));
            at += Integer.BYTES;
            for (int w = 0; w < words; w++) {
                d.setXorWord(cell, w, payload.getInt(at));
                at += Integer.BYTES;
            }
        }
        return new MeterDigest(switchId, meterRole, port, batch, d, meter);
    }
}

package dev.rmtemu.programs.lds.control;

import dev.rmtemu.programs.lds.program.LdsConfig;
import dev.rmtemu.programs.lds.program.LdsIntervals;
import dev.rmtemu.programs.lds.program.LdsPipeline;

import dev.rmtemu.model.UserError;
import java.util.TreeMap;
import dev.rmtemu.emulator.journal.ExportJournal;
import dev.rmtemu.emulator.journal.JournalKinds;
import dev.rmtemu.emulator.journal.JournalReader;
import dev.rmtemu.model.runtime.PipelineState;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The control-plane halves of LDS: reads a sketch back from a switch's registers (joining
 * s_lo/s_hi and the n/d pair), exports the sender's sketch to the export journal at the end
 * of an interval, and rebuilds it from the journal at the receiver's side.
 *
 * <p>Journal message {@value #KIND_SENDER_SKETCH}: one per chunk of up to
 * {@value #CHUNK_CELLS} cells of a row, little-endian: interval (int), row (int), first cell
 * (int), cells (int), then per cell s (long), n (int), d (int).
 */
public final class LdsCollector {
    public static final String KIND_SENDER_SKETCH = "lds.sender_sketch";
    /**
     * The receiver's bank of a closed interval, recorded by its control plane in the same
     * layout so a replay's report can estimate after the run.
     */
    public static final String KIND_RECEIVER_SKETCH = "lds.receiver_sketch";
    public static final int CHUNK_CELLS = 1024;
    static final int HEADER_BYTES = 16;
    static final int CELL_BYTES = 16;

    private LdsCollector() {
    }

    /** Registers the journal kind (before the journal is created). */
    public static void registerKinds(JournalKinds kinds) {
        kinds.register(KIND_SENDER_SKETCH);
    }

    /** Registers both kinds a replay's control plane writes (sender and receiver sketches). */
    public static void registerReplayKinds(JournalKinds kinds) {
        kinds.register(KIND_SENDER_SKETCH);
        kinds.register(KIND_RECEIVER_SKETCH);
    }

    /**
     * The sender (ingress) or receiver (egress) sketch of both banks together (the sketch is
     * linear): everything since the last reset, whatever the intervals.
     */
    public static LdsSketch read(PipelineState state, int pipe, LdsConfig cfg, boolean sender) {
        LdsSketch s = read(state, pipe, cfg, sender, 0);
        for (int bank = 1; bank < LdsIntervals.BANKS; bank++) {
            s.mergeFrom(read(state, pipe, cfg, sender, bank));
        }
        return s;
    }

    /** The sender or receiver sketch held in one bank of {@code pipe}'s registers. */
    public static LdsSketch read(PipelineState state, int pipe, LdsConfig cfg, boolean sender, int bank) {
        LdsSketch s = new LdsSketch(cfg);
        for (int r = 0; r < cfg.rows(); r++) {
            long[] lo = state.snapshot(pipe, LdsPipeline.sLo(sender, r));
            long[] hi = state.snapshot(pipe, LdsPipeline.sHi(sender, r));
            long[] n = state.snapshot(pipe, LdsPipeline.countDigest(sender, r));
            long[] d = state.snapshotHi(pipe, LdsPipeline.countDigest(sender, r));
            for (int c = 0; c < cfg.cells(); c++) {
                int i = LdsPipeline.registerIndex(c, bank);
                s.set(r, c, (hi[i] << 32) | (lo[i] & LdsPipeline.WORD_MASK), n[i], d[i]);
            }
        }
        return s;
    }

    /** Zeroes one bank of one end's arrays in {@code pipe} (the control plane, once the bank's interval is read). */
    public static void clearBank(PipelineState state, int pipe, LdsConfig cfg, boolean sender, int bank) {
        for (int r = 0; r < cfg.rows(); r++) {
            for (int c = 0; c < cfg.cells(); c++) {
                int i = LdsPipeline.registerIndex(c, bank);
                state.writeRegister(pipe, LdsPipeline.sLo(sender, r), i, 0, 0);
                state.writeRegister(pipe, LdsPipeline.sHi(sender, r), i, 0, 0);
                state.writeRegister(pipe, LdsPipeline.countDigest(sender, r), i, 0, 0);
            }
        }
    }

    /** Appends the sender sketch for {@code interval}; returns the messages written. */
    public static int export(LdsSketch s, int interval, ExportJournal journal, long cycle, int switchId, int pipe) {
        return export(s, KIND_SENDER_SKETCH, interval, journal, cycle, switchId, pipe);
    }

    /** Appends sketch {@code s} of {@code interval} as messages of {@code kindName}; returns the messages written. */
    public static int export(LdsSketch s, String kindName, int interval, ExportJournal journal, long cycle, int switchId, int pipe) {
        int kind = journal.kinds().id(kindName);
        if (kind < 0) {
            throw new IllegalStateException("lds journal kind not registered (call registerKinds first)");
        }
        LdsConfig cfg = s.config();
        UnsafeBuffer buf = new UnsafeBuffer(new byte[HEADER_BYTES + CHUNK_CELLS * CELL_BYTES]);
        int messages = 0;
        for (int r = 0; r < cfg.rows(); r++) {
            for (int first = 0; first < cfg.cells(); first += CHUNK_CELLS) {
                int count = Math.min(CHUNK_CELLS, cfg.cells() - first);
                buf.putInt(0, interval, ByteOrder.LITTLE_ENDIAN);
                buf.putInt(4, r, ByteOrder.LITTLE_ENDIAN);
                buf.putInt(8, first, ByteOrder.LITTLE_ENDIAN);
                buf.putInt(12, count, ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < count; i++) {
                    int at = HEADER_BYTES + i * CELL_BYTES;
                    buf.putLong(at, s.sum(r, first + i), ByteOrder.LITTLE_ENDIAN);
                    buf.putInt(at + 8, (int) s.count(r, first + i), ByteOrder.LITTLE_ENDIAN);
                    buf.putInt(at + 12, (int) s.digest(r, first + i), ByteOrder.LITTLE_ENDIAN);
                }
                journal.append(kind, cycle, switchId, pipe, buf, 0, HEADER_BYTES + count * CELL_BYTES);
                messages++;
            }
        }
        return messages;
    }

    /** The sender sketch of {@code interval} from switch {@code switchId}, rebuilt from the journal in {@code dir}. */
    public static LdsSketch importSender(Path dir, LdsConfig cfg, int interval, int switchId) {
        LdsSketch s = new LdsSketch(cfg);
        try (JournalReader reader = JournalReader.open(dir)) {
            reader.tail((kind, cycle, sw, pipe, payload, offset, length) -> {
                if (!KIND_SENDER_SKETCH.equals(reader.kinds().name(kind)) || sw != switchId) {
                    return;
                }
                decode(payload, offset, length, interval, s);
            });
        }
        return s;
    }

    /**
     * Every interval's sketch of {@code kindName} from switch {@code switchId} in the journal
     * in {@code dir}, by interval, in one pass.
     */
    public static TreeMap<Integer, LdsSketch> importAll(Path dir, LdsConfig cfg, String kindName, int switchId) {
        TreeMap<Integer, LdsSketch> out = new TreeMap<>();
        try (JournalReader reader = JournalReader.open(dir)) {
            reader.tail((kind, cycle, sw, pipe, payload, offset, length) -> {
                if (!kindName.equals(reader.kinds().name(kind)) || sw != switchId) {
                    return;
                }
                int interval = payload.getInt(offset, ByteOrder.LITTLE_ENDIAN);
                decode(payload, offset, length, interval, out.computeIfAbsent(interval, i -> new LdsSketch(cfg)));
            });
        }
        return out;
    }

    static void decode(DirectBuffer p, int offset, int length, int interval, LdsSketch into) {
        if (p.getInt(offset, ByteOrder.LITTLE_ENDIAN) != interval) {
            return;
        }
        int row = p.getInt(offset + 4, ByteOrder.LITTLE_ENDIAN);
        int first = p.getInt(offset + 8, ByteOrder.LITTLE_ENDIAN);
        int count = p.getInt(offset + 12, ByteOrder.LITTLE_ENDIAN);
        if (length != HEADER_BYTES + count * CELL_BYTES || row >= into.config().rows() || first + count > into.config().cells()) {
            throw new UserError("lds: malformed sender-sketch message (row " + row + ", cells " + first
                    + "+" + count + ", " + length + " bytes) for a sketch of " + into.config().rows() + " x "
                    + into.config().cells());
        }
        for (int i = 0; i < count; i++) {
            int at = offset + HEADER_BYTES + i * CELL_BYTES;
            into.set(row, first + i, p.getLong(at, ByteOrder.LITTLE_ENDIAN),
                    p.getInt(at + 8, ByteOrder.LITTLE_ENDIAN) & LdsSketch.WORD_MASK,
                    p.getInt(at + 12, ByteOrder.LITTLE_ENDIAN) & LdsSketch.WORD_MASK);
        }
    }
}

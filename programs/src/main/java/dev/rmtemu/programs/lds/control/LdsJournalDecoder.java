package dev.rmtemu.programs.lds.control;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code rmtemu collect --json} for LDS: a sender or receiver sketch message as its interval,
 * row and the cells it carries (timestamp sum, count, XOR digest), in the layout
 * {@link LdsCollector} writes and reads.
 */
public final class LdsJournalDecoder implements JournalDecoder {
    /** One sketch cell: its index in the row, the timestamp sum (ns), the packet count and the XOR digest. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cell(int cell, long timestampSum, long count, long digest) {
    }

    /** One chunk of a row of the sketch of {@code interval}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SketchChunk(int interval, int row, int firstCell, List<Cell> cells) {
    }

    @Override
    public List<String> kinds() {
        return List.of(LdsCollector.KIND_SENDER_SKETCH, LdsCollector.KIND_RECEIVER_SKETCH);
    }

    @Override
    public SketchChunk decode(String kind, DirectBuffer p, int offset, int length) {
        if (length < LdsCollector.HEADER_BYTES) {
            throw new BadPayload(kind + " payload of " + length + " bytes, shorter than its " + LdsCollector.HEADER_BYTES
                    + "-byte header");
        }
        int first = p.getInt(offset + 8, ByteOrder.LITTLE_ENDIAN);
        int count = p.getInt(offset + 12, ByteOrder.LITTLE_ENDIAN);
        if (count < 0 || LdsCollector.HEADER_BYTES + (long) count * LdsCollector.CELL_BYTES != length) {
            throw new BadPayload(kind + " payload of " + length + " bytes does not hold " + count + " cells");
        }
        List<Cell> cells = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = offset + LdsCollector.HEADER_BYTES + i * LdsCollector.CELL_BYTES;
            cells.add(new Cell(first + i, p.getLong(at, ByteOrder.LITTLE_ENDIAN),
                    p.getInt(at + 8, ByteOrder.LITTLE_ENDIAN) & LdsSketch.WORD_MASK,
                    p.getInt(at + 12, ByteOrder.LITTLE_ENDIAN) & LdsSketch.WORD_MASK));
        }
        return new SketchChunk(p.getInt(offset, ByteOrder.LITTLE_ENDIAN), p.getInt(offset + 4, ByteOrder.LITTLE_ENDIAN), first,
                cells);
    }
}

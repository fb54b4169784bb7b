package dev.rmtemu.programs.wbmon.control;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import org.agrona.DirectBuffer;

import java.util.List;

/** {@code rmtemu collect --json} for WBMon: a {@value WbmonCollector#KIND} message as the vconn's counters. */
public final class WbmonJournalDecoder implements JournalDecoder {
    /** One vconn: packets its upstream numbered (sent), its downstream received, and the drops the window detected. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record VconnCounters(int vconn, long sent, long received, long drops) {
    }

    @Override
    public List<String> kinds() {
        return List.of(WbmonCollector.KIND);
    }

    @Override
    public VconnCounters decode(String kind, DirectBuffer p, int offset, int length) {
        JournalDecoder.requireLength(kind, length, WbmonCollector.PAYLOAD_BYTES);
        return new VconnCounters(p.getInt(offset), p.getLong(offset + 4), p.getLong(offset + 12), p.getLong(offset + 20));
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderParserTest {
    @Test
    void theParsersOffsetAndMaskReadWhatTheRecordsAccessorsReturn() {
        SplittableRandom rnd = new SplittableRandom(3);
        PacketRecord r = PacketRecord.allocate();
        for (int round = 0; round < 2_000; round++) {
            for (int i = 0; i < PacketRecord.LENGTH; i += Long.BYTES) {
                r.buffer().putLong(r.offset() + i, rnd.nextLong());
            }
            r.wireLength(rnd.nextInt(1, 65_536)); // a length is never negative
            for (ParsedField f : ParsedField.values()) {
                if (f == ParsedField.CARRIED || f == ParsedField.SHIM) {
                    continue;
                }
                assertEquals(HeaderParser.value(r, f), HeaderParser.load(r, f), f + " in round " + round);
            }
        }
    }

    @Test
    void everyLoadStaysInsideTheRecord() {
        for (ParsedField f : ParsedField.values()) {
            if (f == ParsedField.CARRIED || f == ParsedField.SHIM) {
                assertThrows(IllegalArgumentException.class, () -> HeaderParser.recordOffset(f));
                continue;
            }
            assertTrue(HeaderParser.recordOffset(f) + Long.BYTES <= PacketRecord.LENGTH, f.toString());
        }
    }
}

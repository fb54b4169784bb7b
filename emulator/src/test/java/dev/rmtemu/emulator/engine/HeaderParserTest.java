package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.runtime.Phv;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderParserTest {
    @Test
    void theParsersOffsetAndMaskReadWhatTheRecordsAccessorsReturn() {
        SplittableRandom rnd = new SplittableRandom(3);
        PacketRecord r = PacketRecord.allocate();
        for (int round = 0; round < 2_000; round++) {
            for (int i = 0; i < PacketRecord.DECODED_BYTES; i += Long.BYTES) {
                r.buffer().putLong(r.offset() + i, rnd.nextLong());
            }
            r.wireLength(rnd.nextInt(1, 65_536)); // a length is never negative
            for (ParsedField f : ParsedField.values()) {
                assertEquals(HeaderParser.value(r, f), HeaderParser.load(r, f), f + " in round " + round);
            }
        }
    }

    /**
     * A fresh packet's PHV, whichever way it is zeroed (slot by slot for a small PHV, one copy
     * of a zero template from {@link HeaderParser#ZERO_COPY_MIN_SLOTS} unparsed slots on), is
     * what clear-then-parse gives: parsed fields from the record, every other slot 0 although the PHV held another packet's values.
     */
    @Test
    void aFreshParseEqualsClearThenParseForSmallAndLargePhvs() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int metadata : new int[] {3, HeaderParser.ZERO_COPY_MIN_SLOTS + 5}) {
            ProgramBuilder b = ProgramBuilder.create("p" + metadata, "parser test");
            b.header("ipv4.src_addr", 32, ParsedField.IPV4_SRC);
            b.header("l4.dst_port", 16, ParsedField.DST_PORT);
            b.bridged("carried.x", 8);
            for (int i = 0; i < metadata; i++) {
                b.metadata(Gress.INGRESS, "meta.m" + i, 32);
            }
            StageProgram p = b.build();
            HeaderParser parser = new HeaderParser(p);
            PacketRecord r = PacketRecord.allocate();
            Phv fresh = new Phv(p.fields().size());
            Phv reference = new Phv(p.fields().size());
            for (int round = 0; round < 50; round++) {
                for (int i = 0; i < PacketRecord.DECODED_BYTES; i += Long.BYTES) {
                    r.buffer().putLong(r.offset() + i, rnd.nextLong());
                }
                for (int s = 0; s < fresh.slots(); s++) {
                    fresh.values()[s] = rnd.nextLong(); // the previous packet's values
                }
                parser.parseFresh(r, fresh);
                reference.clear();
                parser.parse(r, reference);
                assertArrayEquals(reference.values(), fresh.values(), metadata + " metadata fields, round " + round);
            }
        }
    }

    @Test
    void everyLoadStaysInsideTheRecord() {
        for (ParsedField f : ParsedField.values()) {
            assertTrue(HeaderParser.recordOffset(f) + Long.BYTES <= PacketRecord.DECODED_BYTES, f.toString());
        }
    }
}

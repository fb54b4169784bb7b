package dev.rmtemu.model.hash;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.FieldKind;
import dev.rmtemu.model.phv.Gress;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sliced field CRC equals feeding the same big-endian bytes one at a time. */
class CrcSlicingTest {
    @Test
    void slicedFieldsEqualBytewiseForEveryPresetAndRandomReflectedCrcs() {
        SplittableRandom rnd = new SplittableRandom(77);
        List<Crc> crcs = new ArrayList<>();
        for (String n : Crc.NAMES) {
            crcs.add(Crc.named(n));
        }
        for (int i = 0; i < 20; i++) {
            int w = 8 + rnd.nextInt(25);
            crcs.add(new Crc("r" + i, w, rnd.nextLong(), rnd.nextLong(), true, rnd.nextBoolean(), rnd.nextLong()));
        }
        int[] widths = {1, 4, 8, 9, 13, 16, 17, 24, 31, 32, 33, 48, 64};
        for (Crc crc : crcs) {
            for (int trial = 0; trial < 300; trial++) {
                int n = 1 + rnd.nextInt(7);
                Field[] fields = new Field[n];
                long[] phv = new long[n];
                for (int k = 0; k < n; k++) {
                    int w = widths[rnd.nextInt(widths.length)];
                    fields[k] = new Field("f" + k, w, FieldKind.METADATA, Gress.INGRESS, k);
                    phv[k] = w == 64 ? rnd.nextLong() : rnd.nextLong() & ((1L << w) - 1);
                }
                long s = crc.init();
                for (int k = 0; k < n; k++) {
                    int bytes = (fields[k].width() + 7) / 8;
                    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
                        s = crc.update(s, (int) (phv[k] >>> shift) & 0xff);
                    }
                }
                assertEquals(crc.finish(s), crc.overFields(phv, fields), crc.describe());
            }
        }
    }
}

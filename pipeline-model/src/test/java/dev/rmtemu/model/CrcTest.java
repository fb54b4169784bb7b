package dev.rmtemu.model;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CrcTest {
    private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

    /** The standard check values of the CRC catalogue for "123456789". */
    @ParameterizedTest
    @CsvSource({
        "crc32, 0xCBF43926",
        "crc32c, 0xE3069283",
        "crc32_bzip2, 0xFC891918",
        "crc32_mpeg, 0x0376E6E7",
        "crc16, 0xBB3D",
        "crc16_ccitt, 0x29B1",
        "crc16_xmodem, 0x31C3",
        "crc16_dnp, 0xEA82",
        "crc8, 0xF4"
    })
    void matchesCatalogueCheckValues(String name, String check) {
        assertEquals(Long.decode(check), Crc.named(name).hash(CHECK), name);
    }

    @Test
    void customPolynomialIsHonoured() {
        // CRC-32/Q: poly 0x814141AB, init 0, no reflection, check 0x3010BF7F
        Crc q = new Crc("crc32q", 32, 0x814141ABL, 0, false, false, 0);
        assertEquals(0x3010BF7FL, q.hash(CHECK));
    }

    @Test
    void seededHashDependsOnSeedAndIdentityKeepsBits() {
        assertNotEquals(HashAlgorithm.seeded(1).hash(CHECK), HashAlgorithm.seeded(2).hash(CHECK));
        assertEquals(HashAlgorithm.seeded(5).hash(CHECK), HashAlgorithm.seeded(5).hash(CHECK));
        assertEquals(0x0102030405L, HashAlgorithm.identity().hash(new byte[] {1, 2, 3, 4, 5}));
    }

    @Test
    void unknownHashIsAUserError() {
        UserError e = assertThrows(UserError.class, () -> HashAlgorithm.byName("md5"));
        assertEquals(true, e.getMessage().contains("unknown hash 'md5'"));
    }
}

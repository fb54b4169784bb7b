package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.hash.HashAlgorithm;

/**
 * TNA's {@code HashAlgorithm_t.CRC64}: the CRC bf-p4c gives that name (bf-utils'
 * {@code crc_64}, the catalogue's CRC-64/ECMA-182): polynomial 0x42F0E1EBA9EA3693, bits not
 * reflected, init 0, no final XOR; check value 0x6C40DF5F0B497347 over "123456789". rmtemu's
 * {@code Crc} stops at 32 bits, so the 64-bit register is kept here, one table lookup a byte.
 */
final class TnaCrc64 implements HashAlgorithm {
    static final TnaCrc64 INSTANCE = new TnaCrc64();
    static final long POLYNOMIAL = 0x42F0E1EBA9EA3693L;
    private static final int BYTE_VALUES = 256;
    private final long[] table = new long[BYTE_VALUES];

    private TnaCrc64() {
        for (int b = 0; b < BYTE_VALUES; b++) {
            long r = (long) b << (Long.SIZE - Byte.SIZE);
            for (int bit = 0; bit < Byte.SIZE; bit++) {
                r = r < 0 ? (r << 1) ^ POLYNOMIAL : r << 1;
            }
            table[b] = r;
        }
    }

    @Override
    public long init() {
        return 0;
    }

    @Override
    public long update(long state, int b) {
        return (state << Byte.SIZE) ^ table[(int) ((state >>> (Long.SIZE - Byte.SIZE)) ^ b) & (BYTE_VALUES - 1)];
    }

    @Override
    public long finish(long state) {
        return state;
    }

    @Override
    public int width() {
        return Long.SIZE;
    }

    @Override
    public String describe() {
        return "crc64(width=64,poly=0x42f0e1eba9ea3693,init=0x0,refin=false,refout=false,xorout=0x0)";
    }
}

package dev.rmtemu.model.parse;

/**
 * The Internet checksum (RFC 1071: one's-complement sum of 16-bit words) in the
 * incremental form TNA's {@code Checksum} extern offers: {@link #add} and
 * {@link #subtract} data, {@link #get} the checksum. Data is a stream of bits:
 * fields of any width are concatenated in order and summed as big-endian 16-bit
 * words, as the deparser's checksum engine sees a field list. Updating a stored
 * checksum after a field changes (RFC 1624, {@code HC' = ~(~HC + ~m + m')}):
 * {@link #resume} from the old checksum, subtract the old words, add the new ones.
 * Reusable: {@link #clear} between packets; allocates nothing.
 */
public final class Checksum16 {
    private long sum;
    private int partial;
    private int partialBits;

    /** Starts a new sum. */
    public Checksum16 clear() {
        sum = 0;
        partial = 0;
        partialBits = 0;
        return this;
    }

    /** Starts from an existing checksum field, to update it incrementally. */
    public Checksum16 resume(int checksum) {
        clear();
        sum = ~checksum & 0xFFFF;
        return this;
    }

    /** Adds the low {@code bits} (1..64) bits of {@code value} to the stream. */
    public Checksum16 add(long value, int bits) {
        int left = bits;
        while (left > 0) {
            int take = Math.min(16 - partialBits, left);
            int chunk = (int) ((value >>> (left - take)) & ((1 << take) - 1));
            partial = (partial << take) | chunk;
            partialBits += take;
            left -= take;
            if (partialBits == 16) {
                sum += partial;
                partial = 0;
                partialBits = 0;
            }
        }
        return this;
    }

    /** Adds bytes to the stream. */
    public Checksum16 addBytes(byte[] buf, int off, int len) {
        for (int i = 0; i < len; i++) {
            add(buf[off + i] & 0xFF, Byte.SIZE);
        }
        return this;
    }

    /**
     * Subtracts whole 16-bit words (the low {@code bits} bits of {@code value},
     * {@code bits} a multiple of 16), as the one's complement of each word is added.
     */
    public Checksum16 subtract(long value, int bits) {
        if (bits % 16 != 0 || partialBits != 0) {
            throw new IllegalArgumentException("subtract takes whole 16-bit words, aligned");
        }
        for (int left = bits; left > 0; left -= 16) {
            sum += ~(value >>> (left - 16)) & 0xFFFF;
        }
        return this;
    }

    /** Whether the stream so far is a whole number of 16-bit words. */
    public boolean aligned() {
        return partialBits == 0;
    }

    /** The checksum: the one's complement of the folded sum (a trailing odd byte is padded with zero). */
    public int get() {
        long s = sum;
        if (partialBits > 0) {
            s += (long) partial << (16 - partialBits);
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xFFFF) + (s >>> 16);
        }
        return (int) (~s & 0xFFFF);
    }
}

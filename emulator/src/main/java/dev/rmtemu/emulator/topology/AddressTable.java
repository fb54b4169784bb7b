package dev.rmtemu.emulator.topology;

import java.util.Arrays;

/**
 * IPv4 addresses to small non-negative values, immutable after construction (so any thread may
 * read it): open addressing with linear probing, the capacity a power of two at least twice the
 * entries, so a lookup is a multiply and about one probe. For host addresses (/32 prefixes) looked
 * up once per packet or per hop, where a search over every host's prefix would cost more.
 */
public final class AddressTable {
    /** What {@link #get} returns for an address not in the table. */
    public static final int ABSENT = -1;

    private final int[] addresses;
    private final int[] values;
    private final int shift;

    /** The table of {@code addresses[i] → values[i]} (values at least 0); a repeated address keeps its first value. */
    public AddressTable(int[] addresses, int[] values) {
        if (addresses.length != values.length) {
            throw new IllegalArgumentException(addresses.length + " addresses for " + values.length + " values");
        }
        int capacity = Math.max(2, Integer.highestOneBit(Math.max(1, addresses.length)) << 2);
        this.shift = Integer.SIZE - Integer.numberOfTrailingZeros(capacity);
        this.addresses = new int[capacity];
        this.values = new int[capacity];
        Arrays.fill(this.values, ABSENT);
        for (int i = 0; i < addresses.length; i++) {
            if (values[i] < 0) {
                throw new IllegalArgumentException("value " + values[i] + " for " + Ipv4Prefix.format(addresses[i]));
            }
            int slot = slot(addresses[i]);
            while (this.values[slot] != ABSENT && this.addresses[slot] != addresses[i]) {
                slot = (slot + 1) & (capacity - 1);
            }
            if (this.values[slot] == ABSENT) {
                this.addresses[slot] = addresses[i];
                this.values[slot] = values[i];
            }
        }
    }

    private int slot(int address) {
        return (address * 0x9E3779B1) >>> shift; // Fibonacci hashing: the top bits of the product
    }

    /** The value of {@code address}, or {@link #ABSENT}. */
    public int get(int address) {
        int mask = values.length - 1;
        for (int slot = slot(address); values[slot] != ABSENT; slot = (slot + 1) & mask) {
            if (addresses[slot] == address) {
                return values[slot];
            }
        }
        return ABSENT;
    }
}

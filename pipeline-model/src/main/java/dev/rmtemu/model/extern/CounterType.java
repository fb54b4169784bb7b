package dev.rmtemu.model.extern;

/** What a counter cell counts, as TNA's {@code CounterType_t}. */
public enum CounterType {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES;

    public boolean packets() {
        return this != BYTES;
    }

    public boolean bytes() {
        return this != PACKETS;
    }
}

package dev.rmtemu.model.extern;

/** What a meter's buckets hold, as TNA's {@code MeterType_t}: packets, or bytes of the frame. */
public enum MeterType {
    PACKETS,
    BYTES
}

package dev.rmtemu.emulator.run;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The export message of an entry that aged out ({@link IdleSweep}), kind {@value #KIND}: the
 * table's name (u16 length, UTF-8), the entry's handle (u32), when it was last active (hit, or
 * given its TTL) in emulated ns (u64) and its TTL in ns (u64), little-endian. The message's cycle
 * is the sweep's. {@code rmtemu collect --json} decodes it by these names.
 */
public final class AgedOutPayload implements JournalDecoder {
    /** The journal kind of an aged-out entry. */
    public static final String KIND = "table.aged_out";
    private static final int FIXED_BYTES = Short.BYTES + Integer.BYTES + 2 * Long.BYTES;

    /** One decoded message ({@code last_hit_ns}: when it was last hit or given its TTL). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record AgedOut(String table, int handle, long lastHitNs, long ttlNs) {
    }

    /** Bytes the message of a table of this name takes. */
    static int length(byte[] tableName) {
        return FIXED_BYTES + tableName.length;
    }

    /** Writes the message into {@code b} from offset 0; returns its length. */
    static int put(MutableDirectBuffer b, byte[] tableName, int handle, long lastActiveNs, long ttlNs) {
        b.putShort(0, (short) tableName.length);
        b.putBytes(Short.BYTES, tableName);
        int at = Short.BYTES + tableName.length;
        b.putInt(at, handle);
        b.putLong(at + Integer.BYTES, lastActiveNs);
        b.putLong(at + Integer.BYTES + Long.BYTES, ttlNs);
        return at + Integer.BYTES + 2 * Long.BYTES;
    }

    @Override
    public List<String> kinds() {
        return List.of(KIND);
    }

    @Override
    public Object decode(String kind, DirectBuffer payload, int offset, int length) {
        if (length < Short.BYTES) {
            throw new BadPayload(kind + " payload of " + length + " bytes, expected at least " + FIXED_BYTES);
        }
        int nameLength = Short.toUnsignedInt(payload.getShort(offset));
        JournalDecoder.requireLength(kind, length, FIXED_BYTES + nameLength);
        byte[] name = new byte[nameLength];
        payload.getBytes(offset + Short.BYTES, name);
        int at = offset + Short.BYTES + nameLength;
        return new AgedOut(new String(name, StandardCharsets.UTF_8), payload.getInt(at), payload.getLong(at + Integer.BYTES),
                payload.getLong(at + Integer.BYTES + Long.BYTES));
    }
}

package dev.rmtemu.programs.hashpipe;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.PositionalCrc;
import dev.rmtemu.traces.PacketRecord;

/**
 * Computes a packet's HashPipe key from its record exactly as the stage
 * program's key stage does from the PHV, so the plain-Java reference and the
 * baselines see the same keys. No allocation.
 */
public final class FlowKeys {
    private final KeyKind kind;
    private final HashAlgorithm fingerprint;
    /** The same CRC one lookup per 5-tuple byte (what the emulator's hash unit uses too); null if not a CRC. */
    private final PositionalCrc fingerprintFast;
    private long lo;
    private long hi;

    public FlowKeys(KeyKind kind) {
        this.kind = kind;
        this.fingerprint = HashAlgorithm.byName(HashPipeConfig.FINGERPRINT_HASH);
        this.fingerprintFast = fingerprint instanceof Crc crc ? new PositionalCrc(crc, 4, 4, 1, 2, 2) : null;
    }

    /** Loads the key of {@code r}; read it with {@link #lo()} / {@link #hi()}. */
    public void load(PacketRecord r) {
        long src = r.srcIpv4() & 0xFFFFFFFFL;
        long dst = r.dstIpv4() & 0xFFFFFFFFL;
        switch (kind) {
            case FINGERPRINT -> {
                // the 5-tuple bytes in header order, as a hash unit feeds them
                if (fingerprintFast != null) {
                    PositionalCrc f = fingerprintFast;
                    long fp = f.finish(f.field(0, src) ^ f.field(1, dst) ^ f.field(2, r.protocol())
                            ^ f.field(3, r.srcPort()) ^ f.field(4, r.dstPort()));
                    lo = nonZero(fp);
                    hi = 0;
                    return;
                }
                long s = fingerprint.init();
                s = feed(fingerprint, s, src, 4);
                s = feed(fingerprint, s, dst, 4);
                s = feed(fingerprint, s, r.protocol(), 1);
                s = feed(fingerprint, s, r.srcPort(), 2);
                s = feed(fingerprint, s, r.dstPort(), 2);
                lo = nonZero(fingerprint.finish(s) & 0xFFFFFFFFL);
                hi = 0;
            }
            case SRCIP -> {
                lo = nonZero(src);
                hi = 0;
            }
            case FIVETUPLE -> {
                long l = (src << 32) | dst;
                long h = ((long) r.protocol() << 32) | ((long) r.srcPort() << 16) | r.dstPort();
                // lo != 0 marks an occupied slot (both addresses 0 is no real flow)
                if (l == 0) {
                    l = KeyKind.ZERO_KEY_ALIAS;
                }
                lo = l;
                hi = h;
            }
        }
    }

    static long nonZero(long key) {
        return key == 0 ? KeyKind.ZERO_KEY_ALIAS : key;
    }

    static long feed(HashAlgorithm h, long s, long v, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            s = h.update(s, (int) (v >>> shift) & 0xff);
        }
        return s;
    }

    public long lo() {
        return lo;
    }

    public long hi() {
        return hi;
    }

    public KeyKind kind() {
        return kind;
    }
}

package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.model.hash.Crc;
import dev.rmtemu.model.hash.HashAlgorithm;
import dev.rmtemu.model.hash.PositionalCrc;
import dev.rmtemu.programs.common.FiveTupleHash;
import dev.rmtemu.traces.PacketRecord;

/**
 * Computes a packet's HashPipe key from its record exactly as the stage
 * program's key stage does from the PHV, so the plain-Java reference and the
 * baselines see the same keys. No allocation.
 */
public final class FlowKeys {
    /**
     * Bytes of each fingerprint input, as the key stage's hash unit feeds them ({@link
     * HashPipeProgram#fingerprintInputs}): version, source address high and low halves,
     * destination high and low halves, protocol, source port, destination port.
     */
    static final int[] FINGERPRINT_LAYOUT = {1, 8, 8, 8, 8, 1, 2, 2};

    private final KeyKind kind;
    private final HashAlgorithm fingerprint;
    /** The same CRC one lookup per 5-tuple byte (what the emulator's hash unit uses too); null if not a CRC. */
    private final PositionalCrc fingerprintFast;
    private long lo;
    private long hi;

    public FlowKeys(KeyKind kind) {
        this.kind = kind;
        this.fingerprint = HashAlgorithm.byName(HashPipeConfig.FINGERPRINT_HASH);
        this.fingerprintFast = fingerprint instanceof Crc crc ? new PositionalCrc(crc, FINGERPRINT_LAYOUT) : null;
    }

    /** Loads the key of {@code r}; read it with {@link #lo()} / {@link #hi()}. */
    public void load(PacketRecord r) {
        long src = r.srcIpv4() & 0xFFFFFFFFL;
        long dst = r.dstIpv4() & 0xFFFFFFFFL;
        switch (kind) {
            case FINGERPRINT -> {
                // version, the 128-bit address slots (IPv4 in the low word of the high half), protocol,
                // ports, as the key stage's hash unit feeds them: IPv6 flows keep their whole 5-tuple
                if (fingerprintFast != null) {
                    PositionalCrc f = fingerprintFast;
                    long fp = f.finish(f.field(0, r.ipVersion()) ^ f.field(1, r.srcIpv6Hi()) ^ f.field(2, r.srcIpv6Lo())
                            ^ f.field(3, r.dstIpv6Hi()) ^ f.field(4, r.dstIpv6Lo()) ^ f.field(5, r.protocol())
                            ^ f.field(6, r.srcPort()) ^ f.field(7, r.dstPort()));
                    lo = nonZero(fp);
                    hi = 0;
                    return;
                }
                long s = fingerprint.init();
                s = FiveTupleHash.feed(fingerprint, s, r.ipVersion(), 1);
                s = FiveTupleHash.feed(fingerprint, s, r.srcIpv6Hi(), 8);
                s = FiveTupleHash.feed(fingerprint, s, r.srcIpv6Lo(), 8);
                s = FiveTupleHash.feed(fingerprint, s, r.dstIpv6Hi(), 8);
                s = FiveTupleHash.feed(fingerprint, s, r.dstIpv6Lo(), 8);
                s = FiveTupleHash.feed(fingerprint, s, r.protocol(), 1);
                s = FiveTupleHash.feed(fingerprint, s, r.srcPort(), 2);
                s = FiveTupleHash.feed(fingerprint, s, r.dstPort(), 2);
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

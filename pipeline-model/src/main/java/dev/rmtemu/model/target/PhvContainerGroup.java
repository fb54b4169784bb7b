package dev.rmtemu.model.target;

/**
 * {@code count} PHV containers of {@code widthBits} bits each (8, 16 or 32 on Tofino),
 * of which {@code ingressOnly} only ingress and {@code egressOnly} only egress may use
 * (Tofino 1: one group of 16 of each size each way, bf-p4c specs/phv_spec.cpp); the
 * rest go to either gress. A {@code tagalong} group (Tofino 1's TPHV: 32 x 8, 48 x 16,
 * 32 x 32 b) carries fields from the parser to the deparser but cannot feed the match
 * units or the ALUs, so only fields no stage reads or writes may go there.
 */
public record PhvContainerGroup(int widthBits, int count, int ingressOnly, int egressOnly, boolean tagalong) {
    public PhvContainerGroup {
        if (widthBits <= 0 || widthBits > 64 || count < 0 || ingressOnly < 0 || egressOnly < 0
                || count != TargetProfile.UNLIMITED && (long) ingressOnly + egressOnly > count) {
            throw new IllegalArgumentException("bad PHV container group " + count + " x " + widthBits + " b ("
                    + ingressOnly + " ingress-only, " + egressOnly + " egress-only)");
        }
    }

    /** A group any gress may use in full. */
    public PhvContainerGroup(int widthBits, int count) {
        this(widthBits, count, 0, 0, false);
    }

    /** A group of ordinary containers, some reserved per gress. */
    public PhvContainerGroup(int widthBits, int count, int ingressOnly, int egressOnly) {
        this(widthBits, count, ingressOnly, egressOnly, false);
    }

    /** Containers of this group the given gress may use: all but the other gress's reserved ones. */
    public int usableBy(boolean ingress) {
        if (count == TargetProfile.UNLIMITED) {
            return count;
        }
        return count - (ingress ? egressOnly : ingressOnly);
    }
}

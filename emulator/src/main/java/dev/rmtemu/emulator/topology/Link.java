package dev.rmtemu.emulator.topology;

/**
 * A link between two ports. A bidirectional link carries packets both ways with
 * the same latency and rate and a separate impairment spec per direction; a
 * unidirectional link carries packets from {@code a} to {@code b} only (its
 * {@code impairBtoA} is empty).
 *
 * @param id            position in {@link Topology#links()}, as in the file's {@code links} list
 * @param a             first endpoint
 * @param b             second endpoint
 * @param bidirectional false for an a→b only link
 * @param latencyNs     propagation latency in ns, each direction
 * @param rateGbps      line rate in Gb/s, each direction
 * @param impairAtoB    impairment spec for packets from a to b, opaque key → spec
 * @param impairBtoA    impairment spec for packets from b to a
 */
public record Link(int id, Endpoint a, Endpoint b, boolean bidirectional, long latencyNs, double rateGbps,
                   KeyValues impairAtoB, KeyValues impairBtoA) {

    /** Whether a packet can leave through {@code node:port} onto this link. */
    public boolean carriesFrom(int node, int port) {
        return (a.node() == node && a.port() == port) || (bidirectional && b.node() == node && b.port() == port);
    }

    /**
     * Direction index of packets sent from {@code node:port}: 0 for a→b, 1 for
     * b→a. {@code 2 * id + direction} numbers each link direction (a "channel")
     * densely, for per-direction state such as impairment generators.
     */
    public int directionFrom(int node, int port) {
        if (a.node() == node && a.port() == port) {
            return 0;
        }
        if (b.node() == node && b.port() == port) {
            return 1;
        }
        throw new IllegalArgumentException(node + ":" + port + " is not an end of link " + id);
    }

    /** The endpoint opposite {@code node:port} (which must be one of this link's ends). */
    public Endpoint opposite(int node, int port) {
        if (a.node() == node && a.port() == port) {
            return b;
        }
        if (b.node() == node && b.port() == port) {
            return a;
        }
        throw new IllegalArgumentException(node + ":" + port + " is not an end of link " + id);
    }

    /** Impairments for packets sent from {@code node:port} onto this link. */
    public KeyValues impairmentsFrom(int node, int port) {
        return (a.node() == node && a.port() == port) ? impairAtoB : impairBtoA;
    }

    @Override
    public String toString() {
        return "link " + id + " " + a + (bidirectional ? " <-> " : " -> ") + b;
    }
}

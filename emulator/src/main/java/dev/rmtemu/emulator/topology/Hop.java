package dev.rmtemu.emulator.topology;

/**
 * One node a packet visits. The first hop of a path is the source host
 * ({@code inPort} -1), the last the destination host ({@code outPort} -1).
 *
 * @param node    node index
 * @param name    node name
 * @param inPort  port the packet arrived on, or -1 at the source
 * @param outPort port it leaves by, or -1 at the destination
 * @param linkOut id of the link it leaves on, or -1 at the destination
 */
public record Hop(int node, String name, int inPort, int outPort, int linkOut) {
    @Override
    public String toString() {
        return (inPort < 0 ? "" : inPort + ">") + name + (outPort < 0 ? "" : ">" + outPort);
    }
}

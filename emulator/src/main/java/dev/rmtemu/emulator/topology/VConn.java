package dev.rmtemu.emulator.topology;

import java.util.List;

/**
 * A virtual connection (WBMon): a loop-free path the routing uses from one
 * programmable switch to another through regular switches only (none, for a
 * direct link).
 *
 * @param from     node index of the programmable switch where it starts
 * @param to       node index of the programmable switch where it ends
 * @param fromPort egress port at {@code from}
 * @param toPort   ingress port at {@code to}
 * @param nodes    node indices in order: from, the regular switches, to
 * @param links    link ids in order (one more than the regular switches)
 */
public record VConn(int from, int to, int fromPort, int toPort, List<Integer> nodes, List<Integer> links) {
    public VConn {
        nodes = List.copyOf(nodes);
        links = List.copyOf(links);
    }
}

package dev.rmtemu.emulator.topology;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * What {@code rmtemu topo --json} prints: the counts, the topology in the file schema (so the output
 * loads back with {@code --topology}), and what the options asked for; an option not given is
 * absent. Nodes are named, links by id.
 */
public record TopoReport(String source, int programmableSwitches, int regularSwitches, int hosts, int links,
                         JsonNode topology, @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<String>> routes,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Path path,
                         @JsonInclude(JsonInclude.Include.NON_NULL) List<VConnEntry> vconns,
                         @JsonInclude(JsonInclude.Include.NON_NULL) List<NeighborhoodEntry> neighborhoods) {

    /** A flow's path between two hosts: its hops (ports -1 at the hosts) and link ids; {@code found} false: no route. */
    public record Path(String src, String dst, boolean found, @JsonInclude(JsonInclude.Include.NON_NULL) List<Hop> hops,
                       @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> links) {
    }

    public record VConnEntry(List<String> nodes, List<Integer> links) {
    }

    public record NeighborhoodEntry(int id, List<String> switches, List<String> programmable, List<String> hosts,
                             List<Integer> links) {
    }
}

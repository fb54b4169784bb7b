package dev.rmtemu.emulator.topology;

import java.util.List;

/**
 * A connected component of regular switches once programmable switches (and
 * hosts) are removed: the region whose inside a WBMon deployment cannot see.
 * All lists ascend.
 *
 * @param id           position in {@link VConns#neighborhoods} (ordered by lowest member index)
 * @param switches     node indices of the regular switches in the component
 * @param programmable node indices of programmable switches linked to it
 * @param hosts        node indices of hosts linked to it
 * @param links        ids of links with at least one end in the component
 */
public record Neighborhood(int id, List<Integer> switches, List<Integer> programmable, List<Integer> hosts,
                           List<Integer> links) {
    public Neighborhood {
        switches = List.copyOf(switches);
        programmable = List.copyOf(programmable);
        hosts = List.copyOf(hosts);
        links = List.copyOf(links);
    }
}

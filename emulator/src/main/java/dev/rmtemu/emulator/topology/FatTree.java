package dev.rmtemu.emulator.topology;

import java.util.List;
import java.util.Set;

/**
 * {@code builtin:fattree?k=K&programmable=edge,agg,core}: the k-ary fat tree
 * of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008). k pods, each with k/2 edge
 * and k/2 aggregation switches; (k/2)^2 core switches; k/2 hosts per edge
 * switch; every switch has k ports.
 *
 * <p>Names and numbering (pods p, positions i, j, c from 0):
 * edge {@code edge{p}_{i}}, aggregation {@code agg{p}_{j}}, core
 * {@code core{j*(k/2)+c}}, host {@code h{p}_{i}_{x}} with address
 * {@code 10.p.i.(x+2)}/32 as in the paper (hosts 10.pod.switch.ID, ID from 2).
 * Ports: at an edge switch, 1..k/2 go down to its hosts (host x on port x+1)
 * and k/2+1..k up to the pod's aggregation switches (agg j on port k/2+1+j);
 * at an aggregation switch, 1..k/2 go down to the edges (edge i on port i+1)
 * and k/2+1..k up to cores j*(k/2)+c (on port k/2+1+c); core j*(k/2)+c uses
 * port p+1 for pod p. Layers not listed in {@code programmable} are regular
 * switches (default: all three programmable; {@code none} for none).
 * Links are listed host links first (pod, edge, host order), then edge–agg,
 * then agg–core.
 */
final class FatTree {
    private FatTree() {
    }

    static Topology build(String spec, BuiltinParams p) {
        p.allowOnly(BuiltinTopologies.allowed("k", "programmable"));
        int k = p.integer("k", 4, 2, BuiltinTopologies.MAX_FATTREE_K);
        if (k % 2 != 0) {
            throw p.error("k=" + k + " must be even");
        }
        List<String> prog = p.list("programmable", Set.of("edge", "agg", "core", "none"));
        if (prog == null) {
            prog = List.of("edge", "agg", "core");
        } else if (prog.contains("none") && prog.size() > 1) {
            throw p.error("programmable=none cannot be combined with layers");
        }
        BuiltinTopologies.Common c = BuiltinTopologies.Common.of(p);
        int half = k / 2;
        TopologyBuilder b = new TopologyBuilder(spec);
        for (int i = 0; i < half * half; i++) {
            addSwitch(b, c, prog.contains("core"), "core" + i, k);
        }
        for (int pod = 0; pod < k; pod++) {
            for (int j = 0; j < half; j++) {
                addSwitch(b, c, prog.contains("agg"), agg(pod, j), k);
            }
            for (int i = 0; i < half; i++) {
                addSwitch(b, c, prog.contains("edge"), edge(pod, i), k);
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                for (int x = 0; x < half; x++) {
                    b.host(host(pod, i, x), BuiltinTopologies.host32(pod, i, x + 2), HostRole.BOTH);
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                for (int x = 0; x < half; x++) {
                    c.link(b, host(pod, i, x), Node.HOST_PORT, edge(pod, i), x + 1);
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int i = 0; i < half; i++) {
                for (int j = 0; j < half; j++) {
                    c.link(b, edge(pod, i), half + 1 + j, agg(pod, j), i + 1);
                }
            }
        }
        for (int pod = 0; pod < k; pod++) {
            for (int j = 0; j < half; j++) {
                for (int cc = 0; cc < half; cc++) {
                    c.link(b, agg(pod, j), half + 1 + cc, "core" + (j * half + cc), pod + 1);
                }
            }
        }
        return b.build();
    }

    private static void addSwitch(TopologyBuilder b, BuiltinTopologies.Common c, boolean programmable, String name,
                                  int ports) {
        if (programmable) {
            c.programmable(b, name, ports);
        } else {
            b.regularSwitch(name, ports);
        }
    }

    static String edge(int pod, int i) {
        return "edge" + pod + "_" + i;
    }

    static String agg(int pod, int j) {
        return "agg" + pod + "_" + j;
    }

    static String host(int pod, int i, int x) {
        return "h" + pod + "_" + i + "_" + x;
    }
}

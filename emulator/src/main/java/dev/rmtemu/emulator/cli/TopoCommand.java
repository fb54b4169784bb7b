package dev.rmtemu.emulator.cli;

import dev.rmtemu.emulator.topology.FlowPath;
import dev.rmtemu.emulator.topology.Link;
import dev.rmtemu.emulator.topology.Neighborhood;
import dev.rmtemu.emulator.topology.Node;
import dev.rmtemu.emulator.topology.Routing;
import dev.rmtemu.emulator.topology.TopoReport;
import dev.rmtemu.emulator.topology.Topology;
import dev.rmtemu.emulator.topology.TopologyFile;
import dev.rmtemu.emulator.topology.TopologySpec;
import dev.rmtemu.emulator.topology.VConn;
import dev.rmtemu.emulator.topology.VConns;
import dev.rmtemu.model.UserError;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rmtemu.emulator.json.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code rmtemu topo}: load, validate and show a topology, its routes, paths and WBMon views. */
@Command(name = "topo",
        mixinStandardHelpOptions = true,
        description = {
            "Load, check and show a topology: nodes, links, routes, paths, vconns.",
            "",
            "Load a topology (a .json/.yaml/.yml file or builtin:NAME?key=value&...), validate it and",
            "print its nodes and links. Options add forwarding tables, a flow's path, WBMon vconns and",
            "neighbourhoods, or write the topology out in the file schema.",
            "Built-ins: " + "single?hosts=4, line?hosts=1, chain?m=2&regular=3&hosts=1,",
            "fattree?k=4&programmable=edge,agg,core, abilene?hosts=1&programmable=all;",
            "all take target=, program=, latency_ns=, rate_gbps=."
        })
public final class TopoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TOPOLOGY",
            description = "Topology file (.json, .yaml, .yml) or builtin:NAME?key=value&...")
    String topology;

    @Option(names = "--routes", paramLabel = "NODE", split = ",",
            description = "Print the forwarding table (prefix, host, hops, ECMP ports) of these nodes; 'all' for every switch.")
    List<String> routes = new ArrayList<>();

    @Option(names = "--path", paramLabel = "SRC,DST", split = ",",
            description = "Print the hops (in-port>node>out-port) and link ids a flow from host SRC to host DST takes.")
    List<String> path;

    @Option(names = "--hash", paramLabel = "N", defaultValue = "0",
            description = "Flow hash (64-bit, decimal or 0x hex) used by --path for ECMP choices (default: ${DEFAULT-VALUE}).")
    String hash;

    @Option(names = "--vconns", description = "List WBMon vconns: paths between programmable switches through regular switches only.")
    boolean vconns;

    @Option(names = "--neighborhoods", description = "List connected components of regular switches (WBMon neighbourhoods).")
    boolean neighborhoods;

    @Option(names = "--write", paramLabel = "FILE",
            description = "Write the topology in the file schema to FILE (.json, .yaml or .yml) instead of printing it.")
    Path write;

    @Option(names = "--json", description = "Print JSON instead of text: the counts, the topology in the file schema and"
            + " what --routes, --path, --vconns and --neighborhoods asked for.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Topology t = TopologySpec.parse(topology);
        if (write != null) {
            String text = TopologyFile.write(t, TopologyFile.formatOf(write.toString()));
            try {
                Files.writeString(write, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserError(write + ": cannot write (" + e.getClass().getSimpleName() + ")", e);
            }
            out.println("wrote " + write + ": " + summary(t));
            out.flush();
            return 0;
        }
        if (json) {
            out.print(Json.write(report(t)));
            out.flush();
            return 0;
        }
        out.println(t.source() + ": " + summary(t));
        for (Node n : t.nodes()) {
            out.println("  node " + n.index() + " " + n.name() + " " + n.kind().fileName()
                    + (n.isHost() ? " " + n.address() + " " + n.role().fileName() : " ports=" + n.ports())
                    + (n.isProgrammable() ? " target=" + n.target() : "")
                    + (n.program() != null ? " program=" + n.program() : "")
                    + (n.params().isEmpty() ? "" : " params=" + n.params()));
        }
        for (Link l : t.links()) {
            out.println("  " + l + " latency_ns=" + l.latencyNs() + " rate_gbps=" + l.rateGbps()
                    + (l.impairAtoB().isEmpty() ? "" : " impair_ab=" + l.impairAtoB())
                    + (l.impairBtoA().isEmpty() ? "" : " impair_ba=" + l.impairBtoA()));
        }
        Routing r = Routing.of(t);
        for (String name : routes) {
            List<Node> which = name.equals("all") ? t.switches() : List.of(requireNode(t, name));
            for (Node n : which) {
                out.println("routes " + n.name() + ":");
                r.describe(n.index()).lines().forEach(line -> out.println("  " + line));
            }
        }
        if (path != null) {
            Node src = pathEnd(t, 0);
            Node dst = pathEnd(t, 1);
            FlowPath p = r.path(src.index(), dst.index(), parseHash(hash));
            out.println(p == null ? "path " + src.name() + " -> " + dst.name() + ": no route"
                    : "path " + p + " links=" + p.linkIds());
        }
        if (vconns) {
            List<VConn> list = VConns.vconns(r);
            out.println("vconns: " + list.size());
            for (VConn v : list) {
                List<String> names = new ArrayList<>();
                for (int n : v.nodes()) {
                    names.add(t.node(n).name());
                }
                out.println("  " + String.join(" > ", names) + " links=" + v.links());
            }
        }
        if (neighborhoods) {
            List<Neighborhood> list = VConns.neighborhoods(t);
            out.println("neighborhoods: " + list.size());
            for (Neighborhood nb : list) {
                out.println("  " + nb.id() + ": switches=" + names(t, nb.switches()) + " programmable="
                        + names(t, nb.programmable()) + " hosts=" + names(t, nb.hosts()) + " links=" + nb.links());
            }
        }
        out.flush();
        return 0;
    }

    private TopoReport report(Topology t) {
        Routing r = Routing.of(t);
        Map<String, List<String>> routeLines = null;
        if (!routes.isEmpty()) {
            routeLines = new LinkedHashMap<>();
            for (String name : routes) {
                for (Node n : name.equals("all") ? t.switches() : List.of(requireNode(t, name))) {
                    routeLines.put(n.name(), r.describe(n.index()).lines().toList());
                }
            }
        }
        TopoReport.Path flow = null;
        if (path != null) {
            Node src = pathEnd(t, 0);
            Node dst = pathEnd(t, 1);
            FlowPath p = r.path(src.index(), dst.index(), parseHash(hash));
            flow = new TopoReport.Path(src.name(), dst.name(), p != null, p == null ? null : p.hops(),
                    p == null ? null : p.linkIds());
        }
        List<TopoReport.VConnEntry> vc = null;
        if (vconns) {
            vc = new ArrayList<>();
            for (VConn v : VConns.vconns(r)) {
                vc.add(new TopoReport.VConnEntry(names(t, v.nodes()), v.links()));
            }
        }
        List<TopoReport.NeighborhoodEntry> nbs = null;
        if (neighborhoods) {
            nbs = new ArrayList<>();
            for (Neighborhood nb : VConns.neighborhoods(t)) {
                nbs.add(new TopoReport.NeighborhoodEntry(nb.id(), names(t, nb.switches()), names(t, nb.programmable()),
                        names(t, nb.hosts()), nb.links()));
            }
        }
        JsonNode file;
        try {
            file = Json.mapper().readTree(TopologyFile.write(t, TopologyFile.Format.JSON));
        } catch (IOException e) {
            throw new IllegalStateException("the topology writer wrote unreadable JSON", e);
        }
        return new TopoReport(t.source(), t.programmableSwitches().size(),
                t.switches().size() - t.programmableSwitches().size(), t.hosts().size(), t.links().size(), file,
                routeLines, flow, vc, nbs);
    }

    private static String summary(Topology t) {
        return t.programmableSwitches().size() + " programmable switches, "
                + (t.switches().size() - t.programmableSwitches().size()) + " regular switches, "
                + t.hosts().size() + " hosts, " + t.links().size() + " links";
    }

    private static List<String> names(Topology t, List<Integer> nodes) {
        List<String> out = new ArrayList<>();
        for (int n : nodes) {
            out.add(t.node(n).name());
        }
        return out;
    }

    private static Node requireNode(Topology t, String name) {
        Node n = t.node(name);
        if (n == null) {
            throw new UserError(t.source() + ": no node named '" + name + "'");
        }
        return n;
    }

    /** End {@code i} (0 source, 1 destination) of {@code --path SRC,DST}. */
    private Node pathEnd(Topology t, int i) {
        if (path.size() != 2) {
            throw new UserError("--path needs SRC,DST (two host names)");
        }
        return requireHost(t, path.get(i));
    }

    private static Node requireHost(Topology t, String name) {
        Node n = requireNode(t, name);
        if (!n.isHost()) {
            throw new UserError(t.source() + ": '" + name + "' is a switch, not a host");
        }
        return n;
    }

    private static long parseHash(String s) {
        try {
            return s.startsWith("0x") || s.startsWith("0X") ? Long.parseUnsignedLong(s.substring(2), 16)
                    : Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new UserError("--hash: bad number '" + s + "'");
        }
    }
}

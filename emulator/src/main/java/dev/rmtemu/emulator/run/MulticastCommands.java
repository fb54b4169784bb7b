package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.List;

/**
 * The packet replication engine's commands of bmv2's runtime_CLI: a group
 * ({@code mc_mgrp_create}), nodes of ports ({@code mc_node_create}, handles 0, 1, ... in
 * creation order) and a node joined to a group ({@code mc_node_associate}). A packet whose
 * mcast_grp_a names the group is copied to every port of its nodes. The engine does not
 * give egress a replication id, so a node's RID is checked but not carried; LAGs are not
 * modelled. Groups are configured before the run.
 */
final class MulticastCommands {
    private static final int MAX_RID = 0xFFFF;

    private MulticastCommands() {
    }

    /** {@code mc_mgrp_create GROUP}. */
    static ControlCommand.Effect createGroup(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 1, "mc_mgrp_create GROUP");
        int g = ControlScript.intNumber(args.get(0), "a multicast group");
        if (sw.groups.containsKey(g)) {
            throw new UserError("multicast group " + g + " already exists");
        }
        sw.engine().multicastGroup(g);
        sw.groups.put(g, new ArrayList<>());
        return null;
    }

    /** {@code mc_node_create RID PORT...}: the node's handle is the count of nodes created before it. */
    static ControlCommand.Effect createNode(SwitchControl sw, List<String> args) {
        TableCommands.need(args, 1, "mc_node_create RID PORT...");
        int rid = ControlScript.intNumber(args.get(0), "a replication id");
        if (rid > MAX_RID) {
            throw new UserError("replication id " + rid + " outside 0.." + MAX_RID);
        }
        if (args.contains("|")) {
            throw new UserError("mc_node_create: LAGs (after '|') are not modelled; list the node's ports");
        }
        int[] ports = new int[args.size() - 1];
        for (int i = 1; i < args.size(); i++) {
            ports[i - 1] = ControlScript.intNumber(args.get(i), "a port");
        }
        sw.nodes.add(ports);
        return null;
    }

    /** {@code mc_node_associate GROUP NODE_HANDLE}: a node joins one group. */
    static ControlCommand.Effect associate(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 2, "mc_node_associate GROUP NODE_HANDLE");
        int g = ControlScript.intNumber(args.get(0), "a multicast group");
        int node = ControlScript.intNumber(args.get(1), "a node handle");
        List<Integer> members = sw.groups.get(g);
        if (members == null) {
            throw new UserError("no multicast group " + g + " (create it with mc_mgrp_create " + g + ")");
        }
        if (node >= sw.nodes.size()) {
            throw new UserError("no multicast node with handle " + node + " (" + sw.nodes.size() + " created)");
        }
        Integer in = sw.nodeGroup.get(node);
        if (in != null) {
            throw new UserError("multicast node " + node + " is already associated with group " + in);
        }
        List<Integer> joined = new ArrayList<>(members);
        joined.add(node);
        int n = 0;
        for (int m : joined) {
            n += sw.nodes.get(m).length;
        }
        int[] ports = new int[n];
        int k = 0;
        for (int m : joined) {
            for (int p : sw.nodes.get(m)) {
                ports[k++] = p;
            }
        }
        sw.engine().multicastGroup(g, ports);
        members.add(node);
        sw.nodeGroup.put(node, g);
        return null;
    }
}

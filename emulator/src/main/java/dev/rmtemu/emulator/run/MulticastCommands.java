package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;

import java.util.ArrayList;
import java.util.List;

/**
 * The packet replication engine's commands of bmv2's runtime_CLI, with Tofino's exclusion
 * ids: a group ({@code mc_mgrp_create}), level-1 nodes of a replication id and ports
 * ({@code mc_node_create}, handles 0, 1, ... in creation order), a node joined to a group,
 * optionally with its level-1 exclusion id ({@code mc_node_associate}, Tofino's
 * {@code bf_mc_associate_node}), and the port prune table of level-2 exclusion ids
 * ({@code mc_update_port_prune_table}, Tofino's {@code p4_pd_mc_update_port_prune_table}).
 * A packet whose mcast_grp_a or mcast_grp_b names a group is copied to the ports of its nodes
 * in association order, each copy carrying its node's RID (see the engine's ReplicationEngine).
 * LAGs are not modelled. Groups are configured before the run.
 */
final class MulticastCommands {
    private static final int MAX_RID = 0xFFFF;
    private static final int MAX_L1_XID = 0xFFFF;

    private MulticastCommands() {
    }

    /** {@code mc_mgrp_create GROUP}. */
    static ControlCommand.Effect createGroup(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 1, "mc_mgrp_create GROUP");
        int g = ControlScript.intNumber(args.get(0), "a multicast group");
        if (sw.groups.containsKey(g)) {
            throw new UserError("multicast group " + g + " already exists");
        }
        sw.engine().createMulticastGroup(g);
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
        sw.nodes.add(new SwitchControl.McNode(rid, ports(sw, args, 1)));
        return null;
    }

    /**
     * {@code mc_node_associate GROUP NODE_HANDLE [L1_XID]}: a node joins one group, after the
     * group's other nodes; with an L1_XID, a packet whose level1_exclusion_id equals it skips the node.
     */
    static ControlCommand.Effect associate(SwitchControl sw, List<String> args) {
        String usage = "mc_node_associate GROUP NODE_HANDLE [L1_XID]";
        TableCommands.need(args, 2, usage);
        if (args.size() > 3) {
            throw new UserError("too many arguments: " + usage);
        }
        int g = ControlScript.intNumber(args.get(0), "a multicast group");
        int node = ControlScript.intNumber(args.get(1), "a node handle");
        boolean xidValid = args.size() == 3;
        int xid = xidValid ? ControlScript.intNumber(args.get(2), "a level-1 exclusion id") : 0;
        if (xid > MAX_L1_XID) {
            throw new UserError("level-1 exclusion id " + xid + " outside 0.." + MAX_L1_XID);
        }
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
        SwitchControl.McNode n = sw.nodes.get(node);
        sw.engine().multicastNode(g, n.rid(), xidValid, xid, n.ports());
        members.add(node);
        sw.nodeGroup.put(node, g);
        return null;
    }

    /**
     * {@code mc_update_port_prune_table L2_XID [PORT...]}: the ports a packet whose
     * level2_exclusion_id is L2_XID gets no copy on, from the nodes whose RID is the packet's
     * rid (ig_intr_tm_md.rid); the list replaces the entry's ports, none clears it.
     */
    static ControlCommand.Effect prune(SwitchControl sw, List<String> args) {
        TableCommands.need(args, 1, "mc_update_port_prune_table L2_XID [PORT...]");
        int yid = ControlScript.intNumber(args.get(0), "a level-2 exclusion id");
        sw.engine().multicastPrune(yid, ports(sw, args, 1));
        return null;
    }

    private static int[] ports(SwitchControl sw, List<String> args, int from) {
        int[] ports = new int[args.size() - from];
        for (int i = from; i < args.size(); i++) {
            ports[i - from] = PortArgs.port(sw, args.get(i));
        }
        return ports;
    }
}

package dev.rmtemu.emulator.engine;

import dev.rmtemu.model.UserError;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Tofino's packet replication engine (PRE), as its multicast manager programs it: a
 * multicast group is a list of level-1 nodes in association order, each with a replication
 * id (RID), an optional level-1 exclusion id (L1 XID, given when the node joins the group,
 * {@code bf_mc_associate_node}) and its level-2 ports. The port prune table maps a level-2
 * exclusion id (L2 XID) to ports ({@code bf_mc_set_port_prune_table}).
 *
 * <p>A packet names up to two trees (mcast_grp_a, then mcast_grp_b). Per tree, per node in
 * order: a node whose L1 XID is valid and equals the packet's level1_exclusion_id is skipped
 * (level-1 pruning); of a node whose RID equals the packet's rid, the ports in the prune table
 * entry of the packet's level2_exclusion_id are skipped (level-2 pruning: a flood that does not
 * go back out of its own port or VLAN). Every other port gets a copy carrying the node's RID,
 * in node order, then port order. An unprogrammed group makes no copies. LAGs, ECMP nodes and
 * the level-1/level-2 hashes are not modelled.
 */
final class ReplicationEngine {
    /** Groups are 1..65535 (mcast_grp_a/b are 16 bits, 0 meaning none). */
    static final int MAX_GROUP = 0xFFFF;
    /** RIDs and L1 XIDs are 16 bits (ig_intr_tm_md.rid, level1_exclusion_id). */
    static final int MAX_RID = 0xFFFF;
    static final int MAX_L1_XID = 0xFFFF;
    /** L2 XIDs are 9 bits (ig_intr_tm_md.level2_exclusion_id). */
    static final int MAX_L2_XID = 0x1FF;

    /** One level-1 node in a group. */
    private record Node(int rid, boolean xidValid, int xid, int[] ports) {
    }

    private static final Node[] NO_NODES = new Node[0];

    /** By group id; null: not programmed. */
    private Node[][] groups = new Node[0][];
    /** By L2 XID (null until the control plane sets an entry, so a switch without multicast stays small). */
    private BitSet[] prune;
    /** The last replication's copies: their ports and RIDs (sized at configuration, so a packet allocates nothing). */
    private int[] copyPort = new int[0];
    private int[] copyRid = new int[0];
    /** The most copies one group can make; two trees make at most twice as many. */
    private int widestGroup;

    /** Creates group {@code group} without nodes (a group already there is refused). */
    void createGroup(int group) {
        checkGroup(group);
        if (group < groups.length && groups[group] != null) {
            throw new UserError("multicast group " + group + " already exists");
        }
        if (group >= groups.length) {
            groups = Arrays.copyOf(groups, group + 1);
        }
        groups[group] = NO_NODES;
    }

    /** Replaces group {@code group}'s nodes by one node of RID 0 without an L1 XID on {@code ports}. */
    void setGroup(int group, int... ports) {
        checkGroup(group);
        if (group >= groups.length) {
            groups = Arrays.copyOf(groups, group + 1);
        }
        groups[group] = NO_NODES;
        addNode(group, 0, false, 0, ports);
    }

    /** Appends a level-1 node to group {@code group} (created before). */
    void addNode(int group, int rid, boolean xidValid, int xid, int... ports) {
        checkGroup(group);
        if (group >= groups.length || groups[group] == null) {
            throw new UserError("no multicast group " + group);
        }
        if (rid < 0 || rid > MAX_RID) {
            throw new UserError("replication id " + rid + " outside 0.." + MAX_RID);
        }
        if (xid < 0 || xid > MAX_L1_XID) {
            throw new UserError("level-1 exclusion id " + xid + " outside 0.." + MAX_L1_XID);
        }
        Node[] nodes = Arrays.copyOf(groups[group], groups[group].length + 1);
        nodes[nodes.length - 1] = new Node(rid, xidValid, xid, ports.clone());
        groups[group] = nodes;
        int copies = 0;
        for (Node n : nodes) {
            copies += n.ports().length;
        }
        widestGroup = Math.max(widestGroup, copies);
        if (copyPort.length < 2 * widestGroup) {
            copyPort = new int[2 * widestGroup];
            copyRid = new int[2 * widestGroup];
        }
    }

    /** Port prune table entry {@code l2Xid}: the ports pruned (replacing those before; none clears it). */
    void setPrune(int l2Xid, int... ports) {
        if (l2Xid < 0 || l2Xid > MAX_L2_XID) {
            throw new UserError("level-2 exclusion id " + l2Xid + " outside 0.." + MAX_L2_XID);
        }
        if (prune == null) {
            prune = new BitSet[MAX_L2_XID + 1];
        }
        BitSet b = new BitSet();
        for (int p : ports) {
            b.set(p);
        }
        prune[l2Xid] = b.isEmpty() ? null : b;
    }

    /**
     * The copies of a packet with these intrinsic metadata, in the order the PRE makes them:
     * their count; {@link #port(int)} and {@link #rid(int)} read them until the next call.
     */
    int replicate(int groupA, int groupB, int l1Xid, int l2Xid, int packetRid) {
        BitSet pruned = prune != null && l2Xid <= MAX_L2_XID ? prune[l2Xid] : null;
        int n = tree(groupA, l1Xid, pruned, packetRid, 0);
        return tree(groupB, l1Xid, pruned, packetRid, n);
    }

    private int tree(int group, int l1Xid, BitSet pruned, int packetRid, int n) {
        if (group == 0 || group >= groups.length || groups[group] == null) {
            return n;
        }
        for (Node node : groups[group]) {
            if (node.xidValid() && node.xid() == l1Xid) {
                continue;
            }
            boolean l2 = pruned != null && node.rid() == packetRid;
            for (int p : node.ports()) {
                if (!(l2 && pruned.get(p))) {
                    copyPort[n] = p;
                    copyRid[n] = node.rid();
                    n++;
                }
            }
        }
        return n;
    }

    int port(int copy) {
        return copyPort[copy];
    }

    int rid(int copy) {
        return copyRid[copy];
    }

    private static void checkGroup(int group) {
        if (group < 1 || group > MAX_GROUP) {
            throw new UserError("multicast group " + group + " outside 1.." + MAX_GROUP);
        }
    }
}

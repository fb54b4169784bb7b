package dev.rmtemu.emulator.run;

import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.model.UserError;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.table.MatchTable;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a control script has done to one switch, as the script reads it: the entries it added
 * to each table under their handles, and the multicast groups and nodes it created. Handles
 * count from 0 per table in the order the script adds entries, a deleted handle is reused
 * first (as bmv2 hands them out), so a script can name an entry it added on an earlier line.
 */
final class SwitchControl {
    private final SwitchEngine engine;
    private final Map<MatchTable, Handles> handles = new HashMap<>();
    /** Multicast group -> the node handles associated with it, in association order. */
    final Map<Integer, List<Integer>> groups = new TreeMap<>();
    /** Multicast nodes by handle. */
    final List<McNode> nodes = new ArrayList<>();
    /** Node handle -> the group it is associated with. */
    final Map<Integer, Integer> nodeGroup = new HashMap<>();
    /** Action profile name -> the members and groups the script created in it. */
    final Map<String, IndirectCommands.Created> profiles = new HashMap<>();

    /** The packet generator's buffer and applications the script configured. */
    final PktgenCommands.State pktgen = new PktgenCommands.State();

    /** A level-1 multicast node as mc_node_create made it: its replication id and ports. */
    record McNode(int rid, int[] ports) {
    }

    SwitchControl(SwitchEngine engine) {
        this.engine = engine;
    }

    SwitchEngine engine() {
        return engine;
    }

    StageProgram program() {
        return engine.state().program();
    }

    Handles handles(MatchTable t) {
        return handles.computeIfAbsent(t, k -> new Handles(k));
    }

    /** One table's entries added by the script, by handle. */
    static final class Handles {
        private final MatchTable table;
        private final BitSet used = new BitSet();
        private final Map<Integer, TableEntry> byHandle = new HashMap<>();
        private final Map<String, Integer> byKey = new HashMap<>();

        Handles(MatchTable table) {
            this.table = table;
        }

        /** The new entry's handle; a key already present is refused. */
        int add(TableEntry e) {
            Integer existing = byKey.get(e.identity());
            if (existing != null) {
                throw new UserError("table " + table.name() + " already has an entry for " + e.shown() + " (handle "
                        + existing + "): table_modify changes its action");
            }
            if (byHandle.size() >= table.size()) {
                throw new UserError("table " + table.name() + " is full (" + table.size() + " entries)");
            }
            int h = used.nextClearBit(0);
            used.set(h);
            byHandle.put(h, e);
            byKey.put(e.identity(), h);
            return h;
        }

        TableEntry get(String handle) {
            int h;
            try {
                h = Integer.parseInt(handle);
            } catch (NumberFormatException ex) {
                throw new UserError("'" + handle + "' is not an entry handle (0, 1, ... as table_add gave them)");
            }
            TableEntry e = byHandle.get(h);
            if (e == null) {
                throw new UserError("table " + table.name() + " has no entry with handle " + handle
                        + (byHandle.isEmpty() ? " (the script has added none)" : " (handles: " + list() + ")"));
            }
            return e;
        }

        /** The handle of {@code e} while the script has not deleted it, else null. */
        Integer handleOf(TableEntry e) {
            Integer h = byKey.get(e.identity());
            return h != null && byHandle.get(h) == e ? h : null;
        }

        void remove(String handle) {
            TableEntry e = get(handle);
            int h = byKey.remove(e.identity());
            byHandle.remove(h);
            used.clear(h);
        }

        void clear() {
            used.clear();
            byHandle.clear();
            byKey.clear();
        }

        private String list() {
            StringBuilder b = new StringBuilder();
            for (int h = used.nextSetBit(0); h >= 0; h = used.nextSetBit(h + 1)) {
                b.append(b.length() == 0 ? "" : ", ").append(h);
            }
            return b.toString();
        }
    }
}

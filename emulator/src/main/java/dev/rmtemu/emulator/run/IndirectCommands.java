package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.extern.ActionProfileState;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The action profile and selector commands of bmv2's runtime_CLI:
 * <pre>
 * act_prof_create_member PROFILE ACTION [PARAM...]     # member handles: the lowest free, from 0
 * act_prof_create_group PROFILE                        # group handles likewise (a selector's)
 * act_prof_add_member_to_group PROFILE MEMBER GROUP
 * act_prof_remove_member_from_group PROFILE MEMBER GROUP
 * act_prof_delete_member PROFILE MEMBER                # refused while a group or an entry uses it
 * act_prof_delete_group PROFILE GROUP                  # refused while an entry uses it
 * table_indirect_add TABLE KEY... => MEMBER [PRIORITY]
 * table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]
 * </pre>
 * PROFILE is the ActionProfile's or its ActionSelector's name (TNA keeps members in the profile
 * and groups in the selector; either name reaches both). Every handle is checked against what
 * the script created on earlier lines, before the run. Deletes follow bmv2's action profile
 * (MBR_STILL_USED, GRP_STILL_USED): a member in a group or under a table entry, or a group under
 * an entry, stays; a deleted handle is the next one created (bmv2 takes the lowest free handle).
 */
final class IndirectCommands {
    private static final String ARROW = "=>";

    private IndirectCommands() {
    }

    /** What the script has created in one profile: its members, and each group's members in joining order. */
    static final class Created {
        private final BitSet members = new BitSet();
        private final Map<Integer, List<Integer>> groups = new TreeMap<>();
        /** The indirect entries the script added, in script order: each one's table and what it points at (kind, handle). */
        private final List<Ref> refs = new ArrayList<>();
    }

    private record Ref(MatchTable table, TableEntry entry, int kind, int handle) {
    }

    /** {@code act_prof_create_member PROFILE ACTION [PARAM...]}: an action of the profile's table with its parameters. */
    static ControlCommand.Effect createMember(SwitchControl sw, List<String> args) {
        TableCommands.need(args, 2, "act_prof_create_member PROFILE ACTION [PARAM...]");
        ActionProfile p = profile(sw, args.get(0));
        MatchTable t = sw.program().table(p.table());
        TableAction a = ProgramNames.action(t, args.get(1));
        long data = ActionParams.data(a, args.subList(2, args.size()));
        Created c = created(sw, p);
        if (c.members.cardinality() >= p.size()) {
            throw new UserError("action profile " + p.name() + " is full (" + p.size() + " members)");
        }
        int handle = c.members.nextClearBit(0);
        c.members.set(handle);
        return s -> s.actionProfile(p.name()).createMember(handle, a.id(), data);
    }

    /** {@code act_prof_create_group PROFILE}: an empty group of the profile's selector. */
    static ControlCommand.Effect createGroup(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 1, "act_prof_create_group PROFILE");
        ActionProfile p = selector(sw, args.get(0), "act_prof_create_group");
        Created c = created(sw, p);
        if (c.groups.size() >= p.selector().numGroups()) {
            throw new UserError("action selector " + p.selector().name() + " has " + p.selector().numGroups()
                    + " groups (num_groups)");
        }
        int handle = 0;
        while (c.groups.containsKey(handle)) {
            handle++;
        }
        int created = handle;
        c.groups.put(created, new ArrayList<>());
        return s -> s.actionProfile(p.name()).createGroup(created);
    }

    /** {@code act_prof_delete_member PROFILE MEMBER}: refused while a group holds it or an entry points at it. */
    static ControlCommand.Effect deleteMember(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 2, "act_prof_delete_member PROFILE MEMBER");
        ActionProfile p = profile(sw, args.get(0));
        Created c = created(sw, p);
        int member = member(c, p, args.get(1));
        for (Map.Entry<Integer, List<Integer>> g : c.groups.entrySet()) {
            if (g.getValue().contains(member)) {
                throw new UserError("member " + member + " of " + p.name() + " is still in group " + g.getKey() + " of "
                        + p.selector().name() + ": act_prof_remove_member_from_group first");
            }
        }
        refuseIfUsed(sw, c, ActionProfileState.MEMBER, member, "member " + member + " of " + p.name());
        c.members.clear(member);
        return s -> s.actionProfile(p.name()).deleteMember(member);
    }

    /** {@code act_prof_delete_group PROFILE GROUP}: refused while an entry points at it; its members stay. */
    static ControlCommand.Effect deleteGroup(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 2, "act_prof_delete_group PROFILE GROUP");
        ActionProfile p = selector(sw, args.get(0), "act_prof_delete_group");
        Created c = created(sw, p);
        int group = group(c, p, args.get(1));
        refuseIfUsed(sw, c, ActionProfileState.GROUP, group, "group " + group + " of " + p.selector().name());
        c.groups.remove(group);
        return s -> s.actionProfile(p.name()).deleteGroup(group);
    }

    /** Refuses a delete while an entry the script added (and did not delete) points at {@code kind}/{@code handle}. */
    private static void refuseIfUsed(SwitchControl sw, Created c, int kind, int handle, String what) {
        for (Ref r : c.refs) {
            Integer entry = r.kind() == kind && r.handle() == handle ? sw.handles(r.table()).handleOf(r.entry()) : null;
            if (entry != null) {
                throw new UserError(what + " is still used by entry " + entry + " of table " + r.table().name()
                        + ": table_delete first");
            }
        }
    }


    /** {@code act_prof_add_member_to_group PROFILE MEMBER GROUP}. */
    static ControlCommand.Effect addMember(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 3, "act_prof_add_member_to_group PROFILE MEMBER GROUP");
        ActionProfile p = selector(sw, args.get(0), "act_prof_add_member_to_group");
        Created c = created(sw, p);
        int member = member(c, p, args.get(1));
        int group = group(c, p, args.get(2));
        List<Integer> in = c.groups.get(group);
        if (in.contains(member)) {
            throw new UserError("member " + member + " is already in group " + group + " of " + p.selector().name());
        }
        if (in.size() >= p.selector().maxGroupSize()) {
            throw new UserError("group " + group + " of " + p.selector().name() + " is full (max_group_size "
                    + p.selector().maxGroupSize() + ")");
        }
        in.add(member);
        return s -> s.actionProfile(p.name()).addToGroup(member, group);
    }

    /** {@code act_prof_remove_member_from_group PROFILE MEMBER GROUP}. */
    static ControlCommand.Effect removeMember(SwitchControl sw, List<String> args) {
        TableCommands.exactly(args, 3, "act_prof_remove_member_from_group PROFILE MEMBER GROUP");
        ActionProfile p = selector(sw, args.get(0), "act_prof_remove_member_from_group");
        Created c = created(sw, p);
        int member = member(c, p, args.get(1));
        int group = group(c, p, args.get(2));
        if (!c.groups.get(group).remove(Integer.valueOf(member))) {
            throw new UserError("member " + member + " is not in group " + group + " of " + p.selector().name());
        }
        return s -> s.actionProfile(p.name()).removeFromGroup(member, group);
    }

    /** {@code table_indirect_add TABLE KEY... => MEMBER [PRIORITY]}. */
    static ControlCommand.Effect addToMember(SwitchControl sw, List<String> args) {
        return add(sw, args, false);
    }

    /** {@code table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]}. */
    static ControlCommand.Effect addToGroup(SwitchControl sw, List<String> args) {
        return add(sw, args, true);
    }

    private static ControlCommand.Effect add(SwitchControl sw, List<String> args, boolean group) {
        String command = group ? "table_indirect_add_with_group" : "table_indirect_add";
        String usage = command + " TABLE KEY... => " + (group ? "GROUP" : "MEMBER") + " [PRIORITY]";
        TableCommands.need(args, 1, usage);
        MatchTable t = ProgramNames.table(sw.program(), args.get(0));
        PipelineState.checkInstallable(t);
        ActionProfile p = sw.program().implementationOf(t.name());
        if (p == null) {
            throw new UserError("table " + t.name() + " has no action profile (implementation): table_add adds its entries");
        }
        if (group && p.selector() == null) {
            throw new UserError("table " + t.name() + "'s action profile " + p.name() + " has no selector, so no groups:"
                    + " table_indirect_add points an entry at a member");
        }
        int arrow = args.indexOf(ARROW);
        if (arrow < 0) {
            throw new UserError(command + " needs '=>' between the key and the " + (group ? "group" : "member"));
        }
        List<String> after = new ArrayList<>(args.subList(arrow + 1, args.size()));
        int priority = 0;
        if (TableEntry.prioritised(t)) {
            String last = after.size() < 2 ? "" : after.remove(after.size() - 1);
            if (!last.matches("[0-9]{1,9}")) {
                throw new UserError("table " + t.name() + " matches " + t.kind().name().toLowerCase(Locale.ROOT)
                        + ": its entries end with a PRIORITY (a number; the lower value wins)");
            }
            priority = Integer.parseInt(last);
        }
        if (after.size() != 1) {
            throw new UserError((after.isEmpty() ? "missing arguments: " : "too many arguments: ") + usage);
        }
        Created c = created(sw, p);
        int handle = group ? group(c, p, after.get(0)) : member(c, p, after.get(0));
        TableEntry e = TableEntry.parse(t, args.subList(1, arrow), priority);
        sw.handles(t).add(e);
        int kind = group ? ActionProfileState.GROUP : ActionProfileState.MEMBER;
        c.refs.add(new Ref(t, e, kind, handle));
        return s -> e.add(s, kind, handle);
    }

    /**
     * Refuses {@code command} (table_add, table_set_default, table_modify) on a table whose
     * actions come from an action profile: its entries point at members or groups.
     */
    static void refuseDirect(SwitchControl sw, MatchTable t, String command) {
        ActionProfile p = sw.program().implementationOf(t.name());
        if (p != null) {
            throw new UserError("table " + t.name() + " takes its actions from action profile " + p.name() + ": " + command
                    + " does not apply; table_indirect_add TABLE KEY... => MEMBER"
                    + (p.selector() == null ? "" : " or table_indirect_add_with_group TABLE KEY... => GROUP") + " adds entries");
        }
    }

    private static ActionProfile profile(SwitchControl sw, String given) {
        return sw.program().actionProfile(given.substring(given.lastIndexOf('.') + 1));
    }

    private static ActionProfile selector(SwitchControl sw, String given, String command) {
        ActionProfile p = profile(sw, given);
        if (p.selector() == null) {
            throw new UserError("action profile " + p.name() + " has no selector (ActionSelector), so no groups: " + command
                    + " does not apply");
        }
        return p;
    }

    private static Created created(SwitchControl sw, ActionProfile p) {
        return sw.profiles.computeIfAbsent(p.name(), k -> new Created());
    }

    private static int member(Created c, ActionProfile p, String given) {
        int m = handle(given, "member", "act_prof_create_member");
        if (!c.members.get(m)) {
            throw new UserError("action profile " + p.name() + " has no member " + given
                    + (c.members.isEmpty() ? " (the script has created none)" : " (members " + shown(c.members) + ")"));
        }
        return m;
    }

    private static int group(Created c, ActionProfile p, String given) {
        int g = handle(given, "group", "act_prof_create_group");
        if (!c.groups.containsKey(g)) {
            BitSet live = new BitSet();
            c.groups.keySet().forEach(live::set);
            throw new UserError("action selector " + p.selector().name() + " has no group " + given
                    + (c.groups.isEmpty() ? " (the script has created none)" : " (groups " + shown(live) + ")"));
        }
        return g;
    }

    /** Live handles as {@code 0..N} when they run from 0 without a gap, else as a list {@code 0, 2, 3}. */
    private static String shown(BitSet handles) {
        int n = handles.cardinality();
        if (handles.nextClearBit(0) == n) {
            return "0.." + (n - 1);
        }
        StringBuilder b = new StringBuilder();
        for (int h = handles.nextSetBit(0); h >= 0; h = handles.nextSetBit(h + 1)) {
            b.append(b.length() == 0 ? "" : ", ").append(h);
        }
        return b.toString();
    }

    private static int handle(String given, String what, String maker) {
        if (!given.matches("[0-9]{1,9}")) {
            throw new UserError("'" + given + "' is not a " + what + " handle (0, 1, ... as " + maker + " gave them)");
        }
        return Integer.parseInt(given);
    }
}

package dev.rmtemu.emulator.run;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.extern.ActionProfile;
import dev.rmtemu.model.runtime.PipelineState;
import dev.rmtemu.model.extern.ActionProfileState;
import dev.rmtemu.model.table.MatchTable;
import dev.rmtemu.model.table.TableAction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The action profile and selector commands of bmv2's runtime_CLI:
 * <pre>
 * act_prof_create_member PROFILE ACTION [PARAM...]     # member handles 0, 1, ... in script order
 * act_prof_create_group PROFILE                        # group handles 0, 1, ... (a selector's)
 * act_prof_add_member_to_group PROFILE MEMBER GROUP
 * act_prof_remove_member_from_group PROFILE MEMBER GROUP
 * table_indirect_add TABLE KEY... => MEMBER [PRIORITY]
 * table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]
 * </pre>
 * PROFILE is the ActionProfile's or its ActionSelector's name (TNA keeps members in the profile
 * and groups in the selector; either name reaches both). Every handle is checked against what
 * the script created on earlier lines, before the run.
 */
final class IndirectCommands {
    private static final String ARROW = "=>";

    private IndirectCommands() {
    }

    /** What the script has created in one profile: its members, and each group's members in joining order. */
    static final class Created {
        private int members;
        private final Map<Integer, List<Integer>> groups = new TreeMap<>();
    }

    /** {@code act_prof_create_member PROFILE ACTION [PARAM...]}: an action of the profile's table with its parameters. */
    static ControlCommand.Effect createMember(SwitchControl sw, List<String> args) {
        TableCommands.need(args, 2, "act_prof_create_member PROFILE ACTION [PARAM...]");
        ActionProfile p = profile(sw, args.get(0));
        MatchTable t = sw.program().table(p.table());
        TableAction a = ProgramNames.action(t, args.get(1));
        long data = ActionParams.data(a, args.subList(2, args.size()));
        Created c = created(sw, p);
        if (c.members >= p.size()) {
            throw new UserError("action profile " + p.name() + " is full (" + p.size() + " members)");
        }
        int handle = c.members++;
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
        int handle = c.groups.size();
        c.groups.put(handle, new ArrayList<>());
        return s -> s.actionProfile(p.name()).createGroup(handle);
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
        if (m >= c.members) {
            throw new UserError("action profile " + p.name() + " has no member " + given
                    + (c.members == 0 ? " (the script has created none)" : " (members 0.." + (c.members - 1) + ")"));
        }
        return m;
    }

    private static int group(Created c, ActionProfile p, String given) {
        int g = handle(given, "group", "act_prof_create_group");
        if (!c.groups.containsKey(g)) {
            throw new UserError("action selector " + p.selector().name() + " has no group " + given
                    + (c.groups.isEmpty() ? " (the script has created none)" : " (groups 0.." + (c.groups.size() - 1) + ")"));
        }
        return g;
    }

    private static int handle(String given, String what, String maker) {
        if (!given.matches("[0-9]{1,9}")) {
            throw new UserError("'" + given + "' is not a " + what + " handle (0, 1, ... as " + maker + " gave them)");
        }
        return Integer.parseInt(given);
    }
}

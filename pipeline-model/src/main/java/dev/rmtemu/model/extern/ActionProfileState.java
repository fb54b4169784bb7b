package dev.rmtemu.model.extern;

import dev.rmtemu.model.UserError;
import dev.rmtemu.model.table.MemberSelection;

import java.util.Arrays;

/**
 * The members and groups of one action profile (and its selector), as the control plane
 * installs them (symmetrically in every pipe, like table entries). A member is an action id and
 * its action data under a handle; a group is a list of member handles. An indirect table's entry
 * holds {@link #MEMBER} or {@link #GROUP} as its action id and the handle as its action data;
 * {@link #select} turns it into the member that runs, allocating nothing.
 *
 * <p>Member selection, per packet, with h the selector's hash (its Hash instance's algorithm and
 * width over the table's {@code selector} key fields in key order, each field as whole bytes,
 * big-endian) and n the group's live members:
 * <ul>
 * <li>FAIR: the members in the order they joined (a removed member's place closes up); the
 *     member at index (h mod 2^14) mod n. Tofino's selector ALU picks the member by a modulo of
 *     the selection hash over the live bits of the group's selector word (14 hash bits in FAIR
 *     mode: the TNA examples' BASE_HASH_WIDTH; bf-p4c mau/resource_estimate.cpp
 *     SelectorModBits), so a hash that counts up walks the members in order.</li>
 * <li>RESILIENT: each member keeps the slot it joined in (the lowest free slot); a removed
 *     member leaves its slot empty; s the group's slot span (the highest slot ever used, + 1).
 *     With H = h mod 2^51: the member in slot H mod s; if that slot is empty, the live member
 *     at index (H / s) mod n in slot order. So a flow whose member stays keeps it when others
 *     leave. (Tofino's driver rewrites the selector word's bits for resilient groups; the
 *     exact bit walk is the driver's and not in p4c, so this is rmtemu's model of it.)</li>
 * </ul>
 * A packet that hits an entry whose group has no member takes the table's miss (P4Runtime
 * leaves an empty group's behaviour to the target).
 */
public final class ActionProfileState implements MemberSelection {
    /** An indirect entry's action id when its data is a member handle. */
    public static final int MEMBER = MemberSelection.MEMBER;
    /** An indirect entry's action id when its data is a group handle. */
    public static final int GROUP = MemberSelection.GROUP;
    private static final long FAIR_MASK = (1L << ActionProfile.FAIR_HASH_BITS) - 1;
    private static final long RESILIENT_MASK = (1L << ActionProfile.RESILIENT_HASH_BITS) - 1;
    private static final int EMPTY = -1;

    private final ActionProfile profile;
    private final int[] memberAction;
    private final long[] memberData;
    private final boolean[] memberUsed;
    /** Per group: member handles by slot (FAIR: packed; RESILIENT: EMPTY holes), null while the group does not exist. */
    private final int[][] slots;
    /** Per group: live members. */
    private final int[] live;
    /** Per group: slots in use (FAIR: = live; RESILIENT: highest slot ever filled + 1). */
    private final int[] span;

    public ActionProfileState(ActionProfile profile) {
        this.profile = profile;
        this.memberAction = new int[profile.size()];
        this.memberData = new long[profile.size()];
        this.memberUsed = new boolean[profile.size()];
        int groups = profile.selector() == null ? 0 : profile.selector().numGroups();
        this.slots = new int[groups][];
        this.live = new int[groups];
        this.span = new int[groups];
    }

    public ActionProfile profile() {
        return profile;
    }

    /** Creates member {@code handle} running {@code action} with {@code data} (bmv2's act_prof_create_member). */
    public void createMember(int handle, int action, long data) {
        if (handle < 0 || handle >= memberUsed.length) {
            throw new UserError("action profile " + profile.name() + " is full (" + profile.size() + " members)");
        }
        if (memberUsed[handle]) {
            throw new UserError("action profile " + profile.name() + " already has member " + handle);
        }
        memberUsed[handle] = true;
        memberAction[handle] = action;
        memberData[handle] = data;
    }

    /** Creates group {@code handle}, empty (act_prof_create_group). */
    public void createGroup(int handle) {
        ActionProfile.Selector sel = selector();
        if (handle < 0 || handle >= slots.length) {
            throw new UserError("action selector " + sel.name() + " has " + sel.numGroups() + " groups (num_groups)");
        }
        if (slots[handle] != null) {
            throw new UserError("action selector " + sel.name() + " already has group " + handle);
        }
        slots[handle] = new int[sel.maxGroupSize()];
        Arrays.fill(slots[handle], EMPTY);
    }

    /** Adds a member to a group (act_prof_add_member_to_group); a member is in a group at most once. */
    public void addToGroup(int member, int group) {
        requireMember(member);
        int[] s = group(group);
        if (slotOf(s, group, member) >= 0) {
            throw new UserError("member " + member + " is already in group " + group + " of " + selector().name());
        }
        if (live[group] == s.length) {
            throw new UserError("group " + group + " of " + selector().name() + " is full (max_group_size " + s.length + ")");
        }
        int free = selector().mode() == SelectorMode.FAIR ? live[group] : firstEmpty(s);
        s[free] = member;
        live[group]++;
        span[group] = Math.max(span[group], free + 1);
    }

    /** Removes a member from a group (act_prof_remove_member_from_group). */
    public void removeFromGroup(int member, int group) {
        int[] s = group(group);
        int at = slotOf(s, group, member);
        if (at < 0) {
            throw new UserError("member " + member + " is not in group " + group + " of " + selector().name());
        }
        live[group]--;
        if (selector().mode() == SelectorMode.FAIR) {
            System.arraycopy(s, at + 1, s, at, span[group] - at - 1);
            span[group]--;
            s[span[group]] = EMPTY;
        } else {
            s[at] = EMPTY;
        }
    }

    /**
     * Deletes member {@code handle} (act_prof_delete_member); refused while a group holds it (the
     * control script also refuses it while a table entry points at it, as bmv2's MBR_STILL_USED).
     */
    public void deleteMember(int handle) {
        requireMember(handle);
        for (int g = 0; g < slots.length; g++) {
            if (slots[g] != null && slotOf(slots[g], g, handle) >= 0) {
                throw new UserError("member " + handle + " of " + profile.name() + " is still in group " + g);
            }
        }
        memberUsed[handle] = false;
    }

    /** Deletes group {@code handle} (act_prof_delete_group); its members stay. */
    public void deleteGroup(int handle) {
        group(handle);
        slots[handle] = null;
        live[handle] = 0;
        span[handle] = 0;
    }

    /** Whether member {@code handle} exists. */
    public boolean hasMember(int handle) {
        return handle >= 0 && handle < memberUsed.length && memberUsed[handle];
    }

    /** Whether group {@code handle} exists. */
    public boolean hasGroup(int handle) {
        return handle >= 0 && handle < slots.length && slots[handle] != null;
    }

    /** The members of a group in slot order (EMPTY slots left out). */
    public int[] members(int group) {
        int[] s = group(group);
        int[] out = new int[live[group]];
        int k = 0;
        for (int i = 0; i < span[group]; i++) {
            if (s[i] != EMPTY) {
                out[k++] = s[i];
            }
        }
        return out;
    }

    /**
     * The member an indirect entry runs for this packet: {@code kind} {@link #MEMBER} or
     * {@link #GROUP} and {@code handle} as the entry holds them; -1 when the group has no member.
     */
    @Override
    public int select(int kind, long handle, long[] phv) {
        if (kind == MEMBER) {
            return (int) handle;
        }
        int g = (int) handle;
        int n = live[g];
        if (n == 0) {
            return -1;
        }
        int[] s = slots[g];
        long h = profile.selectorHash(phv);
        if (selector().mode() == SelectorMode.FAIR) {
            return s[(int) ((h & FAIR_MASK) % n)];
        }
        long hr = h & RESILIENT_MASK;
        int width = span[g];
        int m = s[(int) (hr % width)];
        if (m != EMPTY) {
            return m;
        }
        long k = (hr / width) % n;
        for (int i = 0; i < width; i++) {
            if (s[i] != EMPTY && k-- == 0) {
                return s[i];
            }
        }
        throw new IllegalStateException("group " + g + " of " + selector().name() + " lost count of its members");
    }

    /** The action id of member {@code m}. */
    @Override
    public int actionId(int m) {
        return memberAction[m];
    }

    /** The action data of member {@code m}. */
    @Override
    public long actionData(int m) {
        return memberData[m];
    }

    private ActionProfile.Selector selector() {
        if (profile.selector() == null) {
            throw new UserError("action profile " + profile.name() + " has no selector: it has no groups");
        }
        return profile.selector();
    }

    private void requireMember(int member) {
        if (!hasMember(member)) {
            throw new UserError("action profile " + profile.name() + " has no member " + member);
        }
    }

    private int[] group(int group) {
        ActionProfile.Selector sel = selector();
        if (!hasGroup(group)) {
            throw new UserError("action selector " + sel.name() + " has no group " + group);
        }
        return slots[group];
    }

    private int slotOf(int[] s, int group, int member) {
        for (int i = 0; i < span[group]; i++) {
            if (s[i] == member) {
                return i;
            }
        }
        return -1;
    }

    private static int firstEmpty(int[] s) {
        for (int i = 0; i < s.length; i++) {
            if (s[i] == EMPTY) {
                return i;
            }
        }
        return -1;
    }
}

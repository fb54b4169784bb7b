package dev.rmtemu.model.table;

/**
 * What an indirect table's entries point into (its action profile, model.extern's
 * ActionProfileState): an entry holds {@link #MEMBER} or {@link #GROUP} as its action id and a
 * handle as its action data; the profile answers the member that runs and that member's action.
 */
public interface MemberSelection {
    /** An indirect entry's action id when its data is a member handle. */
    int MEMBER = 0;
    /** An indirect entry's action id when its data is a group handle. */
    int GROUP = 1;

    /** The member an entry ({@code kind}, {@code handle}) runs for the packet in {@code phv}; -1 for an empty group. */
    int select(int kind, long handle, long[] phv);

    /** The action id of member {@code m}. */
    int actionId(int m);

    /** The action data of member {@code m}. */
    long actionData(int m);
}

package dev.rmtemu.model.extern;

/**
 * How an action selector picks a member of a group (TNA's {@code SelectorMode_t}): FAIR spreads
 * flows evenly over the live members and moves flows when the group changes; RESILIENT keeps a
 * flow on its member while that member stays in the group.
 */
public enum SelectorMode {
    FAIR,
    RESILIENT
}

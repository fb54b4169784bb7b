package dev.rmtemu.model.check;

import java.util.Arrays;
import dev.rmtemu.model.phv.Gress;
import dev.rmtemu.model.target.PhvContainerGroup;
import dev.rmtemu.model.target.TargetProfile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.Collections;
import java.util.TreeSet;

/**
 * Packs PHV fields into the target's 8/16/32-bit containers, the way the Tofino
 * compiler does in spirit: fields wider than the widest container are split
 * across containers; a remainder goes first into spare bits of a container of
 * the same gress already in use (best fit), then into the smallest free
 * container that holds it, then is split over smaller ones. Containers belong to
 * one gress. Fields are placed widest first (ties by name) so the result does not
 * depend on declaration order. A demand's {@code noPack} fields never share a
 * container with it: fields one stage writes by different instructions (p4c's
 * PackConflicts and ActionPhvConstraints: one instruction per container per stage).
 */
public final class PhvAllocation {
    /**
     * One field instance to place: a header appears once per gress that uses it.
     * {@code mauUse} false: no stage reads or writes it, so it may ride in a tagalong container.
     */
    public record Demand(String field, int width, Gress gress, boolean mauUse, Set<String> noPack) {
        public Demand {
            noPack = Collections.unmodifiableSortedSet(new TreeSet<>(noPack));
        }

        /** A field free to share a container with any other of its gress. */
        public Demand(String field, int width, Gress gress, boolean mauUse) {
            this(field, width, gress, mauUse, Set.of());
        }

        /** A field the stages may use (the safe assumption when the stage code cannot be seen). */
        public Demand(String field, int width, Gress gress) {
            this(field, width, gress, true);
        }

        /** The fields this demand places: one, or the overlaid fields of a {@code a|b} demand. */
        public List<String> members() {
            return List.of(field.split("\\|"));
        }
    }

    private final List<PhvContainerGroup> groups;
    private final int[][] usedPerGress;
    private final List<String> failures = new ArrayList<>();
    private final long requestedBits;

    private PhvAllocation(List<PhvContainerGroup> groups, List<Demand> demands) {
        this.groups = groups;
        this.usedPerGress = new int[Gress.values().length][groups.size()];
        long bits = 0;
        for (Demand d : demands) {
            bits += d.width();
        }
        this.requestedBits = bits;
        place(demands);
    }

    public static PhvAllocation allocate(TargetProfile target, List<Demand> demands) {
        return new PhvAllocation(target.phvContainers(), demands);
    }

    /** A container with spare bits, and the fields already in it. */
    private record Partial(Gress gress, int group, int freeBits, List<String> fields) {
        boolean packs(Demand d) {
            for (String f : fields) {
                if (d.noPack().contains(f)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Whether demand {@code d} may use group {@code g}: tagalong containers only for fields no stage touches. */
    private boolean allowed(int g, Demand d) {
        return !groups.get(g).tagalong() || !d.mauUse();
    }

    private void place(List<Demand> demands) {
        List<Demand> order = new ArrayList<>(demands);
        order.sort(Comparator.comparingInt(Demand::width).reversed()
                .thenComparing(Demand::field).thenComparing(Demand::gress));
        // group indices sorted by container width, ascending
        Integer[] byWidth = new Integer[groups.size()];
        for (int i = 0; i < byWidth.length; i++) {
            byWidth[i] = i;
        }
        Arrays.sort(byWidth, Comparator.comparingInt(i -> groups.get(i).widthBits()));
        List<Partial> partials = new ArrayList<>();
        for (Demand d : order) {
            int remaining = d.width();
            while (remaining > 0) {
                int widest = widestFree(byWidth, d);
                if (remaining < maxWidth(byWidth)) {
                    int best = -1;
                    for (int i = 0; i < partials.size(); i++) {
                        Partial p = partials.get(i);
                        if (p.gress() == d.gress() && p.freeBits() >= remaining && allowed(p.group(), d) && p.packs(d)
                                && (best < 0 || p.freeBits() < partials.get(best).freeBits())) {
                            best = i;
                        }
                    }
                    if (best >= 0) {
                        Partial p = partials.get(best);
                        List<String> fields = new ArrayList<>(p.fields());
                        fields.addAll(d.members());
                        partials.set(best, new Partial(p.gress(), p.group(), p.freeBits() - remaining, List.copyOf(fields)));
                        remaining = 0;
                        break;
                    }
                }
                int chosen = -1;
                // a field no stage touches rides in a tagalong container when one is free
                for (int pass = d.mauUse() ? 1 : 0; pass < 2 && chosen < 0; pass++) {
                    for (int g : byWidth) {
                        if (groups.get(g).tagalong() == (pass == 0) && allowed(g, d) && free(g, d.gress()) > 0
                                && groups.get(g).widthBits() >= remaining) {
                            chosen = g;
                            break;
                        }
                    }
                }
                if (chosen < 0) {
                    chosen = widest;
                }
                if (chosen < 0) {
                    failures.add("PHV: field " + d.field() + " (" + d.width() + " b, " + d.gress().label()
                            + ") does not fit: " + remaining + " b left and no free container " + d.gress().label()
                            + " may use (" + usableSummary(d) + ")");
                    break;
                }
                usedPerGress[d.gress().ordinal()][chosen]++;
                int w = groups.get(chosen).widthBits();
                if (w > remaining) {
                    partials.add(new Partial(d.gress(), chosen, w - remaining, d.members()));
                }
                remaining -= Math.min(w, remaining);
            }
        }
    }

    private int maxWidth(Integer[] byWidth) {
        int max = 0;
        for (int g : byWidth) {
            if (!groups.get(g).tagalong()) {
                max = Math.max(max, groups.get(g).widthBits());
            }
        }
        return max;
    }

    private int widestFree(Integer[] byWidth, Demand d) {
        for (int i = byWidth.length - 1; i >= 0; i--) {
            if (allowed(byWidth[i], d) && free(byWidth[i], d.gress()) > 0) {
                return byWidth[i];
            }
        }
        return -1;
    }

    /** Free containers of a group that {@code gress} may take: none of the other gress's reserved ones. */
    private long free(int group, Gress gress) {
        PhvContainerGroup g = groups.get(group);
        if (g.count() == TargetProfile.UNLIMITED) {
            return Long.MAX_VALUE;
        }
        int used = 0;
        for (int[] perGress : usedPerGress) {
            used += perGress[group];
        }
        long own = (long) g.usableBy(gress == Gress.INGRESS) - usedPerGress[gress.ordinal()][group];
        return Math.min((long) g.count() - used, own);
    }

    /** "8b 48 of 64, 16b 80 of 96, ..." for a failure line. */
    private String usableSummary(Demand d) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < groups.size(); i++) {
            PhvContainerGroup g = groups.get(i);
            if (!allowed(i, d)) {
                continue;
            }
            sb.append(sb.length() == 0 ? "" : ", ").append(g.tagalong() ? "tagalong " : "").append(g.widthBits()).append("b ")
                    .append(g.count() == TargetProfile.UNLIMITED ? "unlimited" : g.usableBy(d.gress() == Gress.INGRESS) + " of " + g.count());
        }
        return sb.toString();
    }

    public List<PhvContainerGroup> groups() {
        return groups;
    }

    /** Containers of group {@code group} used by {@code gress}. */
    public int used(Gress gress, int group) {
        return usedPerGress[gress.ordinal()][group];
    }

    public int used(int group) {
        int sum = 0;
        for (int[] perGress : usedPerGress) {
            sum += perGress[group];
        }
        return sum;
    }

    public long usedBits() {
        long bits = 0;
        for (int g = 0; g < groups.size(); g++) {
            bits += (long) used(g) * groups.get(g).widthBits();
        }
        return bits;
    }

    /** Sum of the widths of the fields placed (before container rounding). */
    public long requestedBits() {
        return requestedBits;
    }

    public List<String> failures() {
        return List.copyOf(failures);
    }

    public boolean fits() {
        return failures.isEmpty();
    }
}

package dev.rmtemu.model.program;

import dev.rmtemu.model.phv.Gress;

/**
 * Where the compiler's table placement put one element of a control (a table, a gateway, or
 * a group of instructions and register actions that runs as one action) and why there: the
 * dependency that set its earliest stage ({@code cause} names its kind, {@code on} the element
 * it depends on, {@code field} the field that makes it), or a pin, and the stages whose
 * resources were full ({@code pushedBy}, empty when none).
 *
 * @param cause    {@code start}, {@code match}, {@code action}, {@code output}, {@code control},
 *                 {@code reverse}, {@code pin} or {@code shared} (a register array or hash unit another element uses)
 * @param on       the element depended on (empty for start and pin)
 * @param field    the field (or array, hash unit) the dependency is on (empty when none)
 * @param earliest the earliest stage the dependencies allow
 * @param pushedBy the first resource failure of each stage tried before {@code stage}, joined by "; "
 */
public record ElementPlacement(Gress gress, String kind, String element, int stage, String cause, String on,
                               String field, int earliest, String pushedBy) {

    /** Why the element is where it is, in one line. */
    public String reason() {
        String why = switch (cause) {
            case "start" -> "no dependency";
            case "pin" -> "@stage(" + stage + ")" + (earliest < stage ? ", dependencies allow stage " + earliest : "");
            case "shared" -> "shares " + field + " with " + on;
            default -> cause + " dependency on " + on + (field.isEmpty() ? "" : " (" + field + ")");
        };
        return pushedBy.isEmpty() ? why : why + "; earliest " + earliest + ", pushed down: " + pushedBy;
    }
}

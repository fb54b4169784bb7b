package dev.rmtemu.emulator.topology;

/**
 * A topology node. Ports are numbered 1..{@link #ports()}. Fields that do not
 * apply to a kind are null: {@code target} and {@code program} exist only for
 * programmable switches ({@code program} may be null: the lead's engine then
 * forwards by routing only), {@code address} and {@code role} only for hosts.
 *
 * @param index   position in {@link Topology#nodes()}, the node id used by routing
 * @param name    unique name, letters, digits, '_', '-', '.'
 * @param kind    programmable switch, regular switch or host
 * @param ports   number of ports (a host has exactly 1)
 * @param target  target profile name of a programmable switch, e.g. "tofino1"
 * @param program stage program name of a programmable switch, or null
 * @param params  program parameters, in file order (empty if none)
 * @param address IPv4 prefix a host owns (traffic to it is delivered to the host)
 * @param role    whether a host sends, receives or both
 */
public record Node(int index, String name, NodeKind kind, int ports, String target, String program,
                   KeyValues params, Ipv4Prefix address, HostRole role) {

    /** The only port of a host. */
    public static final int HOST_PORT = 1;

    public boolean isHost() {
        return kind == NodeKind.HOST;
    }

    public boolean isSwitch() {
        return kind.isSwitch();
    }

    public boolean isProgrammable() {
        return kind == NodeKind.PROGRAMMABLE_SWITCH;
    }

    public boolean isRegular() {
        return kind == NodeKind.REGULAR_SWITCH;
    }

    @Override
    public String toString() {
        return name;
    }
}

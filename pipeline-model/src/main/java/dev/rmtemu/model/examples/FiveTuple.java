package dev.rmtemu.model.examples;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.program.ProgramBuilder;

/**
 * The IPv4 5-tuple header fields (104 bits), declared the same way by every program that
 * needs them: the addresses and protocol of the IPv4 header, and the L4 ports as overlays of
 * the mutually exclusive TCP, UDP and ICMP headers (ICMP's type and code stand in for the
 * ports, as flow tables key ICMP), so one hash key serves every IPv4 packet.
 */
public record FiveTuple(Field src, Field dst, Field proto, Field srcPort, Field dstPort) {
    public static FiveTuple declare(ProgramBuilder b) {
        return new FiveTuple(
                b.header("ipv4.src_addr"),
                b.header("ipv4.dst_addr"),
                b.header("ipv4.protocol"),
                b.overlay("l4.src_port", "tcp.src_port", "udp.src_port", "icmp.type"),
                b.overlay("l4.dst_port", "tcp.dst_port", "udp.dst_port", "icmp.code"));
    }

    public Field[] fields() {
        return new Field[] {src, dst, proto, srcPort, dstPort};
    }
}

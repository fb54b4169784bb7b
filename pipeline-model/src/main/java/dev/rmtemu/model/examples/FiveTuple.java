package dev.rmtemu.model.examples;

import dev.rmtemu.model.phv.Field;
import dev.rmtemu.model.phv.ParsedField;
import dev.rmtemu.model.program.ProgramBuilder;

/** The IPv4 5-tuple header fields (104 bits), declared the same way by every program that needs them. */
public record FiveTuple(Field src, Field dst, Field proto, Field srcPort, Field dstPort) {
    public static FiveTuple declare(ProgramBuilder b) {
        return new FiveTuple(
                b.header("ipv4.src_addr", 32, ParsedField.IPV4_SRC),
                b.header("ipv4.dst_addr", 32, ParsedField.IPV4_DST),
                b.header("ipv4.protocol", 8, ParsedField.PROTOCOL),
                b.header("l4.src_port", 16, ParsedField.SRC_PORT),
                b.header("l4.dst_port", 16, ParsedField.DST_PORT));
    }

    public Field[] fields() {
        return new Field[] {src, dst, proto, srcPort, dstPort};
    }
}

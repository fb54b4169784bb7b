package dev.rmtemu.model.parse;

import java.io.ByteArrayOutputStream;

/** Hand-built frames for the parser tests: each method appends one header in wire order. */
final class Frames {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static Frames frame() {
        return new Frames();
    }

    /**
     * One frame down each branch of the default parse graph: ARP, VLAN + IPv4 + UDP, QinQ + IPv6 +
     * TCP, IPv4 with options + TCP with options and payload, IPv6 with extension headers and a
     * fragment, an IHL below 5 (a parser error), a VLAN tag with nothing after it.
     */
    static byte[][] defaultGraphSamples() {
        return new byte[][] {
            frame().ethernet(0x0806).arp(1, 1, 2).build(),
            frame().ethernet(0x8100).vlan(1, 2, 0x0800).ipv4(17, 28, 0, 0).udp(1, 2, 8).build(),
            frame().ethernet(0x88A8).vlan(0, 10, 0x8100).vlan(3, 20, 0x86DD).ipv6(6, 20).tcp(1, 2, 0).build(),
            frame().ethernet(0x0800).ipv4(6, 72, 8, 0).tcp(80, 1234, 12).payload("GET /").build(),
            frame().ethernet(0x86DD).ipv6(0, 48).ipv6Extension(43, 0).ipv6Extension(44, 1).ipv6Fragment(17, 0, 9)
                    .udp(1, 2, 8).build(),
            frame().ethernet(0x0800).ipv4Ihl(4, 6).zeros(20).build(),
            frame().ethernet(0x8100).vlan(0, 7, 0x0800).build(),
        };
    }

    Frames bytes(int... b) {
        for (int x : b) {
            out.write(x);
        }
        return this;
    }

    Frames u16(int v) {
        return bytes(v >>> 8, v & 0xFF);
    }

    Frames u32(long v) {
        return u16((int) (v >>> 16) & 0xFFFF).u16((int) v & 0xFFFF);
    }

    Frames zeros(int n) {
        for (int i = 0; i < n; i++) {
            out.write(0);
        }
        return this;
    }

    Frames ethernet(int etherType) {
        return bytes(0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02).u16(etherType);
    }

    Frames vlan(int pcp, int vid, int etherType) {
        return u16((pcp << 13) | vid).u16(etherType);
    }

    Frames arp(int opcode, long senderIp, long targetIp) {
        return u16(1).u16(0x0800).bytes(6, 4).u16(opcode).bytes(0x02, 0, 0, 0, 0, 0x01).u32(senderIp)
                .zeros(6).u32(targetIp);
    }

    /** An IPv4 header with {@code optionBytes} of options (IHL follows), checksum as given. */
    Frames ipv4(int protocol, int totalLen, int optionBytes, int checksum) {
        int ihl = 5 + optionBytes / 4;
        bytes(0x40 | ihl, 0).u16(totalLen).u16(0x1234).u16(0x4000).bytes(64, protocol).u16(checksum)
                .u32(0x0A000001L).u32(0x0A000002L);
        for (int i = 0; i < optionBytes; i++) {
            out.write(i == optionBytes - 1 ? 0 : 1); // NOPs then end of options
        }
        return this;
    }

    Frames ipv4Ihl(int ihl, int protocol) {
        return bytes(0x40 | ihl, 0).u16(40).u16(1).u16(0).bytes(64, protocol).u16(0).u32(0x0A000001L).u32(0x0A000002L);
    }

    Frames ipv6(int nextHdr, int payloadLen) {
        bytes(0x60, 0, 0, 0).u16(payloadLen).bytes(nextHdr, 64);
        bytes(0x20, 0x01, 0x0d, 0xb8).zeros(11).bytes(1);
        return bytes(0x20, 0x01, 0x0d, 0xb8).zeros(11).bytes(2);
    }

    /** An IPv6 extension header of {@code (len + 1) * 8} bytes. */
    Frames ipv6Extension(int nextHdr, int len) {
        bytes(nextHdr, len);
        for (int i = 0; i < len * 8 + 6; i++) {
            out.write(i == 0 ? 1 : 0);
        }
        return this;
    }

    Frames ipv6Fragment(int nextHdr, int offset, long id) {
        return bytes(nextHdr, 0).u16(offset << 3).u32(id);
    }

    /** TCP with {@code optionBytes} of options (data offset follows). */
    Frames tcp(int src, int dst, int optionBytes) {
        u16(src).u16(dst).u32(1000).u32(0).bytes((5 + optionBytes / 4) << 4, 0x18).u16(512).u16(0).u16(0);
        for (int i = 0; i < optionBytes; i++) {
            out.write(i < 4 ? new int[] {2, 4, 5, 0xB4}[i] : 1);
        }
        return this;
    }

    Frames udp(int src, int dst, int len) {
        return u16(src).u16(dst).u16(len).u16(0);
    }

    Frames payload(String text) {
        for (char c : text.toCharArray()) {
            out.write(c);
        }
        return this;
    }

    byte[] build() {
        return out.toByteArray();
    }
}

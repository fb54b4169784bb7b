package dev.rmtemu.emulator.engine;

import dev.rmtemu.traces.PacketRecord;

import java.io.ByteArrayOutputStream;

/** Hand-built frames for the engine's parser tests: each method appends one header in wire order. */
final class TestFrames {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    static TestFrames frame() {
        return new TestFrames();
    }

    TestFrames bytes(int... b) {
        for (int x : b) {
            out.write(x);
        }
        return this;
    }

    TestFrames u16(int v) {
        return bytes(v >>> 8, v & 0xFF);
    }

    TestFrames u32(long v) {
        return u16((int) (v >>> 16) & 0xFFFF).u16((int) v & 0xFFFF);
    }

    TestFrames zeros(int n) {
        for (int i = 0; i < n; i++) {
            out.write(0);
        }
        return this;
    }

    TestFrames ethernet(long dst, long src, int etherType) {
        return u16((int) (dst >>> 32)).u32(dst & 0xFFFFFFFFL).u16((int) (src >>> 32)).u32(src & 0xFFFFFFFFL).u16(etherType);
    }

    TestFrames ethernet(int etherType) {
        return ethernet(0x020000000001L, 0x020000000002L, etherType);
    }

    TestFrames vlan(int pcp, int vid, int etherType) {
        return u16((pcp << 13) | vid).u16(etherType);
    }

    TestFrames arp(int opcode, long senderIp, long targetIp) {
        return u16(1).u16(0x0800).bytes(6, 4).u16(opcode).bytes(0x02, 0, 0, 0, 0, 0x01).u32(senderIp)
                .zeros(6).u32(targetIp);
    }

    /** IPv4 with {@code optionBytes} of options (IHL follows) and a valid header checksum. */
    TestFrames ipv4(int protocol, int totalLen, int optionBytes, int ttl) {
        int start = out.size();
        int ihl = 5 + optionBytes / 4;
        bytes(0x40 | ihl, 0).u16(totalLen).u16(0x1234).u16(0x4000).bytes(ttl, protocol).u16(0)
                .u32(0x0A000001L).u32(0x0A000002L);
        for (int i = 0; i < optionBytes; i++) {
            out.write(i == optionBytes - 1 ? 0 : 1); // NOPs then end of options
        }
        byte[] b = out.toByteArray();
        int sum = 0;
        for (int i = start; i < b.length; i += 2) {
            sum += ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        int checksum = ~sum & 0xFFFF;
        out.reset();
        b[start + 10] = (byte) (checksum >>> 8);
        b[start + 11] = (byte) checksum;
        out.write(b, 0, b.length);
        return this;
    }

    TestFrames ipv4Ihl(int ihl, int protocol) {
        return bytes(0x40 | ihl, 0).u16(40).u16(1).u16(0).bytes(64, protocol).u16(0).u32(0x0A000001L).u32(0x0A000002L);
    }

    TestFrames ipv6(int nextHdr, int payloadLen) {
        bytes(0x60, 0, 0, 0).u16(payloadLen).bytes(nextHdr, 64);
        bytes(0x20, 0x01, 0x0d, 0xb8).zeros(11).bytes(1);
        return bytes(0x20, 0x01, 0x0d, 0xb8).zeros(11).bytes(2);
    }

    /** An IPv6 extension header of {@code (len + 1) * 8} bytes. */
    TestFrames ipv6Extension(int nextHdr, int len) {
        bytes(nextHdr, len);
        for (int i = 0; i < len * 8 + 6; i++) {
            out.write(i == 0 ? 1 : 0);
        }
        return this;
    }

    TestFrames ipv6Fragment(int nextHdr, int offset, long id) {
        return bytes(nextHdr, 0).u16(offset << 3).u32(id);
    }

    /** TCP with {@code optionBytes} of options (data offset follows). */
    TestFrames tcp(int src, int dst, int optionBytes) {
        u16(src).u16(dst).u32(1000).u32(0).bytes((5 + optionBytes / 4) << 4, 0x18).u16(512).u16(0).u16(0);
        for (int i = 0; i < optionBytes; i++) {
            out.write(i < 4 ? new int[] {2, 4, 5, 0xB4}[i] : 1);
        }
        return this;
    }

    TestFrames udp(int src, int dst, int len) {
        return u16(src).u16(dst).u16(len).u16(0);
    }

    TestFrames icmp(int type, int code) {
        return bytes(type, code).u16(0).u32(0x00010002L);
    }

    TestFrames payload(String text) {
        for (char c : text.toCharArray()) {
            out.write(c);
        }
        return this;
    }

    byte[] build() {
        return out.toByteArray();
    }

    /** A record carrying {@code frame} whole, its wire length the frame's. */
    static PacketRecord record(byte[] frame) {
        return record(frame, frame.length, frame.length);
    }

    /** A record carrying the first {@code caplen} bytes of {@code frame}, of {@code wire} bytes on the wire. */
    static PacketRecord record(byte[] frame, int caplen, int wire) {
        PacketRecord r = PacketRecord.allocate(Math.max(caplen, PacketRecord.DEFAULT_FRAME_CAPACITY));
        r.wireLength(wire);
        r.putFrame(frame, 0, caplen);
        return r;
    }
}

package dev.rmtemu.traces.parse;

import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.pcap.CaptureFiles;
import dev.rmtemu.traces.pcap.CaptureReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** trace info's protocol hierarchy over a pcap written here: chains, per-header and per-error counts. */
class ProtocolHierarchyTest {
    private static byte[] ethernet(int etherType, byte[] rest) {
        ByteBuffer b = ByteBuffer.allocate(14 + rest.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) etherType).put(rest);
        return b.array();
    }

    private static byte[] ipv4Udp() {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 28).putShort((short) 1).putShort((short) 0).put((byte) 64)
                .put((byte) 17).putShort((short) 0).putInt(0x0A000001).putInt(0x0A000002);
        b.putShort((short) 53).putShort((short) 53).putShort((short) 8).putShort((short) 0);
        return b.array();
    }

    private static Path pcap(Path dir, int linkType, List<byte[]> frames, int[] wireLengths) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(24 + frames.stream().mapToInt(f -> 16 + f.length).sum()).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(linkType);
        for (int i = 0; i < frames.size(); i++) {
            b.putInt(1).putInt(i).putInt(frames.get(i).length).putInt(wireLengths[i]).put(frames.get(i));
        }
        Path p = dir.resolve("h.pcap");
        Files.write(p, b.array());
        return p;
    }

    @Test
    void countsChainsHeadersAndErrors(@TempDir Path dir) throws IOException {
        byte[] udp = ethernet(0x0800, ipv4Udp());
        byte[] vlan = ethernet(0x8100, ByteBuffer.allocate(4 + 28).putShort((short) 5).putShort((short) 0x0800)
                .put(ipv4Udp()).array());
        byte[] arp = ethernet(0x0806, new byte[28]);
        byte[] cut = java.util.Arrays.copyOf(udp, 20);
        Path p = pcap(dir, 1, List.of(udp, vlan, udp, arp, cut), new int[] {42, 46, 42, 42, 42});
        ProtocolHierarchy h = new ProtocolHierarchy(256);
        try (CaptureReader rd = CaptureFiles.open(p, false)) {
            rd.tap(h);
            PacketRecord rec = PacketRecord.allocate();
            while (rd.next(rec)) {
                // the tap sees every frame, ARP included
            }
        }
        ProtocolHierarchy.Summary s = h.summary();
        assertEquals(5, s.frames());
        assertEquals(4, s.accepted());
        assertEquals(List.of(
                new ProtocolHierarchy.Row(0, "ethernet", 5, 214),
                new ProtocolHierarchy.Row(1, "ipv4", 2, 84),
                new ProtocolHierarchy.Row(2, "udp", 2, 84),
                new ProtocolHierarchy.Row(1, "vlan_outer", 1, 46),
                new ProtocolHierarchy.Row(2, "ipv4", 1, 46),
                new ProtocolHierarchy.Row(3, "udp", 1, 46),
                new ProtocolHierarchy.Row(1, "arp", 1, 42)), s.hierarchy());
        assertEquals(Map.of("ethernet", 5L, "vlan_outer", 1L, "arp", 1L, "ipv4", 3L, "udp", 3L), s.headers());
        assertEquals(Map.of("capture_truncated", 1L), s.parserErrors());
    }

    @Test
    void framesOfOtherLinkTypesAreCountedApart(@TempDir Path dir) throws IOException {
        Path p = pcap(dir, 101, List.of(ipv4Udp()), new int[] {28});
        ProtocolHierarchy h = new ProtocolHierarchy(256);
        try (CaptureReader rd = CaptureFiles.open(p, false)) {
            rd.tap(h);
            PacketRecord rec = PacketRecord.allocate();
            while (rd.next(rec)) {
                // raw IP: decoded by the reader, not parsed by the Ethernet graph
            }
        }
        assertEquals(1, h.summary().otherLinkFrames());
        assertEquals(List.of(), h.summary().hierarchy());
    }
}

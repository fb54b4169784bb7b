package dev.rmtemu.emulator.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Capture;
import dev.rmtemu.emulator.engine.SwitchConfig;
import dev.rmtemu.emulator.engine.SwitchEngine;
import dev.rmtemu.emulator.rundir.RunDirectory;
import dev.rmtemu.emulator.spi.ProgramPlugins;
import dev.rmtemu.emulator.tm.PortConfig;
import dev.rmtemu.model.program.StageProgram;
import dev.rmtemu.model.target.TargetProfile;
import dev.rmtemu.model.target.TargetProfiles;
import dev.rmtemu.traces.PacketRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A record that carries its frame's bytes leaves with exactly those bytes: the capture takes
 * them in place from the packet's slot, whatever the frame is (here an ARP request and a
 * QinQ-tagged frame, which no header rebuild could produce), truncated to what the slot kept.
 */
class CarriedFrameCaptureTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static byte[] hex(String s) {
        s = s.replace(" ", "");
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    @Test
    void theBytesARecordCarriesAreTheBytesThatLeave() {
        byte[] arp = hex("ffffffffffff 020000000001 0806 0001 0800 06 04 0001 020000000001 0a000001"
                + " 000000000000 0a000002 000000000000000000000000000000000000");
        byte[] qinq = new byte[300];
        byte[] head = hex("020000000002 020000000001 88a8 0064 8100 00c8 0800 45000102");
        System.arraycopy(head, 0, qinq, 0, head.length);
        for (int i = head.length; i < qinq.length; i++) {
            qinq[i] = (byte) i;
        }
        TargetProfile profile = TargetProfiles.builtIn("tofino1");
        StageProgram program = ProgramPlugins.registry().build("counter", Map.of());
        // a slot keeps 128 bytes of each frame: the 300-byte frame leaves truncated, its length kept
        SwitchEngine engine = new SwitchEngine(new SwitchConfig(profile, program, 4, PortConfig.strictPriority(100),
                true), 128);
        Path out = dir.resolve("run");
        List<byte[]> frames = List.of(arp, qinq);
        try (RunDirectory rd = RunDirectory.open(out, false, JSON.createObjectNode())) {
            RunCaptures captures = RunCaptures.forSwitch(rd, new CaptureOptions(true, 10, false), engine);
            PacketRecord r = PacketRecord.allocate(512);
            for (int i = 0; i < frames.size(); i++) {
                byte[] f = frames.get(i);
                r.clear().timestampNs(1000L * i).wireLength(f.length + 4).ingressPort(2).putFrame(f, 0, f.length);
                engine.arrive(1000L * i, 2, r);
            }
            engine.drain();
            assertEquals(List.of(), captures.finish());
        }
        Capture egress = CaptureFilesReader.read(out.resolve("capture/egress.pcapng"));
        assertEquals(2, egress.frames().size());
        assertArrayEquals(arp, egress.frames().get(0).bytes());
        assertEquals(arp.length + 4, egress.frames().get(0).wire());
        assertArrayEquals(Arrays.copyOf(qinq, 128), egress.frames().get(1).bytes());
        assertEquals(qinq.length + 4, egress.frames().get(1).wire());
        assertEquals(1, egress.frames().get(0).port());
    }
}

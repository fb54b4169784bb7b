package dev.rmtemu.emulator.capture;

import dev.rmtemu.emulator.LineTopology;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Capture;
import dev.rmtemu.emulator.capture.CaptureFilesReader.Frame;
import dev.rmtemu.emulator.network.NetworkEngine;
import dev.rmtemu.emulator.network.NetworkOptions;
import dev.rmtemu.emulator.run.NetworkReplay;
import dev.rmtemu.emulator.spi.ReplayOptions;
import dev.rmtemu.emulator.spi.ReplayResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A packet a link's impairment drops is in the drops capture of the switch that sent it, on the
 * egress port it left by, with the link drop and its impairment as the comment (the sender, so
 * that inside a parallel window only the sending switch's thread writes its files); no switch's
 * own drop counters count it (the link does).
 */
class LinkDropCaptureTest {
    @TempDir
    Path dir;

    @Test
    void aLinkLossIsInTheSendingSwitchsDropsCapture() throws Exception {
        Path topo = LineTopology.write(dir.resolve("line.yaml"), true, "{loss: \"bernoulli:0.1\"}");
        Path out = dir.resolve("run");
        ReplayOptions o = new ReplayOptions("counter", Map.of("cells", "64", "port", "511"), "tofino1",
                "gen:isp?packets=3000&flows=200&seed=3", "rate:10G", 1, 0, 100, true, 0, out, false, null, topo.toString(),
                false, NetworkOptions.DEFAULT_MAX_HOPS, false, new CaptureOptions(true, CaptureOptions.DEFAULT_LIMIT, false));
        ReplayResult r = NetworkReplay.run(o, null);
        NetworkEngine net = r.network();
        long lost = net.lost(1, 0); // link 1 is s1:2 - s2:2, direction 0 from s1 to s2
        assertTrue(lost > 200 && lost < 400, "about a tenth of 3000 packets lost: " + lost);
        Capture drops = CaptureFilesReader.read(out.resolve("capture/s1/drops.pcapng"));
        assertEquals(0, net.switchEngine("s1").counters().droppedTotal(), "the switch dropped nothing itself");
        assertEquals(lost, drops.frames().size());
        for (Frame f : drops.frames()) {
            assertEquals("link_drop: bernoulli(p=0.1)", f.comment());
            assertEquals(1, f.port(), "s1's port 2 (0-based 1), where the link starts");
            assertTrue(f.bytes().length > 0, "the frame as it was sent");
        }
        assertEquals(List.of("port0", "port1"), drops.interfaceNames().subList(0, 2));
        assertEquals(0, net.switchEngine("s2").counters().droppedTotal(), "the receiver dropped nothing either");
        Capture sent = CaptureFilesReader.read(out.resolve("capture/s1/egress.pcapng"));
        Capture received = CaptureFilesReader.read(out.resolve("capture/s2/egress.pcapng"));
        assertEquals(sent.frames().size() - lost, received.frames().size());
    }
}

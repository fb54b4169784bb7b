package dev.rmtemu.emulator.run;

import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import dev.rmtemu.traces.pcap.PcapWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The total the progress bar is given: a generator knows it, a capture file does not, --max-packets caps it. */
class ExpectedPacketsTest {
    @Test
    void generatorCountCappedByMaxPackets() {
        try (PacketSource s = TraceSpec.open("gen:isp?packets=12345&flows=10")) {
            assertEquals(12345, s.knownCount());
            assertEquals(12345, Replay.expectedPackets(s, 0));
            assertEquals(1000, Replay.expectedPackets(s, 1000));
            assertEquals(12345, Replay.expectedPackets(s, 20000));
        }
    }

    @Test
    void captureFileCountIsUnknownUnlessMaxPacketsGivesOne(@TempDir Path tmp) {
        Path pcap = tmp.resolve("e.pcap");
        new PcapWriter(pcap).close();
        try (PacketSource s = TraceSpec.open(pcap.toString())) {
            assertEquals(PacketSource.UNKNOWN_COUNT, s.knownCount());
            assertEquals(PacketSource.UNKNOWN_COUNT, Replay.expectedPackets(s, 0));
            assertEquals(700, Replay.expectedPackets(s, 700));
        }
    }
}

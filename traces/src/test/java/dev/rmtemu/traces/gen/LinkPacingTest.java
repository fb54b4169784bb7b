package dev.rmtemu.traces.gen;

import dev.rmtemu.traces.LinkQueueing;
import dev.rmtemu.traces.PacketRecord;
import dev.rmtemu.traces.PacketSource;
import dev.rmtemu.traces.spec.TraceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A generator that claims a link rate never starts a frame before the previous one has left its link. */
class LinkPacingTest {
    /** The issue's walk: the first 200 K packets of each generator. */
    private static final long WALK = 200_000;

    @Test
    void aFrameOnABusyLinkWaitsForTheFirstWholeNsAfterThePreviousHasLeft() {
        LinkPacer p = new LinkPacer(10, 2);
        // 64 B at 10 Gb/s: (64 + 20) x 8 / 10 = 67.2 ns on the wire
        assertEquals(0, p.start(0, 0, 64));
        assertEquals(68, p.start(50, 0, 64), "link 0 is busy until 67.2 ns");
        // link 1 is free, but starts never go back in time: order kept
        assertEquals(68, p.start(60, 1, 1500));
        // link 0 is free again at 68 + 67.2 = 135.2; wanted later than that: no delay
        assertEquals(136, p.start(136, 0, 64));
        // link 1 busy until 68 + 1216 = 1284 exactly
        assertEquals(1284, p.start(1000, 1, 64));
        assertEquals(new LinkQueueing(10, 2, 5, 3, 18 + 8 + 284, 284), p.stats());
    }

    /** Walks {@code spec}'s first packets; fails at the first frame that starts on a busy link or before its predecessor. */
    private static LinkQueueing walk(String spec) {
        try (PacketSource src = TraceSpec.open(spec)) {
            double gbps = ((SyntheticSource) src).config().linkGbps();
            Map<Integer, long[]> last = new HashMap<>(); // per port: timestamp, wire length of its last frame
            PacketRecord r = PacketRecord.allocate();
            long prevTs = Long.MIN_VALUE;
            for (long i = 0; i < WALK && src.next(r); i++) {
                long ts = r.timestampNs();
                assertTrue(ts >= prevTs, spec + ": packet " + i + " at " + ts + " before its predecessor at " + prevTs);
                prevTs = ts;
                long[] l = last.get(r.ingressPort());
                if (l != null) {
                    // (ts - previous start) x Gb/s >= previous frame's bits incl. preamble, SFD and gap (exact in doubles)
                    double gapBits = (ts - l[0]) * gbps;
                    double frameBits = (l[1] + LinkPacer.WIRE_OVERHEAD_BYTES) * 8.0;
                    assertTrue(gapBits >= frameBits, spec + ": packet " + i + " on port " + r.ingressPort() + " starts "
                            + (ts - l[0]) + " ns after the previous frame of " + l[1] + " B, which needs " + frameBits / gbps);
                }
                last.put(r.ingressPort(), new long[] {ts, r.wireLength()});
            }
            return src.linkQueueing();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "gen:isp?seed=3",                          // backbone model, the paper's 10 Gb/s link
        "gen:isp?seed=3&gbps=10&load=0.5",         // backbone model, busier
        "gen:isp?seed=3&dist=zipf&ipv6=0.3",       // flow model: zipf
        "gen:dc?seed=3&ports=4",                   // pareto, four links
        "gen:incast?seed=3",                       // one link per sender
        "gen:incast?seed=3&senders=64&ports=8",    // eight senders share each link
        "gen:tcp?seed=3&load=1",                   // back to back
        "gen:uniform?seed=3&ipv6=0.5"})
    void noGeneratorStartsAFrameOnABusyLink(String spec) {
        LinkQueueing q = walk(spec);
        assertEquals(WALK, q.packets());
        assertTrue(q.delayed() <= q.packets());
    }

    @Test
    void incastSendersQueueOnlyWhereTheyShareALink() {
        LinkQueueing own = walk("gen:incast?seed=3");
        assertEquals(GeneratorConfig.INCAST_SENDERS, own.links());
        assertEquals(0, own.delayed(), "one link per sender: " + own);
        LinkQueueing shared = walk("gen:incast?seed=3&senders=64&ports=8");
        assertEquals(8, shared.links());
        // eight senders per link: seven of each eight frames of a burst wait for the others
        assertTrue(shared.delayed() > WALK / 2, shared.toString());
    }

    @Test
    void theIssuesReproducerQueuesWhatOverlappedAndSaysHowMuch() {
        String spec = "gen:isp?packets=20000&seed=3&gbps=10";
        LinkQueueing q;
        try (PacketSource src = TraceSpec.open(spec)) {
            PacketRecord r = PacketRecord.allocate();
            while (src.next(r)) {
                // drain
            }
            q = src.linkQueueing();
        }
        // 1,653 frames overlapped their predecessor before; queued, each may delay the ones behind it
        assertEquals(new LinkQueueing(10, 1, 20_000, 2_915, 1_156_350, 2_671), q);
    }

    @Test
    void queueingIsDeterministicAndKeepsTheSeedsStreams() {
        LinkQueueing a = walk("gen:isp?seed=5&load=0.4");
        LinkQueueing b = walk("gen:isp?seed=5&load=0.4");
        assertEquals(a, b);
        assertTrue(a.delayed() > 0, "a 40 % backbone load has overlapping flows to queue: " + a);
        // the flow model at 50 % load overlaps only where a start rounds down to a whole ns; such delays are < 1 ns + 1
        LinkQueueing z = walk("gen:tcp?seed=5");
        assertTrue(z.maxDelayNs() <= 1, z.toString());
    }
}

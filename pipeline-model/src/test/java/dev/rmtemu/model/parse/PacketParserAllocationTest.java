package dev.rmtemu.model.parse;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Parsing and deparsing allocate nothing per packet: after warm-up, 200,000 frames
 * of every kind (and errors) through the default graph, the checksum-updating
 * deparser included, and a lean parse of each by its generated code ({@link LeanParseCode}), move
 * the thread's allocation counter by less than one object per thousand packets (as
 * CompiledPassAllocationTest measures the stages).
 */
class PacketParserAllocationTest {
    private static final int PACKETS = 200_000;
    /** What the JVM itself may allocate on this thread meanwhile (a late JIT or OSR transition). */
    private static final long TOLERATED_BYTES = 4096;

    @Test
    void steadyStateAllocatesNothing() {
        var plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "allocation counter not available");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "allocation counter disabled");
        ParseGraph g = DefaultParseGraph.build();
        PacketParser parser = new PacketParser(g, 256);
        ParseResult r = new ParseResult(g);
        PacketParser lean = new PacketParser(g, 256);
        lean.need(g.field("ipv4.src_addr"));
        lean.need(g.field("tcp.dst_port"));
        assertTrue(lean.leanParseGenerated());
        ParseResult leanResult = new ParseResult(g);
        Deparser deparser = DefaultParseGraph.deparserWithIpv4Checksum(g);
        FieldRef ttl = g.field("ipv4.ttl");
        byte[][] frames = Frames.defaultGraphSamples();
        byte[] out = new byte[512];
        long accepted = run(parser, r, lean, leanResult, deparser, ttl, frames, out);
        assertEquals(PACKETS / frames.length * 5 + Math.min(5, PACKETS % frames.length), accepted);
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        run(parser, r, lean, leanResult, deparser, ttl, frames, out);
        long bytes = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue(bytes <= TOLERATED_BYTES, bytes + " bytes allocated by " + PACKETS + " parses and deparses");
    }

    private static long run(PacketParser parser, ParseResult r, PacketParser lean, ParseResult leanResult,
                            Deparser deparser, FieldRef ttl, byte[][] frames, byte[] out) {
        long accepted = 0;
        for (int i = 0; i < PACKETS; i++) {
            byte[] f = frames[i % frames.length];
            boolean leanOk = lean.parseNeeded(f, 0, f.length, f.length, leanResult);
            if (leanOk != (leanResult.error() == null)) {
                throw new AssertionError("lean parse of frame " + (i % frames.length) + " says accepted and an error");
            }
            if (parser.parse(f, 0, f.length, f.length, r)) {
                accepted++;
                if (r.isValid(ttl.header())) {
                    r.set(ttl, r.get(ttl) - 1);
                }
                deparser.deparse(r, f, 0, f.length, out, 0);
            }
        }
        return accepted;
    }
}

package dev.rmtemu.programs.hashpipe.program;

import dev.rmtemu.programs.hashpipe.control.FlowCount;
import dev.rmtemu.programs.hashpipe.control.HashPipeCollector;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A 3-stage HashPipe traced by hand, in the spirit of the paper's Figure 1.
 * One slot per stage, so every key maps to the same slot of every stage and the
 * trace does not depend on the hashes: the tables below follow from the
 * algorithm alone. Keys are source addresses A = 10.0.0.1, B = .2, C = .3, D = .4.
 */
class HashPipeHandTraceTest {
    private static final int A = 0x0A000001;
    private static final int B = 0x0A000002;
    private static final int C = 0x0A000003;
    private static final int D = 0x0A000004;

    private final HashPipeConfig cfg = new HashPipeConfig(3, 1, KeyKind.SRCIP, HashPipeConfig.FAMILY_CRC32, false);
    private final PipeRig rig = new PipeRig(cfg, "tofino1");

    private void send(int src) {
        rig.send(PipeRig.packet(src, 0x0B000001, 6, 1234, 80, 100));
    }

    /** Asserts stage tables as {key, count} per stage (0 = empty). */
    private void expect(String when, long[]... stages) {
        HashPipeCollector.Tables t = HashPipeCollector.read(rig.state, cfg, 0);
        for (int i = 0; i < stages.length; i++) {
            assertEquals(stages[i][0] & 0xFFFFFFFFL, t.keyLo()[i][0], when + ": stage " + (i + 1) + " key");
            assertEquals(stages[i][1], t.count()[i][0], when + ": stage " + (i + 1) + " count");
        }
    }

    private static long[] e(int key, long count) {
        return new long[] {key, count};
    }

    private static final long[] EMPTY = {0, 0};

    @Test
    void tracedExample() {
        send(A);
        send(A);
        send(A);
        expect("A x3: stage 1 inserts then increments", e(A, 3), EMPTY, EMPTY);
        send(B);
        expect("B: stage 1 always inserts, (A,3) carried into the empty stage 2", e(B, 1), e(A, 3), EMPTY);
        send(C);
        expect("C: (B,1) evicted, loses to (A,3) in stage 2, fills stage 3", e(C, 1), e(A, 3), e(B, 1));
        send(C);
        expect("C: hit in stage 1", e(C, 2), e(A, 3), e(B, 1));
        send(B);
        expect("B: (C,2) evicted, loses to (A,3), beats (B,1) in stage 3; (B,1) dropped",
                e(B, 1), e(A, 3), e(C, 2));
        send(A);
        expect("A: a second copy of A enters stage 1; (B,1) carried and dropped", e(A, 1), e(A, 3), e(C, 2));
        assertEquals(List.of(new FlowCount(A, 0, 4), new FlowCount(C, 0, 2)), HashPipeCollector.collect(rig.state, cfg),
                "collector sums the duplicate A");
        send(D);
        expect("D: carried (A,1) hits (A,3) in stage 2 and merges", e(D, 1), e(A, 4), e(C, 2));
        send(C);
        expect("C: carried (D,1) loses twice and is dropped", e(C, 1), e(A, 4), e(C, 2));
        send(B);
        expect("B: carried (C,1) merges into (C,2) in stage 3", e(B, 1), e(A, 4), e(C, 3));
        send(D);
        send(D);
        expect("D twice: (B,1) evicted, loses to (A,4) and (C,3), dropped; D increments", e(D, 2), e(A, 4), e(C, 3));
        send(B);
        send(B);
        send(B);
        expect("B x3: (D,2) evicted, loses twice, dropped; B climbs", e(B, 3), e(A, 4), e(C, 3));
        send(D);
        expect("D: carried (B,3) ties (C,3) in stage 3: the resident stays", e(D, 1), e(A, 4), e(C, 3));
        assertEquals(List.of(new FlowCount(A, 0, 4), new FlowCount(C, 0, 3), new FlowCount(D, 0, 1)),
                HashPipeCollector.collect(rig.state, cfg));
    }
}
